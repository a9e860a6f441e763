"""A full replay audit of a big tournament, on the real stack.

    .venv/bin/python bench/audit.py [--deals 100000] [--tables 250] [--workers 2] [--chunk 500] [--rebuild]

Builds (once; later runs reuse it) a running Jie Long tournament of ``--deals`` deals at
``--tables`` tables of four in PostgreSQL: players, entries and tables through the services, the
deals in bulk (``bulk_create``, each revision evaluated by the engine and hashed with
``scoring.domain.chain.revision_hash``, as the services store them), then the standings recomputed.
Then starts a Celery worker with ``--workers`` processes (``celery worker -c N``) on Redis, asks
for an audit and times it to the end, printing the phases (planning, chunks, standings check),
deals per second and what the audit found (a clean tournament: nothing). The target is a full
audit of 100,000 deals in under 60 s with 2 worker processes; the figures are printed, not
asserted.

Uses the database ``gupai_bench`` (created and migrated here, as ``bench/load.py`` does) and
Redis database 2.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: Distinct simulated deals; the tournament's deals cycle through them (each still evaluated
#: and hashed for its own table and players).
BODY_POOL = 2000


def points_bodies(count: int, seed: int) -> list[dict]:
    from games.simulate import simulate

    return [{"points": r["points"]} for r in simulate("jie_long", deals=count, seed=seed, players=4, level="points")]


def bulk_deals(table, bodies: list[dict], *, actor_label: str = "bench") -> int:
    """Store ``bodies`` as deals 1..N of ``table`` (which has none yet) in three queries, exactly
    as ``round_record`` would store them, standings aside (``standings_refresh`` after).
    Returns the number of deals."""
    from django.db.models import OuterRef, Subquery
    from django.utils import timezone

    import games
    from scoring.domain.chain import revision_hash
    from scoring.domain.records import result_by_position, round_build_record
    from scoring.models import Round, RoundRevision
    from scoring.services.common import jsonable

    tournament = table.session.tournament
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    names = [s.entry.player.name for s in seats]
    built_deals = []
    for body in bodies:
        built = round_build_record(game=tournament.game, variant=tournament.variant, names=names, body=body,
                                   defaults={"leader": 0, "banker": 0, "entered_by": None})
        if built.errors:
            raise ValueError(f"{body}: {built.errors}")
        result = games.evaluate(built.record)
        _, outcome = result_by_position(built=built, result=result, seats=seats)
        built_deals.append((built, jsonable(result), outcome))
    rounds = Round.objects.bulk_create([
        Round(table=table, number=i, status=Round.Status.RECORDED, leader=built.leader, banker=built.banker,
              entered_by=built.entered_by, next_leader=outcome.get("next_leader"), next_banker=outcome.get("next_banker"))
        for i, (built, _, outcome) in enumerate(built_deals, start=1)], batch_size=2000)
    now = timezone.now()
    revisions = []
    for rnd, (built, result, _) in zip(rounds, built_deals):
        body, record = jsonable(built.body), jsonable(built.record)
        revisions.append(RoundRevision(
            round=rnd, number=1, body=body, record=record, result=result, engine_version=games.ENGINE_VERSION,
            actor_label=actor_label, reason="", created_at=now, prev_hash="",
            hash=revision_hash(prev_hash="", round_id=rnd.pk, number=1, body=body, record=record, result=result,
                               engine_version=games.ENGINE_VERSION, actor_label=actor_label, reason="",
                               created_at=now)))
    RoundRevision.objects.bulk_create(revisions, batch_size=2000)
    Round.objects.filter(table=table, current_revision__isnull=True).update(current_revision=Subquery(
        RoundRevision.objects.filter(round=OuterRef("pk"), number=1).values("pk")[:1]))
    return len(rounds)


def build_tournament(*, name: str, tables: int, deals: int, seed: int = 2026):
    """A running Jie Long tournament of ``deals`` deals spread over ``tables`` tables of four, with
    exact standings. Returns the tournament."""
    from scoring.domain.actors import Actor
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create, player_create
    from scoring.services.standings import standings_refresh
    from scoring.services.tables import table_create
    from scoring.services.tournaments import entry_create, tournament_create, tournament_start

    director = director_create(username=f"audit{int(time.time() * 1000)}", password="bench-secret-1")
    actor = Actor(user=director)
    club = club_create(actor=actor, name=f"Audit bench club {director.username}")
    t = tournament_create(actor=actor, club=club, name=name, game="jie_long")
    pool = points_bodies(min(BODY_POOL, max(deals, 1)), seed)
    made = []
    for i in range(tables):
        entries = [entry_create(actor=actor, tournament=t,
                                         player=player_create(actor=actor, club=club, name=f"P{i}-{s}"))
                   for s in range(4)]
        table, _ = table_create(actor=actor, tournament=t, name=f"T{i + 1}", entries=entries)
        made.append(table)
    tournament_start(actor=actor, tournament=t)
    per_table, extra = divmod(deals, tables)
    k = 0
    for i, table in enumerate(made):
        n = per_table + (1 if i < extra else 0)
        bulk_deals(table, [pool[(k + j) % len(pool)] for j in range(n)])
        k += n
    standings_refresh(tournament=t)
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--workers", type=int, default=2, help="worker processes (celery worker -c N)")
    parser.add_argument("--chunk", type=int, default=None, help="deals per chunk (default: the service's)")
    parser.add_argument("--rebuild", action="store_true", help="build a new tournament even if one is there")
    args = parser.parse_args()

    from bench.load import ENV, prepare_database  # sets this process's environment to the bench's

    prepare_database()
    import django

    django.setup()
    from django.db.models import Max, Min

    from gupai_site.celery import app
    from scoring.domain.actors import Actor
    from scoring.models import AuditChunk, Round, Tournament
    from scoring.selectors.audits import audit_finding_counts
    from scoring.services.audits import audit_start

    name = f"Audit bench {args.deals} deals at {args.tables} tables"
    t = None if args.rebuild else Tournament.objects.filter(name=name).order_by("-pk").first()
    if t is None or Round.objects.filter(table__session__tournament=t).count() != args.deals:
        started = time.monotonic()
        t = build_tournament(name=name, tables=args.tables, deals=args.deals)
        print(f"built {name} (tournament {t.pk}) in {time.monotonic() - started:.1f} s")
    else:
        print(f"reusing {name} (tournament {t.pk})")

    app.control.purge()   # leftovers of an interrupted run
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    log = open(ROOT / "var" / "bench-audit-worker.log", "w") if (ROOT / "var").is_dir() else subprocess.DEVNULL
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "gupai_site", "worker", "-c", str(args.workers),
                               "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", "bench-audit@%h",
                               "--loglevel=WARNING"], cwd=ROOT, env=ENV, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(timeout=1.0):
            if worker.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the worker did not start")
        time.sleep(1)   # let the worker's start-up (resuming old audits) settle
        began = time.monotonic()
        kwargs = {"chunk_rounds": args.chunk} if args.chunk else {}
        audit = audit_start(actor=Actor.system(), tournament=t, **kwargs)
        while audit.is_active:
            time.sleep(0.1)
            audit.refresh_from_db()
            if time.monotonic() - began > 600:
                raise SystemExit(f"the audit did not finish in 10 minutes: {audit.done}/{audit.total}")
        wall = time.monotonic() - began
        load = os.getloadavg()[0]
    finally:
        worker.terminate()
        worker.wait(60)
    # The worker's processes, once they have exited (start-up and shutdown included).
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    chunks = AuditChunk.objects.filter(audit=audit).aggregate(first=Min("finished_at"), last=Max("finished_at"))
    plan = (audit.started_at - audit.created_at).total_seconds()
    checking = (chunks["last"] - audit.started_at).total_seconds() if chunks["last"] else 0.0
    finish = (audit.finished_at - chunks["last"]).total_seconds() if chunks["last"] else 0.0
    print(f"audit {audit.pk}: {audit.status}, {audit.done}/{audit.total} deals in {audit.chunk_count} chunks of "
          f"{audit.chunk_rounds}, {args.workers} worker processes, PostgreSQL + Redis")
    print(f"wall clock {wall:.1f} s (target < 60 s): {audit.total / wall:,.0f} deals/s")
    print(f"  queued → planned {plan:.2f} s, chunks {checking:.1f} s, standings check and status {finish:.2f} s")
    print(f"worker CPU {cpu:.1f} s (user + sys, all its processes, start-up included); load average at the end "
          f"{load:.1f} on {os.cpu_count()} CPUs (PostgreSQL and anything else running share them)")
    found = audit_finding_counts(audit.pk)
    print(f"findings: {({k: c['count'] for k, c in found.items()}) or 'none'}")


if __name__ == "__main__":
    main()
