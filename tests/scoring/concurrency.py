"""Running the same call from several threads at once, each with its own database connection."""

from __future__ import annotations

import threading

from django.db import connections


def run_concurrently(n, target):
    """Run ``target(i)`` in ``n`` threads started together; return their results (or exceptions)."""
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i):
        try:
            barrier.wait(timeout=10)
            results[i] = target(i)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results
