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
#: name -> what a benchmark counts, when it is not whole records (e.g. hand evaluations).
UNITS: dict[str, str] = {}

ROUNDS = 5


def benchmark(name: str, target: float | None = None, unit: str = "records") -> Callable[[Benchmark], Benchmark]:
    def register(fn: Benchmark) -> Benchmark:
        BENCHMARKS.append((name, fn, target))
        UNITS[name] = unit
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
# Tau Ngau and Da Ling (issue 4)

@benchmark("tau_ngau best-hand evaluator (games.bulls.hand_value, table lookup)", 400_000,
           unit="evaluations")
def tau_ngau_hand_evaluator() -> tuple[int, float]:
    """The hand evaluator alone: 200,000 random 5-tile hands of the 32 set (seed 2026), each
    valued for v1 and v2 at once. The lookup table is built before timing (about 0.3 s, once
    per process)."""
    import random

    from games.bulls import build_table, hand_value
    from games.decks import CHINESE_32

    rng = random.Random(2026)
    deck = [t for t, n in CHINESE_32.items() for _ in range(n)]
    hands = [rng.sample(deck, 5) for _ in range(200_000)]
    build_table()
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.process_time()
        for hand in hands:
            hand_value(hand)
        best = min(best, time.process_time() - start)
    return len(hands), best


@benchmark("tau_ngau records through games.evaluate (4 seats: checks, 4 hands, settlement)",
           unit="records")
def tau_ngau_records() -> tuple[int, float]:
    return best_time(_records("tau_ngau", "points", players=4))


@benchmark("tau_ngau records, 6 seats, v1", unit="records")
def tau_ngau_records_six() -> tuple[int, float]:
    return best_time(_records("tau_ngau", "points", players=6, variant={"settlement": "v1"}))


@benchmark("da_ling deals through games.evaluate (4 players)", unit="deals")
def da_ling_deals() -> tuple[int, float]:
    return best_time(_records("da_ling", "points", players=4))


@benchmark("da_ling deals through games.evaluate (5 players, casino chip)", unit="deals")
def da_ling_deals_five() -> tuple[int, float]:
    return best_time(_records("da_ling", "points", players=5, variant={"casino_chip": True}))


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
        unit = UNITS.get(name, "records")
        print(f"{name:<{width}}  {rate:>10,.0f} {unit}/s{note}", flush=True)
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
