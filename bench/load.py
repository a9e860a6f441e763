"""Deal recording under load, on the real stack, beside the framework's ceiling.

    .venv/bin/python bench/load.py [--seconds 15] [--connections 16] [--tables 10] [--rounds 2]

Starts, on this machine: gunicorn (``-w 2``) serving the site on PostgreSQL, a Celery worker on
Redis, and drives it with ``wrk`` (Debian's package): simulated scorers at ``--tables`` tables
post real deals (``games.simulate``, Jie Long at the points level) with Idempotency-Keys, one in
twenty a retry of the previous request. In the same run, alternating with it, the same wrk
drives a bare DRF endpoint that validates a small body and inserts one row (``bench/baseline``):
the framework's ceiling on this machine at this moment. Prints deals/s, p50/p99 and the ratio
to the ceiling; then checks that the standings equal a recomputation from scratch and that the
deals stored are exactly the distinct keys sent (none lost, none twice).

Uses its own database (``gupai_bench``, created and migrated here; its deals are deleted at the
start of each run) and Redis database 2. Rate limits are off in this run (bench/baseline/settings.py).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PG = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gupai_bench")
REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/2")
ENV = dict(os.environ, DATABASE_URL=PG, REDIS_URL=REDIS, DJANGO_SETTINGS_MODULE="bench.baseline.settings",
           DEBUG="0", SECRET_KEY="bench-" + "k" * 50, ALLOWED_HOSTS="127.0.0.1", SECURE_SSL_REDIRECT="0",
           PYTHONUNBUFFERED="1", LOG_LEVEL="WARNING")
os.environ.update({k: ENV[k] for k in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "DEBUG", "SECRET_KEY",
                                       "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT")})

LUA = r"""
-- Scorers at many tables: each request records the next deal of the next table, with a fresh
-- Idempotency-Key; one in twenty repeats the previous request exactly (a phone's retry).
local tables = %(tables)s
local counter, thread_id, last = 0, 0, nil
local ids = 0
function setup(thread) ids = ids + 1; thread:set("thread_id", ids) end
function init(args) math.randomseed(thread_id * 7919) end
function request()
  if last ~= nil and math.random() < 0.05 then return last end
  counter = counter + 1
  local t = tables[(counter %% #tables) + 1]
  local body = t.bodies[(counter %% #t.bodies) + 1]
  local headers = {["Content-Type"] = "application/json", ["Authorization"] = t.auth,
                   ["Idempotency-Key"] = "w" .. thread_id .. "-" .. counter}
  last = wrk.format("POST", t.path, headers, body)
  return last
end
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited early ({proc.returncode})")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise SystemExit("server did not start")


def prepare_database() -> None:
    name = PG.rsplit("/", 1)[1]
    exists = subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc",
                             f"SELECT 1 FROM pg_database WHERE datname='{name}'"], capture_output=True, text=True)
    if "1" not in exists.stdout:
        subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", name], check=True)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=ENV, check=True)


def prepare_tournament(n_tables: int, deals_per_table: int) -> tuple[list[dict], int]:
    """A running Jie Long tournament with ``n_tables`` tables of four; returns the tables (path,
    Authorization, bodies as JSON) and the tournament id."""
    import django

    django.setup()
    from django.db import connection

    from games.simulate import simulate
    from scoring.domain.actors import Actor
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create, player_create
    from scoring.services.tables import table_create
    from scoring.services.tournaments import entry_create, tournament_create, tournament_start

    with connection.cursor() as c:  # a clean slate: the deals of earlier runs go, the trigger would refuse
        c.execute("TRUNCATE scoring_idempotencykey, scoring_actionlog, bench_baseline_row")
        c.execute("UPDATE scoring_round SET current_revision_id = NULL WHERE current_revision_id IS NOT NULL")
        c.execute("TRUNCATE scoring_roundrevision, scoring_round CASCADE")
    director = director_create(username=f"bench{int(time.time() * 1000)}", password="bench-secret-1")
    club = club_create(actor=Actor(user=director), name=f"Bench club {director.username}")
    actor = Actor(user=director)
    t = tournament_create(actor=actor, club=club, name=f"Bench {director.username}", game="jie_long")
    tables = []
    for i in range(n_tables):
        entries = [entry_create(actor=actor, tournament=t,
                                         player=player_create(actor=actor, club=club, name=f"P{i}-{s}"))
                   for s in range(4)]
        table, token = table_create(actor=actor, tournament=t, name=f"T{i + 1}", entries=entries)
        bodies = [json.dumps({"points": r["points"]}) for r in simulate("jie_long", deals=deals_per_table, seed=100 + i,
                                                                     players=4, level="points")]
        tables.append({"path": f"/api/v1/tables/{table.pk}/rounds/", "auth": f"Scorer {token}", "bodies": bodies,
                       "baseline": f"/bench/baseline/{table.pk}/"})
    tournament_start(actor=actor, tournament=t)
    return tables, t.pk


def lua_tables(tables: list[dict], key: str) -> str:
    def lua_str(s: str) -> str:
        return "[==[" + s + "]==]"
    items = []
    for t in tables:
        bodies = ", ".join(lua_str(b) for b in t["bodies"])
        items.append(f'{{path = {lua_str(t[key])}, auth = {lua_str(t["auth"])}, bodies = {{{bodies}}}}}')
    return "{" + ",\n".join(items) + "}"


def run_wrk(port: int, script: Path, seconds: int, connections: int) -> dict:
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script),
                          f"http://127.0.0.1:{port}"], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    lat = {p: re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out) for p in ("50", "99")}

    def ms(m):
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors:.*", out)
    return {"rate": rate, "p50": ms(lat["50"]), "p99": ms(lat["99"]), "non2xx": int(bad.group(1)) if bad else 0,
            "socket_errors": errors.group(0) if errors else "", "raw": out}


def check_after(tournament_id: int) -> dict:
    from scoring.models import IdempotencyKey, Round, Standing, Tournament
    from scoring.selectors.standings import tournament_totals

    t = Tournament.objects.get(pk=tournament_id)
    kept = {s.entry_id: (s.total, s.rounds_counted) for s in Standing.objects.filter(tournament=t)}
    totals = tournament_totals(t)
    recomputed = {e: totals.get(e, (0, 0)) for e in kept}
    rounds = Round.objects.filter(table__session__tournament=t).count()
    keys = IdempotencyKey.objects.filter(table__session__tournament=t, response_status=201).count()
    return {"standings_exact": kept == recomputed, "rounds": rounds, "distinct_keys": keys,
            "deals_counted": sum(c for _, c in kept.values()) // 4}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2, help="deal/ceiling pairs, alternating")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install wrk")
    prepare_database()
    tables, tournament_id = prepare_tournament(args.tables, deals_per_table=200)
    port = free_port()
    work = Path(tempfile.mkdtemp(prefix="gupai-bench-"))
    deals_lua, ceiling_lua = work / "deals.lua", work / "ceiling.lua"
    deals_lua.write_text(LUA % {"tables": lua_tables(tables, "path")})
    ceiling_lua.write_text(LUA % {"tables": lua_tables(tables, "baseline")})
    log = open(work / "server.log", "w")
    web = subprocess.Popen([sys.executable, "-m", "gunicorn", "gupai_site.wsgi", "-w", "2", "-b", f"127.0.0.1:{port}",
                            "--access-logfile", "-"], cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=log)
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "gupai_site", "worker", "-c", "1",
                               "--loglevel=WARNING"], cwd=ROOT, env=ENV, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_port(port, web)
        run_wrk(port, deals_lua, 3, args.connections)      # warm up both paths
        run_wrk(port, ceiling_lua, 3, args.connections)
        deals, ceiling = [], []
        for _ in range(args.rounds):
            deals.append(run_wrk(port, deals_lua, args.seconds, args.connections))
            ceiling.append(run_wrk(port, ceiling_lua, args.seconds, args.connections))
        time.sleep(2)
        after = check_after(tournament_id)
    finally:
        web.terminate()
        worker.terminate()
        web.wait(30)
        worker.wait(30)
    print(f"wrk -t2 -c{args.connections} -d{args.seconds}s, {args.tables} tables, gunicorn -w 2, "
          f"PostgreSQL, Celery worker on Redis; {args.rounds} alternating pairs")
    print(f"{'':10} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}")
    for i, (d, c) in enumerate(zip(deals, ceiling), start=1):
        print(f"deals {i:<4} {d['rate']:8.0f} {d['p50']:8.1f} {d['p99']:8.1f} {d['non2xx']:8d}  {d['socket_errors']}")
        print(f"ceiling {i:<2} {c['rate']:8.0f} {c['p50']:8.1f} {c['p99']:8.1f} {c['non2xx']:8d}  {c['socket_errors']}")
    ratios = [d["rate"] / c["rate"] for d, c in zip(deals, ceiling)]
    print(f"deals / ceiling: {', '.join(f'{r:.0%}' for r in ratios)}")
    print(f"after the load: standings exact: {after['standings_exact']}; deals stored {after['rounds']}, "
          f"distinct keys answered 201 {after['distinct_keys']}, deals in the standings {after['deals_counted']}")
    print(f"(logs and wrk scripts in {work})")


if __name__ == "__main__":
    main()
