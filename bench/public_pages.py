"""Every public page of a big tournament, on PostgreSQL: its size as sent and its time.

    .venv/bin/python bench/public_pages.py [--entries 10000] [--deals 5000] [--reads 20]

Bulk-creates a running, public Jie Long tournament of ``--entries`` players at tables of four
(one session, a scorer link each) and ``--deals`` deals spread over the tables (rounds and
revisions of real evaluated records, straight into the database), with the kept standings
written from those deals. Then asks every public page and live fragment through Django's test
client (the whole request in this process: every middleware, the tournament, the reads, the
template) and prints each one's size as sent (uncompressed, and gzipped as GZipMiddleware sends
it to a browser that accepts it) and its time (median and slowest of ``--reads``). The bound
asked for is 300 kB a page.

Uses its own database (``BENCH_DATABASE_URL``, default ``gupai_bench``; created and migrated here,
each run adds one tournament) and no Redis.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.stack import bench_env, prepare_database  # noqa: E402

ENV = bench_env()
PG = ENV["DATABASE_URL"]
MOST_BYTES = 300_000


def build(n_entries: int, deals: int):
    """The tournament, bulk-inserted: players, entries, tables of four with their seats, deals,
    and the kept standings of those deals."""
    import hashlib
    from datetime import timedelta

    from django.db import connection, transaction
    from django.utils import timezone

    import games
    from games.simulate import simulate
    from scoring.domain.actors import Actor
    from scoring.domain.records import outcomes_by_position
    from scoring.models import Entry, Player, Round, RoundRevision, Seat, Session, Standing, Table
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create
    from scoring.services.tournaments import tournament_create, tournament_start

    stamp = int(time.time() * 1000)
    director = director_create(username=f"pages{stamp}", password="bench-secret-1")
    actor = Actor(user=director)
    club = club_create(actor=actor, name=f"Pages bench {stamp}")
    t = tournament_create(actor=actor, club=club, name=f"Big open {stamp}", game="jie_long", public=True,
                          chip_value="0.10", currency="EUR")
    began = time.perf_counter()
    now = timezone.now()
    with transaction.atomic():
        players = Player.objects.bulk_create([Player(club=club, name=f"Player {i + 1:05d}") for i in range(n_entries)],
                                             batch_size=5000)
        entries = Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players], batch_size=5000)
        session = Session.objects.create(tournament=t, number=1)
        tables = Table.objects.bulk_create(
            [Table(session=session, name=f"Table {i + 1}", scorer_token_created_at=now,
                   scorer_token_hash=hashlib.sha256(f"{stamp}-{i}".encode()).hexdigest())
             for i in range(n_entries // 4)], batch_size=5000)
        Seat.objects.bulk_create([Seat(table=tb, position=p, entry=entries[4 * i + p])
                                  for i, tb in enumerate(tables) for p in range(4)], batch_size=5000)
    tournament_start(actor=actor, tournament=t)
    samples = []
    for k, record in enumerate(simulate("jie_long", deals=500, seed=2026, players=4, level="points")):
        body = {"leader": k % 4, "entered_by": k % 4, "points": record["points"]}
        full = {"game": "jie_long", "variant": t.variant, "seats": ["A", "B", "C", "D"], "points": record["points"]}
        samples.append((body, full, games.evaluate(full)))
    start = now - timedelta(hours=3)
    kept: dict[int, dict] = {e.pk: {"total": 0, "rounds_counted": 0, "wins": 0, "place_1": 0, "place_2": 0,
                                    "place_3": 0, "place_4": 0} for e in entries}
    with transaction.atomic():
        per_table = [0] * len(tables)
        rounds = []
        for k in range(deals):
            i = k % len(tables)
            per_table[i] += 1
            body = samples[k % len(samples)][0]
            rounds.append(Round(table=tables[i], number=per_table[i], status=Round.Status.RECORDED,
                                leader=body["leader"], entered_by=body["entered_by"]))
            for pos, o in enumerate(outcomes_by_position(game="jie_long", leader=body["leader"],
                                                         seats=samples[k % len(samples)][2]["seats"], n=4)):
                row = kept[entries[4 * i + pos].pk]
                row["total"] += o.net
                row["rounds_counted"] += 1
                row["wins"] += int(o.win)
                if o.place is not None:
                    row[f"place_{o.place}"] += 1
        Round.objects.bulk_create(rounds, batch_size=5000)
        RoundRevision.objects.bulk_create(
            [RoundRevision(round=r, number=1, body=samples[k % len(samples)][0], record=samples[k % len(samples)][1],
                           result=samples[k % len(samples)][2], engine_version=games.ENGINE_VERSION,
                           actor_label="bench", created_at=start, hash="0" * 64) for k, r in enumerate(rounds)],
            batch_size=5000)
        with connection.cursor() as c:
            c.execute("UPDATE scoring_round r SET current_revision_id = v.id FROM scoring_roundrevision v "
                      "WHERE v.round_id = r.id AND r.table_id = ANY(%s)", [[tb.pk for tb in tables]])
        Standing.objects.filter(tournament=t).delete()
        Standing.objects.bulk_create([Standing(tournament=t, entry_id=e, last_deal_at=start if row["rounds_counted"]
                                               else None, **row) for e, row in kept.items()], batch_size=5000)
    connection.cursor().execute("ANALYZE")
    return t, tables, entries, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--reads", type=int, default=20)
    args = parser.parse_args()
    prepare_database(ENV)
    import django

    django.setup()
    from django.test import Client

    t, tables, entries, load = build(args.entries, args.deals)
    print(f"built: {args.entries} entries, {len(tables)} tables, {args.deals} deals in {load:.1f} s")
    slug, table, player = t.slug, tables[0].pk, entries[0].player_id
    pages = [
        ("standings (page 1)", f"/t/{slug}/"),
        ("standings, page 50", f"/t/{slug}/?page=50"),
        ("standings, a player found by name", f"/t/{slug}/?q=Player+04321"),
        ("standings, tables page 13", f"/t/{slug}/?tables_page=13"),
        ("standings live fragment (page 1)", f"/t/{slug}/live/"),
        ("standings live fragment, page 50", f"/t/{slug}/live/?page=50"),
        ("payouts (page 1)", f"/t/{slug}/payouts/"),
        ("payouts, page 50", f"/t/{slug}/payouts/?page=50"),
        ("payouts of session 1", f"/t/{slug}/payouts/?session=1"),
        ("a player's page", f"/t/{slug}/players/{player}/"),
        ("a table's page", f"/t/{slug}/tables/{table}/"),
        ("a table's live fragment", f"/t/{slug}/tables/{table}/live/"),
    ]
    client = Client()
    print(f"{'page':40} {'bytes':>9} {'gzipped':>9} {'first ms':>9} {'p50 ms':>8} {'max ms':>8}")
    worst = 0
    from django.core.cache import cache

    for name, url in pages:
        cache.clear()   # the first spectator of a version draws it (the live fragment is kept after)
        began = time.perf_counter()
        plain = client.get(url)
        first = (time.perf_counter() - began) * 1000
        assert plain.status_code == 200, (url, plain.status_code)
        zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        times = []
        for _ in range(args.reads):
            began = time.perf_counter()
            client.get(url)
            times.append((time.perf_counter() - began) * 1000)
        size = len(plain.content)
        worst = max(worst, size)
        print(f"{name:40} {size:9,d} {len(zipped.content):9,d} {first:9.1f} {statistics.median(times):8.1f} "
              f"{max(times):8.1f}"
              f"{'   OVER' if size > MOST_BYTES else ''}")
    print(f"largest page: {worst:,d} bytes (bound {MOST_BYTES:,d})")


if __name__ == "__main__":
    main()
