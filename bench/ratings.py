"""The club ratings at 100,000 deals, on PostgreSQL: the rebuild (target ≤ 10 s) and how soon a
new deal's rating change is readable with a real Celery worker on Redis (target ≤ 2 s).

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<yours> BENCH_REDIS_URL=redis://127.0.0.1:6379/<n> \\
        .venv/bin/python bench/ratings.py [--deals 100000] [--tables 2500] [--visible 50] [--profile]

Builds the standings bench's tournament (``bench/standings.py``'s ``build``: real evaluated Jie
Long deals bulk-inserted, tables of four) and times ``ratings_rebuild`` (every counted deal read,
rated by Plackett–Luce, every change, rated deal and rating written, one transaction); beside it,
in the same run, its floor: the read alone (``rating_deals``) plus the rules alone
(``rate_deals``, no database), and the rules as openskill's own ``PlackettLuce.rate`` computes
them (the reference the fast path replaced). Then one more deal rated by ``ratings_follow`` (the
task's work, called here). ``--profile`` prints a rebuild's cProfile (top functions by own time).

``--sessions N`` (0: skip): then reads the same deals as Tau Ngau table sessions (the
tournament's game set to ``tau_ngau`` by an UPDATE: the engine reads only each seat's net, so
2,500 sessions of 40 deals), times a rebuild, and times ``ratings_follow`` of one more deal (a
copy of the table's last, inserted as rows) at each of N tables whose last deal is among the
oldest: the worst re-rating, the session's result moving over ~2,500 results; the game is set
back after.

``--visible N`` (0: skip): starts ``celery worker`` (solo pool, a queue of its own) on Redis,
records N deals through ``round_record`` (the API's service; its commit enqueues the task) at
random tables of that club with its 100,000 rated deals, and times each from the call to its
rating change being readable (polled every 5 ms): p50, p95, max.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import standings as base  # noqa: E402  (sets the bench's environment first)
from bench.stack import bench_env, prepare_database  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def openskill_rules(deals) -> None:
    """``rate_deals`` as the library computes it: its objects carried from deal to deal."""
    from scoring.domain.ratings import _MODEL

    kept: dict = {}
    rate = _MODEL.rate
    for d in deals:
        placed = [(p, pl) for p, pl in zip(d.players, d.places) if pl is not None]
        if len(placed) < 2:
            continue
        teams = [[kept.get(p) or _MODEL.rating()] for p, _ in placed]
        for (p, _), (o,) in zip(placed, rate(teams, ranks=[pl for _, pl in placed])):
            kept[p] = o


def start_worker(env: dict, queue: str):
    from gupai_site.celery import app

    log = open(ROOT / "var" / "bench-ratings-worker.log", "w") if (ROOT / "var").is_dir() else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, "-m", "celery", "-A", "gupai_site", "worker", "--pool=solo",
                             "--without-gossip", "--without-mingle", "--without-heartbeat", "-Q", queue,
                             "-n", f"{queue}@localhost", "--loglevel=WARNING"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the worker exited early ({proc.returncode})")
        if app.control.ping(timeout=0.5, destination=[f"{queue}@localhost"]):
            app.conf.task_default_queue = queue
            return proc
    proc.terminate()
    raise SystemExit("the worker did not start")


def visible(n: int, env: dict, actor, tables) -> list[float]:
    """Seconds from ``round_record`` to the deal's rating change readable, for ``n`` deals."""
    from scoring.models import RatingChange
    from scoring.services.rounds import round_record

    queue = f"bench-ratings-{uuid.uuid4().hex[:8]}"
    proc = start_worker(env, queue)
    times = []
    rng = random.Random(7)
    try:
        for _ in range(n):
            table = rng.choice(tables)
            points = rng.sample([3, 10, 20, 30, 5, 12], 4)
            began = time.perf_counter()
            rnd = round_record(actor=actor, table=table, body={"points": points})
            while not RatingChange.objects.filter(round_id=rnd.pk).exists():
                if time.perf_counter() - began > 60:
                    raise SystemExit(f"deal {rnd.pk} not rated within 60 s (see var/bench-ratings-worker.log)")
                time.sleep(0.005)
            times.append(time.perf_counter() - began)
            time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(30)
    return times


def sessions(n: int, actor, t, tables) -> tuple[float, list[float]]:
    """The rebuild with the deals as Tau Ngau sessions, and the follow of one more deal at each
    of ``n`` tables (the 100th on: their last deal about a table-round back)."""
    from django.db import transaction

    from scoring.models import Round, RoundRevision, Tournament
    from scoring.services.ratings import ratings_follow, ratings_rebuild

    Tournament.objects.filter(pk=t.pk).update(game="tau_ngau")
    try:
        began = time.perf_counter()
        ratings_rebuild(actor=actor, club=t.club)
        rebuild = time.perf_counter() - began
        times = []
        for table in tables[100:100 + n]:
            last = Round.objects.filter(table=table).order_by("-id").first()
            rev = RoundRevision.objects.get(pk=last.current_revision_id)
            with transaction.atomic():
                rnd = Round.objects.create(table=table, number=last.number + 1, status=Round.Status.RECORDED,
                                           leader=last.leader)
                copy = RoundRevision.objects.create(round=rnd, number=1, body=rev.body, record=rev.record,
                                                    result=rev.result, engine_version=rev.engine_version,
                                                    actor_label="bench", created_at=rev.created_at, hash=rev.hash)
                Round.objects.filter(pk=rnd.pk).update(current_revision=copy)
            began = time.perf_counter()
            done = ratings_follow(club=t.club)
            times.append(time.perf_counter() - began)
            assert done["deals"] == 1, done
        return rebuild, times
    finally:
        Tournament.objects.filter(pk=t.pk).update(game="jie_long")
        ratings_rebuild(actor=actor, club=t.club)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=2500)
    parser.add_argument("--visible", type=int, default=50, help="deals timed to readable with a worker (0: skip)")
    parser.add_argument("--profile", action="store_true", help="print a rebuild's cProfile")
    parser.add_argument("--sessions", type=int, default=20, help="tables timed as Tau Ngau sessions (0: skip)")
    args = parser.parse_args()
    env = bench_env(redis="redis://127.0.0.1:6379/13") if args.visible else base.ENV
    prepare_database(env)
    import django
    django.setup()
    from scoring.domain.actors import Actor
    from scoring.domain.ratings import rate_deals
    from scoring.selectors.ratings import rating_deals
    from scoring.services.ratings import _gc_paused, ratings_follow, ratings_rebuild
    from scoring.services.rounds import round_record

    t, director, tables, load = base.build(args.deals, args.tables)
    print(f"built {args.deals} deals over {args.tables} tables in {load:.1f} s; load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    actor = Actor(user=director)
    club = t.club
    began = time.perf_counter()
    done = ratings_rebuild(actor=actor, club=club)
    rebuild = time.perf_counter() - began
    began = time.perf_counter()
    deals = rating_deals(club, from_round=0)
    read = time.perf_counter() - began
    began = time.perf_counter()
    with _gc_paused():   # as the rebuild rates
        rate_deals(deals)
    rules = time.perf_counter() - began
    began = time.perf_counter()
    openskill_rules(deals)
    reference = time.perf_counter() - began
    again = time.perf_counter()
    ratings_rebuild(actor=actor, club=club)
    again = time.perf_counter() - again
    print(f"ratings_rebuild: {done['deals']} deals in {rebuild:.2f} s (again: {again:.2f} s)")
    print(f"  read alone (rating_deals): {read:.2f} s; rules alone (rate_deals): {rules:.2f} s; "
          f"floor/rebuild = {(read + rules) / min(rebuild, again):.2f}")
    print(f"  the rules by openskill's own rate(): {reference:.2f} s ({reference / rules:.1f} × the fast path)")
    if args.profile:
        import cProfile
        import pstats
        profile = cProfile.Profile()
        profile.enable()
        ratings_rebuild(actor=actor, club=club)
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(14)

    # one more deal, its task held back so that the follow is timed here
    from gupai_site.celery import app
    task = app.tasks["scoring.ratings_follow"]
    task.delay = lambda *a, **k: None
    round_record(actor=actor, table=tables[0], body={"points": [3, 10, 20, 30]})
    began = time.perf_counter()
    one = ratings_follow(club=club)
    follow = time.perf_counter() - began
    began = time.perf_counter()
    none = ratings_follow(club=club)
    idle = time.perf_counter() - began
    print(f"ratings_follow of one more deal: {one['deals']} deal in {follow * 1000:.0f} ms; "
          f"with nothing new ({none['deals']}): {idle * 1000:.0f} ms")
    if args.sessions:
        rebuild_s, times = sessions(args.sessions, actor, t, tables)
        times.sort()
        follows = (f"p50 {statistics.median(times) * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms" if times
                   else "none timed (too few deals a table for a table-round back)")
        print(f"as Tau Ngau sessions: ratings_rebuild {rebuild_s:.2f} s; ratings_follow of one more deal at "
              f"{len(times)} tables: {follows}")
    del task.delay   # the class's again

    if args.visible:
        times = sorted(visible(args.visible, env, actor, tables))
        p95 = times[max(0, round(0.95 * len(times)) - 1)]
        print(f"deal recorded -> rating change readable, real worker on Redis, {len(times)} deals: "
              f"p50 {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms "
              f"(target <= 2000 ms); load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
