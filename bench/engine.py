"""Rules-engine benchmarks: ``python bench/engine.py [NAME ...]`` (or ``make bench``).

Each benchmark is a named function in ``BENCHMARKS`` returning ``(records, seconds)``: how
many records ``games.evaluate`` went through and the best CPU time of a few rounds, on one
core. Records come from the simulator with fixed seeds, so every run measures the same work.
Add a benchmark with the ``@benchmark(name, target)`` decorator; ``target`` is the records/s
figure the project asks for (None: no target), shown beside the result.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import evaluate  # noqa: E402
from games.simulate import simulate  # noqa: E402

Benchmark = Callable[[], "tuple[int, float]"]

#: (name, function, target records/s or None), in the order they run.
BENCHMARKS: list[tuple[str, Benchmark, float | None]] = []

ROUNDS = 5


def benchmark(name: str, target: float | None = None) -> Callable[[Benchmark], Benchmark]:
    def register(fn: Benchmark) -> Benchmark:
        BENCHMARKS.append((name, fn, target))
        return fn
    return register


def best_time(records: list, rounds: int = ROUNDS) -> tuple[int, float]:
    """Evaluate every record ``rounds`` times; the best round's time. Checks they are valid."""
    assert all(evaluate(r)["ok"] for r in records), "a benchmark record is invalid"
    best = float("inf")
    for _ in range(rounds):
        # CPU time of this process: on a busy machine, time spent waiting for the core is
        # not the engine's. On an idle one it equals the wall time.
        start = time.process_time()
        for r in records:
            evaluate(r)
        best = min(best, time.process_time() - start)
    return len(records), best


def _records(game: str, level: str, deals: int = 2000, seed: int = 2026, **kw) -> list[dict]:
    return list(simulate(game, deals=deals, seed=seed, level=level, **kw))


# ---------------------------------------------------------------------------------------
# Connecting games (issue 3)

@benchmark("ding_niu full logs (moves, SuanZhang detection and blame)", 10_000)
def ding_niu_full_logs() -> tuple[int, float]:
    return best_time(_records("ding_niu", "moves"))


@benchmark("jie_long full logs (moves)")
def jie_long_full_logs() -> tuple[int, float]:
    return best_time(_records("jie_long", "moves"))


@benchmark("jie_long points level", 20_000)
def jie_long_points() -> tuple[int, float]:
    return best_time(_records("jie_long", "points"))


@benchmark("ce_deng points level", 20_000)
def ce_deng_points() -> tuple[int, float]:
    return best_time(_records("ce_deng", "points"))


@benchmark("kko_li_but_i_gi points level", 20_000)
def kko_li_points() -> tuple[int, float]:
    return best_time(_records("kko_li_but_i_gi", "points"))


@benchmark("ding_niu points level", 20_000)
def ding_niu_points() -> tuple[int, float]:
    return best_time(_records("ding_niu", "points"))


# ---------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="run only benchmarks whose name contains one of these")
    args = parser.parse_args(argv)
    width = max(len(name) for name, _, _ in BENCHMARKS)
    short = 0
    for name, fn, target in BENCHMARKS:
        if args.names and not any(word in name for word in args.names):
            continue
        count, seconds = fn()
        rate = count / seconds
        note = ""
        if target is not None:
            met = rate >= target
            short += not met
            note = f"  (target {target:,.0f}/s: {'met' if met else 'NOT met'})"
        print(f"{name:<{width}}  {rate:>10,.0f} records/s{note}", flush=True)
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
