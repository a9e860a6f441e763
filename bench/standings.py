"""The standings at 100,000 deals, on PostgreSQL: a from-scratch recompute, and the read.

    .venv/bin/python bench/standings.py [--deals 100000] [--tables 25] [--reads 200]

Bulk-creates a running Jie Long tournament (``--tables`` tables of four, one session) and its
deals straight into the database — rounds and revisions of real evaluated records, the deals
spread over the tables — then times:

- the from-scratch recompute (``standings_refresh``: every counted deal read and placed, the
  kept rows written): target < 5 s;
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
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PG = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gupai_bench")
ENV = dict(os.environ, DATABASE_URL=PG, DJANGO_SETTINGS_MODULE="bench.site_settings", DEBUG="0",
           SECRET_KEY="bench-" + "k" * 50, ALLOWED_HOSTS="testserver,127.0.0.1", SECURE_SSL_REDIRECT="0",
           LOG_LEVEL="WARNING")
ENV.pop("REDIS_URL", None)
os.environ.update({k: ENV[k] for k in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE", "DEBUG", "SECRET_KEY",
                                       "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT")})
os.environ.pop("REDIS_URL", None)


def prepare_database() -> None:
    name = PG.rsplit("/", 1)[1]
    exists = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc",
                             f"SELECT 1 FROM pg_database WHERE datname='{name}'"], capture_output=True, text=True)
    if "1" not in exists.stdout:
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=ENV, check=True)


def build(deals: int, n_tables: int):
    """A running tournament with ``deals`` deals over ``n_tables`` tables, bulk-inserted."""
    from datetime import timedelta

    from django.db import connection, transaction
    from django.utils import timezone

    import games
    from games.simulate import simulate
    from scoring.domain.actors import Actor
    from scoring.models import Round, RoundRevision, Seat
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create, player_create
    from scoring.services.tables import table_create
    from scoring.services.tournaments import entry_create, tournament_create, tournament_start

    stamp = int(time.time() * 1000)
    director = director_create(username=f"stand{stamp}", password="bench-secret-1")
    actor = Actor(user=director)
    club = club_create(actor=actor, name=f"Standings bench {stamp}")
    t = tournament_create(actor=actor, club=club, name=f"Standings {stamp}", game="jie_long",
                                   chip_value="0.10", currency="EUR")
    tables = []
    for i in range(n_tables):
        entries = [entry_create(actor=actor, tournament=t,
                                         player=player_create(actor=actor, club=club, name=f"P{i}-{s}"))
                   for s in range(4)]
        tables.append(table_create(actor=actor, tournament=t, name=f"T{i + 1}", entries=entries)[0])
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


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        began = time.perf_counter()
        fn()
        out.append((time.perf_counter() - began) * 1000)
    return out


def summary(ms: list[float]) -> str:
    ms = sorted(ms)
    return (f"p50 {statistics.median(ms):7.1f} ms   p95 {ms[int(len(ms) * 0.95) - 1]:7.1f} ms   "
            f"min {ms[0]:7.1f} ms   (n={len(ms)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--reads", type=int, default=200)
    args = parser.parse_args()
    prepare_database()
    import django

    django.setup()
    from django.test import Client

    from scoring.domain.standings import Figures
    from scoring.models import Round, Standing
    from scoring.selectors.standings import standings_table, tournament_figures
    from scoring.services.auth import auth_token_obtain
    from scoring.services.rounds import round_record
    from scoring.services.standings import standings_refresh
    from scoring.services.tournaments import tournament_update

    t, director, tables, load = build(args.deals, args.tables)
    print(f"PostgreSQL {PG.rsplit('/', 1)[1]}: Jie Long, {args.tables} tables of four, {args.deals:,} deals "
          f"(bulk-loaded in {load:.1f} s)")

    began = time.perf_counter()
    standings_refresh(tournament=t)
    recompute = time.perf_counter() - began
    deals_kept = sum(Standing.objects.filter(tournament=t).values_list("rounds_counted", flat=True)) // 4
    print(f"from-scratch recompute (standings_refresh): {recompute:6.2f} s   (target < 5 s; "
          f"{deals_kept:,} deals in the standings)")

    token = auth_token_obtain(username=director.username, password="bench-secret-1")
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    path = f"/api/v1/tournaments/{t.pk}/standings/"
    assert client.get(path).status_code == 200
    timed(lambda: client.get(path), 10)   # warm up
    endpoint = timed(lambda: client.get(path), args.reads)
    print(f"GET {path}: {summary(endpoint)}   (target < 50 ms)")
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

    tournament_update(actor=actor, tournament=t, tie_breaks=["net", "deals", "head_to_head"])
    Standing.objects.filter(tournament=t).update(total=0)   # everyone level: the worst case for head-to-head
    t.refresh_from_db()
    worst = timed(lambda: standings_table(t), 5)
    print(f"head-to-head at its worst (all {4 * args.tables} entries tied when it is reached, every deal "
          f"read): {summary(worst)}")
    standings_refresh(tournament=t)   # and put the nets back


if __name__ == "__main__":
    main()
