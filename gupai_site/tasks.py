"""The site's own Celery tasks (its plumbing, beside ``scoring.tasks``, which are the club's work):
the queues' heartbeats that ``/readyz`` reads, and the nightly backup.

Here rather than in ``scoring.tasks``: both are about the machines, not about tournaments (a
heartbeat knows nothing of clubs; a backup runs ``pg_dump`` with the site's settings), and
nothing in ``scoring`` imports ``gupai_site``.
"""

from __future__ import annotations

import time

from celery import shared_task
from django.core.cache import cache

from gupai_site.health import heartbeat_key

#: A heartbeat is kept in the cache longer than any readiness threshold needs.
HEARTBEAT_KEPT = 24 * 3600


@shared_task(name="gupai_site.queue_heartbeat", ignore_result=True)
def queue_heartbeat(queue: str) -> None:
    """Write now as ``queue``'s last heartbeat. Beat sends one to each queue every 30 s
    (``gupai_site.queues``): it arrives only if a worker reads that queue and is free to run it."""
    cache.set(heartbeat_key(queue), time.time(), HEARTBEAT_KEPT)


@shared_task(name="gupai_site.backup", ignore_result=False)
def backup() -> str:
    """``manage.py backup`` (Celery beat runs it nightly, on the documents queue). Returns the
    backup's folder."""
    from gupai_site.backups import backup_create, backups_prune

    made = backup_create()
    backups_prune()
    return str(made)
