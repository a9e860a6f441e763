"""Deal recording under load, on the real stack as deployed, beside the framework's ceiling.

    .venv/bin/python bench/load.py [--seconds 15] [--connections 16] [--tables 10] [--rounds 3]
    .venv/bin/python bench/load.py --ceiling asgi     # the ceiling served through the site's server
    .venv/bin/python bench/load.py --profile 300      # where a deal's time goes, in one process
    .venv/bin/python bench/load.py --writes 11        # and the bare app issuing a deal's 11 statements

Starts, on this machine: the site as deployed — gunicorn with the site's
``gupai_site/gunicorn.conf.py`` (uvicorn workers, ``-w 2``) serving ``gupai_site.asgi`` (the ASGI
router, its head and body deadlines, Django in the router's thread pool, the access log) on
PostgreSQL with its own settings (every middleware; ``bench/site_settings.py`` only raises the
per-link allowance of deals) — a Celery worker on Redis, and beside it the framework's ceiling: a
bare Django + DRF app with its own minimal settings (``bench/baseline/``: no middleware, no
authentication) that validates a small body and inserts one row in the same database.

The ceiling is served the plainest way by default: ``gunicorn -w 2`` with gunicorn's defaults
(sync workers, one request at a time per process, no config file, no access log). ``--ceiling
asgi`` serves the same bare app through the site's gunicorn configuration instead (uvicorn
workers, given a WSGI app: uvicorn's own WSGI adapter and its thread pool, and the config's access
log). The two differ a lot: a sync worker answers a request with nothing between the socket and
Django, while uvicorn under 16 connections adds an event loop, an adapter and thread hand-offs to
every request and serves the ceiling less well — a ratio measured against it flatters the site.
The plain ceiling is what "the framework on this machine" means from outside.

``wrk`` (Debian's package) drives them in turn, pair by pair: simulated scorers at ``--tables``
tables of a public tournament set up as the director's pages set it up (players, entries, a
seated session with its scorer links, started) post real deals (``games.simulate``, Jie Long at
the points level) with the body the scorer page sends (``leader``, ``points``, ``entered_by``),
``Authorization: Scorer …`` and an Idempotency-Key, one in twenty a retry of the previous request.
Prints deals/s, p50/p99, the ratio to the ceiling and the load average before each pair; then
checks that the standings equal a recomputation from scratch and that the deals stored are
exactly the distinct keys sent (none lost, none twice). ``--nodes 2`` serves the site as two
nodes (each its own gunicorn as above, ``-w 2``) behind haproxy on the same machine, and runs
one node reached directly beside them in each round (one node, the nodes, the ceiling): the
ratio of the two is what a second node costs on the same cores. ``--node-workers 1`` gives each
of the nodes behind haproxy one process instead of two: the machine's two cores shared out between
the two nodes as two machines would each have their own, rather than four processes on two cores
(the one node beside them keeps ``-w 2``).

``--writes K`` adds a third run to each round: the bare app inserting its row K times in one
transaction, so that what K statements cost the framework itself stands beside the deal's;
with ``--as-one``, the K rows in one statement (a chain of ``WITH … INSERT``), so that the writes
stand without their round trips.

``--profile N`` records N deals in this process through Django's test client (the whole request:
middleware, authentication, throttling, the service) on the same database and prints the
statements of one deal with their times (and PostgreSQL's CPU each, read from its backend's
``/proc/<pid>/schedstat``), the time per layer and cProfile's top functions.

Uses its own database (``BENCH_DATABASE_URL``, default ``gupai_bench``; created and migrated here,
its deals are deleted at the start of each run) and Redis database (``BENCH_REDIS_URL``, default 2).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import cpu  # noqa: E402
from bench.stack import bench_env, free_port, prepare_database, wait_port  # noqa: E402

ENV = bench_env(redis="redis://127.0.0.1:6379/2", hosts="127.0.0.1", ACCESS_LOG="-",
                # No worker restart in the middle of a pair (the config restarts one every 2,000
                # requests, which the ceiling, answering more, would pay more often).
                GUNICORN_MAX_REQUESTS="1000000")
PG = ENV["DATABASE_URL"]
#: The role ``--site-role`` makes and connects as (``manage.py site_role``).
SITE_ROLE, SITE_ROLE_PASSWORD = "gupai_bench_site", "bench-site-secret"
#: The ceiling's process: the same, with the bare app's own settings.
BARE_ENV = dict(ENV, DJANGO_SETTINGS_MODULE="bench.baseline.settings")


LUA = r"""
-- Scorers at many tables: each request records the next deal of the next table, with a fresh
-- Idempotency-Key; one in twenty repeats the previous request exactly (a phone's retry). The
-- keys carry the run's own id (wrk's argument): each wrk run starts its counters at 0 again, and
-- the keys of an earlier run would be replays of its deals, answered from the store.
local tables = %(tables)s
-- thread_id is the global that setup gives each thread (thread:set): a local of that name would
-- hide it, and both threads would send the same keys (each deal twice, the second a replay).
local counter, last, run = 0, nil, "0"
local ids = 0
function setup(thread) ids = ids + 1; thread:set("thread_id", ids) end
function init(args) run = args[1] or "0"; math.randomseed(thread_id * 7919) end
function request()
  if last ~= nil and math.random() < 0.05 then return last end
  counter = counter + 1
  local t = tables[(counter %% #tables) + 1]
  local body = t.bodies[(counter %% #t.bodies) + 1]
  local headers = {["Content-Type"] = "application/json", ["Authorization"] = t.auth,
                   ["Idempotency-Key"] = "w" .. run .. "-" .. thread_id .. "-" .. counter}
  last = wrk.format("POST", t.path, headers, body)
  return last
end
"""


def scorer_bodies(table: int, deals: int) -> list[dict]:
    """What the scorer page sends for a Jie Long deal at the points level (``DealForm.body``): the
    leader chosen (prefilled from the last deal), each seat's points and who entered it."""
    from games.simulate import simulate

    records = simulate("jie_long", deals=deals, seed=100 + table, players=4, level="points")
    return [{"leader": i % 4, "points": r["points"], "entered_by": (i // 4) % 4} for i, r in enumerate(records)]


def prepare_tournament(n_tables: int, deals_per_table: int) -> tuple[list[dict], int]:
    """A running, public Jie Long tournament of ``4 × n_tables`` players, set up as the director's
    pages set it up (the same services: players and entries, the session seated at random with a
    scorer link per table, started); returns the tables (path, Authorization, bodies as JSON) and
    the tournament id."""
    import django

    django.setup()
    from django.db import connection

    from scoring.domain.actors import Actor
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create, player_create
    from scoring.services.seating import session_seat
    from scoring.services.tournaments import entry_create, tournament_create, tournament_start

    with connection.cursor() as c:  # a clean slate: the deals of earlier runs go, the trigger would refuse
        c.execute("TRUNCATE scoring_idempotencykey, scoring_actionlog, bench_baseline_row")
        c.execute("UPDATE scoring_round SET current_revision_id = NULL WHERE current_revision_id IS NOT NULL")
        c.execute("TRUNCATE scoring_roundrevision, scoring_round CASCADE")
    director = director_create(username=f"bench{int(time.time() * 1000)}", password="bench-secret-1")
    actor = Actor(user=director)
    club = club_create(actor=actor, name=f"Bench club {director.username}")
    t = tournament_create(actor=actor, club=club, name=f"Bench {director.username}", game="jie_long", public=True)
    for i in range(4 * n_tables):
        entry_create(actor=actor, tournament=t, player=player_create(actor=actor, club=club, name=f"Player {i + 1}"))
    seated = session_seat(actor=actor, tournament=t, method="random", table_size=4, leftovers="sit_out")
    tournament_start(actor=actor, tournament=t)
    tables = []
    for i, (table, token) in enumerate(seated.tables):
        tables.append({"path": f"/api/v1/tables/{table.pk}/rounds/", "auth": f"Scorer {token}",
                       "bodies": [json.dumps(b) for b in scorer_bodies(i, deals_per_table)],
                       "baseline": f"/bench/baseline/{table.pk}/"})
    return tables, t.pk


def lua_tables(tables: list[dict], key: str) -> str:
    def lua_str(s: str) -> str:
        return "[==[" + s + "]==]"
    items = []
    for t in tables:
        bodies = ", ".join(lua_str(b) for b in t["bodies"])
        items.append(f'{{path = {lua_str(t[key])}, auth = {lua_str(t["auth"])}, bodies = {{{bodies}}}}}')
    return "{" + ",\n".join(items) + "}"


def wrk_cpu() -> float:
    """CPU seconds of this script's finished children (each wrk run, once it has exited)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_wrk(port: int, script: Path, seconds: int, connections: int, meter: cpu.Meter | None = None,
            stored=None) -> dict:
    """One wrk run; ``stored()``: the deals stored, counted before and after (the new ones a second:
    ``new``, which leaves out the retries answered from the store)."""
    before = stored() if stored else 0
    if meter:
        meter.start()
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script),
                          f"http://127.0.0.1:{port}", "--", str(time.time_ns())],
                         capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    lat = {p: re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out) for p in ("50", "99")}

    def ms(m):
        value, unit = float(m.group(1)), m.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors:.*", out)
    answered = int(re.search(r"(\d+) requests in", out).group(1))
    # CPU milliseconds per request answered, by part (meter's names), while this run lasted
    used = {name: seconds * 1000 / max(answered, 1) for name, seconds in meter.stop().items()} if meter else {}
    new = (stored() - before) / seconds if stored else rate
    return {"rate": rate, "new": new, "p50": ms(lat["50"]), "p99": ms(lat["99"]), "non2xx": int(bad.group(1)) if bad else 0,
            "socket_errors": errors.group(0) if errors else "", "raw": out, "cpu": used}


def busy(run: dict) -> float:
    """CPU milliseconds a request cost the stack (not wrk)."""
    return sum(ms for name, ms in run["cpu"].items() if name != "wrk")


def cpu_line(run: dict) -> str:
    c = run["cpu"]
    parts = " + ".join(f"{c[name]:.2f}" for name in ("site", "postgresql", "worker") if name in c)
    return f"{parts} = {busy(run):.2f} (+ {c.get('wrk', 0):.2f})"


def deals_stored(tournament_id: int) -> int:
    from scoring.models import Round

    return Round.objects.filter(table__session__tournament_id=tournament_id).count()


def check_after(tournament_id: int) -> dict:
    from scoring.models import IdempotencyKey, Standing, Tournament
    from scoring.selectors.standings import tournament_totals

    t = Tournament.objects.get(pk=tournament_id)
    kept = {s.entry_id: (s.total, s.rounds_counted) for s in Standing.objects.filter(tournament=t)}
    totals = tournament_totals(t)
    recomputed = {e: totals.get(e, (0, 0)) for e in kept}
    rounds = deals_stored(tournament_id)
    keys = IdempotencyKey.objects.filter(table__session__tournament=t, response_status=201).count()
    return {"standings_exact": kept == recomputed, "rounds": rounds, "distinct_keys": keys,
            "deals_counted": sum(c for _, c in kept.values()) // 4}


def site_node(port: int, env: dict, log, workers: int = 2) -> subprocess.Popen:
    """The site as deployed: gunicorn with the site's config (uvicorn workers) serving the ASGI router."""
    return subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gupai_site/gunicorn.conf.py", "gupai_site.asgi",
                             "-w", str(workers), "-b", f"127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=log, stderr=log)


def ceiling_server(kind: str, port: int, log) -> subprocess.Popen:
    """The bare app: ``plain`` — ``gunicorn -w 2`` and gunicorn's defaults (sync workers); ``asgi`` —
    through the site's gunicorn config (uvicorn workers wrapping the WSGI app)."""
    config = ["-c", "gupai_site/gunicorn.conf.py"] if kind == "asgi" else []
    return subprocess.Popen([sys.executable, "-m", "gunicorn", *config, "gupai_site.wsgi", "-w", "2",
                             "-b", f"127.0.0.1:{port}"], cwd=ROOT, env=BARE_ENV, stdout=log, stderr=log)


def haproxy(port: int, nodes: list[int], work: Path, log) -> subprocess.Popen:
    """Debian's haproxy in front of ``nodes``, round robin, keep-alive to the nodes (as make cluster)."""
    servers = "\n".join(f"    server n{i} 127.0.0.1:{p}" for i, p in enumerate(nodes))
    cfg = work / "haproxy.cfg"
    cfg.write_text(f"""global
    maxconn 4096
defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    option http-keep-alive
    http-reuse always
frontend site
    bind 127.0.0.1:{port}
    default_backend nodes
backend nodes
    balance roundrobin
{servers}
""")
    tool = shutil.which("haproxy") or "/usr/sbin/haproxy"
    return subprocess.Popen([tool, "-db", "-f", str(cfg)], stdout=log, stderr=log)


def profile(tables: list[dict], deals: int) -> None:
    """``deals`` deals through the whole request in this process: one deal's statements with their
    times, the share of the request each layer takes, and cProfile's top functions."""
    import cProfile
    import pstats

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    sent = [0]

    def post(i: int):
        t = tables[i % len(tables)]
        sent[0] += 1
        r = client.post(t["path"], data=t["bodies"][(i // len(tables)) % len(t["bodies"])],
                        content_type="application/json", HTTP_AUTHORIZATION=t["auth"],
                        HTTP_IDEMPOTENCY_KEY=f"p{time.time_ns()}-{i}")
        assert r.status_code == 201, (r.status_code, r.content[:300])

    for i in range(20):   # warm: imports, connections, caches
        post(i)
    with CaptureQueriesContext(connection) as q:
        post(20)
    print(f"one deal: {len(q.captured_queries)} statements")
    for x in q.captured_queries:
        print(f"  {float(x['time']) * 1000:6.2f} ms  {x['sql'][:150]}")
    spent: dict[str, list[float]] = {}

    pg_spent: dict[str, int] = {}   # PostgreSQL's CPU (ns) by statement: its backend's schedstat

    def backend_ns() -> int:
        return int(Path(f"/proc/{connection.connection.info.backend_pid}/schedstat").read_text().split()[0])

    def timed(execute, sql, params, many, context):   # each statement's time, by its first words
        t0 = time.perf_counter()
        b0 = backend_ns() if connection.connection else None
        try:
            return execute(sql, params, many, context)
        finally:
            what = " ".join(sql.split()[:4])[:60]
            spent.setdefault(what, []).append(time.perf_counter() - t0)
            if b0 is not None:
                pg_spent[what] = pg_spent.get(what, 0) + backend_ns() - b0

    import redis

    redis_time = [0.0, 0]   # the rate limit's round trips to Redis (a pipeline is one), timed
    originals = (redis.Redis.execute_command, redis.client.Pipeline.execute)

    def round_trip(original):
        def timed_call(self, *args, **kw):
            t0 = time.perf_counter()
            try:
                return original(self, *args, **kw)
            finally:
                redis_time[0] += time.perf_counter() - t0
                redis_time[1] += 1
        return timed_call

    redis.Redis.execute_command = round_trip(originals[0])
    redis.client.Pipeline.execute = round_trip(originals[1])
    started, cpu = time.perf_counter(), time.process_time()
    with connection.execute_wrapper(timed):
        for i in range(21, 21 + deals):
            post(i)
    wall, cpu = (time.perf_counter() - started) / deals, (time.process_time() - cpu) / deals
    redis.Redis.execute_command, redis.client.Pipeline.execute = originals
    sql = sum(sum(v) for v in spent.values()) / deals
    print(f"{deals} deals: {wall * 1000:.2f} ms a deal in one process ({1 / wall:.0f} deals/s), of which CPU of this "
          f"process {cpu * 1000:.2f} ms; waiting for the SQL statements {sql * 1000:.2f} ms, Redis "
          f"{redis_time[0] / deals * 1000:.2f} ms ({redis_time[1] / deals:.1f} round trips)")
    for what, times in sorted(spent.items(), key=lambda kv: -sum(kv[1])):
        print(f"  {len(times) / deals:4.1f} × {sum(times) / len(times) * 1000:5.2f} ms "
              f"(PostgreSQL's CPU {pg_spent.get(what, 0) / len(times) / 1e6:5.3f} ms)  {what}")
    print(f"PostgreSQL's CPU a deal, its statements: {sum(pg_spent.values()) / deals / 1e6:.2f} ms")
    prof = cProfile.Profile()
    prof.enable()
    for i in range(21 + deals, 21 + 2 * deals):
        post(i)
    prof.disable()
    prof.dump_stats(os.environ.get("BENCH_PROFILE_OUT", str(Path(tempfile.gettempdir()) / "gupai-deals.prof")))
    stats = pstats.Stats(prof)
    stats.sort_stats("cumulative").print_stats(45)
    stats.sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="deal/ceiling pairs, alternating")
    parser.add_argument("--ceiling", choices=("plain", "asgi"), default="plain",
                        help="plain: gunicorn -w 2 sync (default); asgi: through the site's gunicorn config")
    parser.add_argument("--nodes", type=int, default=1,
                        help="site nodes (gunicorn -w 2 each); 2+: behind haproxy, with one node run beside them")
    parser.add_argument("--node-workers", type=int, default=2,
                        help="gunicorn workers of each node behind haproxy (--nodes 2+); the one node beside "
                             "them keeps 2")
    parser.add_argument("--site-role", action="store_true",
                        help="the site and its worker connect as the site's role (manage.py site_role), bound by "
                             "row-level security, rather than as the database's owner, whom it does not bind")
    parser.add_argument("--writes", type=int, default=0, metavar="K",
                        help="also run, in each round, the bare app inserting its row K times in one transaction: "
                             "what K statements cost the framework itself, beside the deal's")
    parser.add_argument("--as-one", action="store_true",
                        help="--writes: the K rows in one statement (a chain of WITH … INSERTs) instead of K")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="profile N deals in this process instead of the load")
    args = parser.parse_args()
    if not args.profile and not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install wrk")
    prepare_database(ENV, BARE_ENV)
    site_env = ENV
    if args.site_role:   # the site and its worker connect as the site's role, bound by row security
        subprocess.run([sys.executable, "manage.py", "site_role", SITE_ROLE], cwd=ROOT, check=True,
                       env=dict(ENV, SITE_DB_PASSWORD=SITE_ROLE_PASSWORD), stdout=subprocess.DEVNULL)
        site_env = dict(ENV, DATABASE_URL=re.sub(r"//[^@/]*@", f"//{SITE_ROLE}:{SITE_ROLE_PASSWORD}@", PG))
    tables, tournament_id = prepare_tournament(args.tables, deals_per_table=200)
    if args.profile:
        profile(tables, args.profile)
        return
    port, bare_port = free_port(), free_port()
    work = Path(tempfile.mkdtemp(prefix="gupai-bench-"))
    deals_lua, ceiling_lua = work / "deals.lua", work / "ceiling.lua"
    deals_lua.write_text(LUA % {"tables": lua_tables(tables, "path")})
    ceiling_lua.write_text(LUA % {"tables": lua_tables(tables, "baseline")})
    writes_lua = work / "writes.lua"
    writes_lua.write_text(LUA % {"tables": lua_tables([dict(t, baseline=f"{t['baseline']}{args.writes}/" + ("one/" if args.as_one else ""))
                                                       for t in tables], "baseline")})
    log = open(work / "server.log", "w")
    procs = []
    if args.nodes == 1:
        procs.append(site_node(port, site_env, log))
        waits = [(port, procs[0])]
    else:   # haproxy on ``port`` in front of the nodes, each its own gunicorn (-w --node-workers)
        node_ports = [free_port() for _ in range(args.nodes)]
        procs += [site_node(p, site_env, log, workers=args.node_workers) for p in node_ports]
        waits = list(zip(node_ports, procs))
        procs.append(haproxy(port, node_ports, work, log))
        waits.append((port, procs[-1]))
        one_port = free_port()   # and one node reached directly, run beside them for the ratio
        procs.append(site_node(one_port, site_env, log))
        waits.append((one_port, procs[-1]))
    bare = ceiling_server(args.ceiling, bare_port, log)
    worker = subprocess.Popen([sys.executable, "-m", "celery", "-A", "gupai_site", "worker", "-c", "1",
                               "--loglevel=WARNING"], cwd=ROOT, env=site_env, stdout=log, stderr=subprocess.STDOUT)
    procs += [bare, worker]
    database = PG.rsplit("/", 1)[1]
    # the site measured: its node, or its nodes and haproxy; then the node run beside them
    site_pids = [proc.pid for proc in procs[:1 if args.nodes == 1 else args.nodes + 1]]
    site_meter = cpu.Meter(site=lambda: sum(cpu.tree(p) for p in site_pids), postgresql=lambda: cpu.backends(database), worker=lambda: cpu.tree(worker.pid), wrk=wrk_cpu)
    one_meter = cpu.Meter(site=lambda: cpu.tree(procs[args.nodes + 1].pid), postgresql=lambda: cpu.backends(database),
                          worker=lambda: cpu.tree(worker.pid), wrk=wrk_cpu)
    bare_meter = cpu.Meter(site=lambda: cpu.tree(bare.pid), postgresql=lambda: cpu.backends(database), wrk=wrk_cpu)
    load = []
    try:
        for p, proc in waits:
            wait_port(p, proc)
        wait_port(bare_port, bare)
        # Warm up both (imports, connections, the fresh tables' statistics and caches): the first pair
        # was slower than the others when this was 3 s.
        run_wrk(port, deals_lua, 10, args.connections)
        run_wrk(bare_port, ceiling_lua, 10, args.connections)
        deals, ceiling, one, writes = [], [], [], []
        stored = functools.partial(deals_stored, tournament_id)

        if args.nodes > 1:
            run_wrk(one_port, deals_lua, 10, args.connections)
        for _ in range(args.rounds):
            load.append(os.getloadavg()[0])
            if args.nodes > 1:
                one.append(run_wrk(one_port, deals_lua, args.seconds, args.connections, one_meter, stored))
            deals.append(run_wrk(port, deals_lua, args.seconds, args.connections, site_meter, stored))
            ceiling.append(run_wrk(bare_port, ceiling_lua, args.seconds, args.connections, bare_meter))
            if args.writes:
                writes.append(run_wrk(bare_port, writes_lua, args.seconds, args.connections, bare_meter))
        time.sleep(2)
        after = check_after(tournament_id)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(30)
    site = ("the site (gunicorn.conf.py, uvicorn, -w 2)" if args.nodes == 1 else
            f"the site (gunicorn.conf.py, uvicorn, {args.nodes} nodes of -w {args.node_workers} behind haproxy; "
            "one node of -w 2 beside them)")
    print(f"wrk -t2 -c{args.connections} -d{args.seconds}s, {args.tables} tables; {site}; ceiling: bare DRF app, "
          + ("gunicorn -w 2 sync" if args.ceiling == "plain" else "the site's gunicorn config (uvicorn, -w 2)")
          + f"; PostgreSQL, Celery worker on Redis; {args.rounds} alternating pairs; "
          f"load average before each pair: {', '.join(f'{x:.1f}' for x in load)}")
    print(f"{'':10} {'req/s':>8} {'new/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}   CPU ms a request: "
          "server + PostgreSQL + worker (+ wrk)")
    for i, (d, c) in enumerate(zip(deals, ceiling), start=1):
        print(f"deals {i:<4} {d['rate']:8.0f} {d['new']:8.0f} {d['p50']:8.1f} {d['p99']:8.1f} {d['non2xx']:8d}   "
              f"{cpu_line(d)}  {d['socket_errors']}")
        print(f"ceiling {i:<2} {c['rate']:8.0f} {c['new']:8.0f} {c['p50']:8.1f} {c['p99']:8.1f} {c['non2xx']:8d}   "
              f"{cpu_line(c)}  {c['socket_errors']}")
    print("CPU a deal / CPU a ceiling request (server + PostgreSQL + worker): "
          + ", ".join(f"{busy(d) / busy(c):.2f}" for d, c in zip(deals, ceiling)))
    for i, (w, c) in enumerate(zip(writes, ceiling), start=1):
        print(f"bare, {args.writes} {'rows in one statement' if args.as_one else 'statements'} {i}: {w['rate']:.0f} req/s, p99 {w['p99']:.1f} ms, {cpu_line(w)}; "
              f"/ ceiling: {w['rate'] / c['rate']:.0%}")
    ratios = [d["rate"] / c["rate"] for d, c in zip(deals, ceiling)]
    print(f"deals / ceiling: {', '.join(f'{r:.0%}' for r in ratios)}")
    for i, o in enumerate(one, start=1):
        print(f"one node {i:<1} {o['rate']:8.0f} {o['new']:8.0f} {o['p50']:8.1f} {o['p99']:8.1f} {o['non2xx']:8d}   {cpu_line(o)}"
              f"  {o['socket_errors']}")
    if one:
        gains = [d["rate"] / o["rate"] for d, o in zip(deals, one)]
        print(f"{args.nodes} nodes behind haproxy / one node: {', '.join(f'{g:.2f}' for g in gains)}")
    print(f"after the load: standings exact: {after['standings_exact']}; deals stored {after['rounds']}, "
          f"distinct keys answered 201 {after['distinct_keys']}, deals in the standings {after['deals_counted']}")
    print(f"(logs and wrk scripts in {work})")


if __name__ == "__main__":
    main()
