"""The club ratings' rebuild at 100,000 deals, on PostgreSQL (target ≤ 10 s).

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<yours> .venv/bin/python bench/ratings.py [--deals 100000] [--tables 2500]

Builds the standings bench's tournament (``bench/standings.py``'s ``build``: real evaluated Jie
Long deals bulk-inserted, tables of four) and times ``ratings_rebuild`` (every counted deal read,
rated by openskill's Plackett–Luce, every change, rated deal and rating written, one
transaction); beside it the rules alone (``rate_deals`` on the same deals, no database) as its
floor; then one more deal rated by ``ratings_follow`` (the task after each deal write).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import standings as base  # noqa: E402  (sets the bench's environment first)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=2500)
    args = parser.parse_args()
    base.prepare_database()
    import django
    django.setup()
    from scoring.domain.actors import Actor
    from scoring.domain.ratings import rate_deals
    from scoring.selectors.ratings import rating_deals
    from scoring.services.ratings import ratings_follow, ratings_rebuild
    from scoring.services.rounds import round_record

    t, director, tables, load = base.build(args.deals, args.tables)
    print(f"built {args.deals} deals over {args.tables} tables in {load:.1f} s")
    actor = Actor(user=director)
    club = t.club
    began = time.perf_counter()
    done = ratings_rebuild(actor=actor, club=club)
    rebuild = time.perf_counter() - began
    began = time.perf_counter()
    deals = rating_deals(club, from_round=0)
    read = time.perf_counter() - began
    began = time.perf_counter()
    rate_deals(deals)
    rules = time.perf_counter() - began
    again = time.perf_counter()
    ratings_rebuild(actor=actor, club=club)
    again = time.perf_counter() - again
    round_record(actor=actor, table=tables[0], body={"points": [3, 10, 20, 30]})
    began = time.perf_counter()
    one = ratings_follow(club=club)
    follow = time.perf_counter() - began
    print(f"ratings_rebuild: {done['deals']} deals in {rebuild:.2f} s (again: {again:.2f} s)")
    print(f"  read alone (rating_deals): {read:.2f} s; rules alone (rate_deals): {rules:.2f} s; "
          f"floor/rebuild = {(read + rules) / rebuild:.2f}")
    print(f"ratings_follow of one more deal: {one['deals']} deal in {follow * 1000:.0f} ms")


if __name__ == "__main__":
    main()
