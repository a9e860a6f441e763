"""Payouts for 10,000 players, on PostgreSQL: the settle-up, the selector, the cached endpoint.

    .venv/bin/python bench/payouts.py [--players 10000] [--reads 50]

Bulk-creates a running tournament of ``--players`` entries whose kept standings hold random
nets summing to zero (rows, not deals: the payouts read the kept standings), then times:

- ``money.settle_up`` alone on those balances, beside the previous algorithm (the greedy that
  sorted both lists again after every transfer) in the same run, as a ratio;
- ``payouts_made`` (read the rows, settle, put into money) — what a cache miss costs: target
  ≤ 0.2 s;
- ``GET /api/v1/tournaments/{id}/payouts/`` anonymously (a public tournament) through Django's
  test client, answered from the cache (the version query, then the cached answer), beside a
  plain ``SELECT`` of the same 10,000 rows as the baseline.

Uses its own database (``gupai_bench`` unless ``BENCH_DATABASE_URL`` says otherwise; created
and migrated here; each run adds a tournament) and no Redis (the cache is the process's memory,
as without ``REDIS_URL``; ``BENCH_REDIS_URL`` to use Redis).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.stack import bench_env, prepare_database, summary, timed  # noqa: E402

ENV = bench_env(redis=os.environ.get("BENCH_REDIS_URL"))
PG = ENV["DATABASE_URL"]


def greedy_sorting_again(group):
    """The previous ``money._greedy``: both lists sorted again after every transfer."""
    order = {k: i for i, (k, _) in enumerate(group)}
    debtors = sorted(((-v, k) for k, v in group if v < 0), key=lambda x: (-x[0], order[x[1]]))
    creditors = sorted(((v, k) for k, v in group if v > 0), key=lambda x: (-x[0], order[x[1]]))
    out = []
    while debtors and creditors:
        owe, d = debtors[0]
        due, c = creditors[0]
        paid = min(owe, due)
        out.append((d, c, paid))
        debtors[0], creditors[0] = (owe - paid, d), (due - paid, c)
        if owe == paid:
            debtors.pop(0)
        if due == paid:
            creditors.pop(0)
        debtors.sort(key=lambda x: (-x[0], order[x[1]]))
        creditors.sort(key=lambda x: (-x[0], order[x[1]]))
    return out


def build(players: int):
    from django.db import transaction

    from scoring.domain.actors import Actor
    from scoring.models import Entry, Player, Standing, Tournament
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create
    from scoring.services.tournaments import tournament_create

    stamp = int(time.time() * 1000)
    director = director_create(username=f"pay{stamp}", password="bench-secret-1")
    actor = Actor(user=director)
    club = club_create(actor=actor, name=f"Payouts bench {stamp}")
    t = tournament_create(actor=actor, club=club, name=f"Payouts {stamp}", game="jie_long", chip_value="0.10",
                          currency="EUR", public=True)
    rnd = random.Random(2026)
    nets = [rnd.randint(-3000, 3000) for _ in range(players - 1)]
    nets.append(-sum(nets))
    with transaction.atomic():
        made = Player.objects.bulk_create([Player(club=club, name=f"Player {i:05d}") for i in range(players)],
                                          batch_size=5000)
        entries = Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in made], batch_size=5000)
        Standing.objects.bulk_create([Standing(tournament=t, entry=e, total=n, rounds_counted=40)
                                      for e, n in zip(entries, nets)], batch_size=5000)
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    t.refresh_from_db()
    return t, list(zip([e.pk for e in entries], nets))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--reads", type=int, default=50)
    args = parser.parse_args()
    prepare_database(ENV)
    import django

    django.setup()
    from django.db import connection
    from django.test import Client

    from games import settle as money
    from scoring.selectors.payouts import payouts_made

    t, balances = build(args.players)
    print(f"PostgreSQL {PG.rsplit('/', 1)[1]}: {args.players:,} players with random nets summing to zero; "
          f"cache: {'Redis' if os.environ.get('REDIS_URL') else 'local memory'}")

    items = [(k, v) for k, v in balances if v]
    new = statistics.median(timed(lambda: money.settle_up(balances), 5))
    began = time.perf_counter()
    greedy_sorting_again(items)   # what the previous settle_up spent its time on past 12 parties
    old = (time.perf_counter() - began) * 1000
    print(f"settle_up alone: {new:8.1f} ms;  the previous greedy on the same balances: {old:8.1f} ms  "
          f"(previous / now = {old / new:5.0f})")

    made = timed(lambda: payouts_made(t), 10)
    print(f"payouts_made (read, settle, money; a cache miss): {summary(made)}   (target <= 200 ms)")

    client = Client()
    path = f"/api/v1/tournaments/{t.pk}/payouts/"
    assert client.get(path).status_code == 200   # fills the cache
    cached = timed(lambda: client.get(path), args.reads)
    print(f"GET {path} (anonymous, cached): {summary(cached)}")

    def plain():
        with connection.cursor() as c:
            c.execute("SELECT e.id, p.name, s.total FROM scoring_entry e JOIN scoring_player p ON p.id = e.player_id "
                      "LEFT JOIN scoring_standing s ON s.entry_id = e.id WHERE e.tournament_id = %s", [t.pk])
            c.fetchall()
    base = statistics.median(timed(plain, 10))
    print(f"baseline, a plain SELECT of the {args.players:,} rows: {base:6.1f} ms;  "
          f"payouts_made / baseline = {statistics.median(made) / base:4.1f};  "
          f"cached GET / baseline = {statistics.median(cached) / base:4.2f}")


if __name__ == "__main__":
    main()
