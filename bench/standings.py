"""The standings at 100,000 deals, on PostgreSQL: a from-scratch recompute, and the read.

    .venv/bin/python bench/standings.py [--deals 100000] [--entries 10000] [--reads 50] [--old 500 1000 2000]
                                        [--head-to-head]

Bulk-creates a running Jie Long tournament (``--entries`` entries at tables of four, one
session) and its deals straight into the database — rounds and revisions of real evaluated
records, the deals spread over the tables — then times:

- the from-scratch recompute (``standings_refresh``: every counted deal read and placed, the
  kept rows written) three ways: every row missing (inserted), nothing to change, every row
  drifted (all rewritten): target ≤ 10 s at 100,000 deals / 10,000 entries; beside it, in the
  same run, its floor (the figures read alone plus one plain UPDATE of every row) as a ratio,
  and the previous write (``bulk_update``'s CASE, rolled back) at a few row counts;
- the standings endpoint, ``GET /api/v1/tournaments/{id}/standings/`` through Django's test
  client (the whole request in-process: auth, tournament, kept rows, ranking, JSON), and the
  selector alone: target < 50 ms;
- recording one more deal (the write path, which applies its delta and never recomputes);
- head-to-head at its worst, for scale: every entry still tied when it is reached
  (``tie_breaks = ["deals", "head_to_head"]`` with every entry on the same number of deals), so
  it reads every deal's transfers.

Uses its own database (``gupai_bench`` unless ``BENCH_DATABASE_URL`` says otherwise; created
and migrated here, its tournaments left in place, each run adds one) and no Redis (tasks run
in-process). Prints the figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.stack import bench_env, prepare_database, summary, timed  # noqa: E402

ENV = bench_env()
PG = ENV["DATABASE_URL"]


def build(deals: int, n_tables: int):
    """A running tournament with ``deals`` deals over ``n_tables`` tables of four, bulk-inserted
    (players, entries, tables and seats as rows: 10,000 entries through the services one by one
    would take minutes and time nothing of interest here)."""
    from datetime import timedelta

    from django.db import connection, transaction
    from django.utils import timezone

    import games
    from games.simulate import simulate
    from scoring.domain.actors import Actor
    from scoring.models import Entry, Player, Round, RoundRevision, Seat, Session, Table
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create
    from scoring.services.tables import new_scorer_token
    from scoring.services.tournaments import tournament_create, tournament_start

    stamp = int(time.time() * 1000)
    director = director_create(username=f"stand{stamp}", password="bench-secret-1")
    actor = Actor(user=director)
    club = club_create(actor=actor, name=f"Standings bench {stamp}")
    t = tournament_create(actor=actor, club=club, name=f"Standings {stamp}", game="jie_long",
                                   chip_value="0.10", currency="EUR")
    with transaction.atomic():
        players = Player.objects.bulk_create([Player(club=club, name=f"P{i}-{s}")
                                              for i in range(n_tables) for s in range(4)], batch_size=5000)
        entries = Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players], batch_size=5000)
        session = Session.objects.create(tournament=t, number=1)
        now = timezone.now()
        tables = Table.objects.bulk_create([Table(session=session, name=f"T{i + 1}", scorer_token_created_at=now,
                                                  scorer_token_hash=new_scorer_token()[1])
                                            for i in range(n_tables)], batch_size=5000)
        Seat.objects.bulk_create([Seat(table=tb, position=p, entry=entries[4 * i + p])
                                  for i, tb in enumerate(tables) for p in range(4)], batch_size=5000)
    tournament_start(actor=actor, tournament=t)
    # A thousand real deals (points level, every leader), evaluated once and dealt out again.
    samples = []
    for k, record in enumerate(simulate("jie_long", deals=1000, seed=2026, players=4, level="points")):
        body = {"leader": k % 4, "entered_by": None, "points": record["points"][-(k % 4):] + record["points"][:-(k % 4)]
                if k % 4 else record["points"]}
        full = {"game": "jie_long", "variant": t.variant,
                "seats": ["A", "B", "C", "D"], "points": record["points"]}
        result = games.evaluate(full)
        samples.append((body, full, result))
    start = timezone.now() - timedelta(days=30)
    began = time.perf_counter()
    with transaction.atomic():
        per_table = [0] * n_tables
        rounds = []
        for k in range(deals):
            table = tables[k % n_tables]
            per_table[k % n_tables] += 1
            rounds.append(Round(table=table, number=per_table[k % n_tables], status=Round.Status.RECORDED,
                                leader=samples[k % 1000][0]["leader"]))
        Round.objects.bulk_create(rounds, batch_size=5000)
        with connection.cursor() as c:   # created_at spread over a month, one deal after another
            c.execute("UPDATE scoring_round SET created_at = %s + (id - %s) * interval '20 seconds' "
                      "WHERE table_id = ANY(%s)", [start, rounds[0].pk, [tb.pk for tb in tables]])
        revisions = [RoundRevision(round=r, number=1, body=samples[k % 1000][0], record=samples[k % 1000][1],
                                   result=samples[k % 1000][2], engine_version=games.ENGINE_VERSION,
                                   actor_label="bench", created_at=start, hash="0" * 64)
                     for k, r in enumerate(rounds)]
        RoundRevision.objects.bulk_create(revisions, batch_size=5000)
        with connection.cursor() as c:
            c.execute("UPDATE scoring_round r SET current_revision_id = v.id FROM scoring_roundrevision v "
                      "WHERE v.round_id = r.id AND r.table_id = ANY(%s)", [[tb.pk for tb in tables]])
        connection.cursor().execute("ANALYZE")
    load = time.perf_counter() - began
    assert Seat.objects.filter(table__session__tournament=t).count() == 4 * n_tables
    return t, director, tables, load


def old_bulk_update(t, rows: int) -> float:
    """The previous write, for comparison: Django's ``bulk_update`` of ``rows`` standing rows
    (one ``UPDATE … CASE WHEN id = … THEN …`` a column), rolled back. Seconds."""
    from django.db import transaction

    from scoring.models import Standing

    fields = ["total", "rounds_counted", "wins", *Standing.PLACES, "last_deal_at", "updated_at"]
    some = list(Standing.objects.filter(tournament=t).order_by("pk")[:rows])
    for st in some:
        st.total += 1
    began = time.perf_counter()
    try:
        with transaction.atomic():
            Standing.objects.bulk_update(some, fields)
            raise _Undo
    except _Undo:
        pass
    return time.perf_counter() - began


class _Undo(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--entries", type=int, default=10_000, help="entries, four a table")
    parser.add_argument("--reads", type=int, default=50)
    parser.add_argument("--old", type=int, nargs="*", default=[500, 1000, 2000],
                        help="row counts to time the previous bulk_update at (none: skip)")
    parser.add_argument("--head-to-head", action="store_true", help="also time head-to-head at its worst")
    args = parser.parse_args()
    n_tables = args.entries // 4
    prepare_database(ENV)
    import django

    django.setup()
    from django.db import connection, transaction
    from django.db.models import F
    from django.test import Client

    from scoring.domain.standings import Figures
    from scoring.models import Round, Standing
    from scoring.selectors.standings import standings_table, tournament_figures
    from scoring.services.auth import auth_token_obtain
    from scoring.services.rounds import round_record
    from scoring.services.standings import standings_refresh
    from scoring.services.tournaments import tournament_update

    t, director, tables, load = build(args.deals, n_tables)
    print(f"PostgreSQL {PG.rsplit('/', 1)[1]}: Jie Long, {n_tables:,} tables of four ({4 * n_tables:,} entries), "
          f"{args.deals:,} deals (bulk-loaded in {load:.1f} s)")

    def recompute() -> float:
        began = time.perf_counter()
        standings_refresh(tournament=t)
        return time.perf_counter() - began

    first = recompute()
    deals_kept = sum(Standing.objects.filter(tournament=t).values_list("rounds_counted", flat=True)) // 4
    print(f"from-scratch recompute, every row new (inserted):      {first:6.2f} s   ({deals_kept:,} deals counted)")
    upkeep = recompute()
    print(f"from-scratch recompute, nothing to change (upkeep):    {upkeep:6.2f} s")
    Standing.objects.filter(tournament=t).update(total=F("total") + 1, wins=F("wins") + 1)
    repair = recompute()
    print(f"from-scratch recompute, every row drifted (repaired):  {repair:6.2f} s   (target <= 10 s)")
    # The floor beside it, in the same run: the same read alone, and one plain UPDATE of every row.
    began = time.perf_counter()
    tournament_figures(t)
    read = time.perf_counter() - began
    began = time.perf_counter()
    with transaction.atomic(), connection.cursor() as c:
        c.execute("UPDATE scoring_standing SET total = total + 0, wins = wins + 0 WHERE tournament_id = %s", [t.pk])
    plain = time.perf_counter() - began
    print(f"baseline: the figures read alone {read:5.2f} s + a plain UPDATE of the {4 * n_tables:,} rows "
          f"{plain:5.2f} s = {read + plain:5.2f} s;  repair / baseline = {repair / (read + plain):4.2f}")
    for rows in args.old or []:
        old = old_bulk_update(t, rows)
        print(f"previous write (bulk_update's CASE) of {rows:,} rows alone: {old:6.2f} s")

    token = auth_token_obtain(username=director.username, password="bench-secret-1")
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    path = f"/api/v1/tournaments/{t.pk}/standings/"
    assert client.get(path).status_code == 200
    timed(lambda: client.get(path), 3)   # warm up
    endpoint = timed(lambda: client.get(path), args.reads)
    print(f"GET {path}: {summary(endpoint)}")
    t.refresh_from_db()
    print(f"standings_table alone: {summary(timed(lambda: standings_table(t), args.reads))}")

    from scoring.domain.actors import Actor
    actor = Actor(user=director)
    record = timed(lambda: round_record(actor=actor, table=tables[0], body={"points": [2, 12, 34, 18]}), 20)
    print(f"recording a deal (kept standings: a delta, no recompute): {summary(record)}")
    t.refresh_from_db()
    kept = {s.entry_id: Figures(s.total, s.rounds_counted, s.wins, tuple(getattr(s, f) for f in Standing.PLACES),
                                s.last_deal_at) for s in Standing.objects.filter(tournament=t)}
    print(f"kept standings (every figure) equal a recomputation: {kept == tournament_figures(t)}; "
          f"deals stored {Round.objects.filter(table__session__tournament=t).count():,}")

    if args.head_to_head:
        tournament_update(actor=actor, tournament=t, tie_breaks=["net", "deals", "head_to_head"])
        Standing.objects.filter(tournament=t).update(total=0)   # everyone level: the worst case for head-to-head
        t.refresh_from_db()
        worst = timed(lambda: standings_table(t), 5)
        print(f"head-to-head at its worst (all {4 * n_tables} entries tied when it is reached, every deal "
              f"read): {summary(worst)}")
        standings_refresh(tournament=t)   # and put the nets back


if __name__ == "__main__":
    main()
