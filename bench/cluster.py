"""Many clubs on the cluster: live tournaments recording deals while spectators watch them, on
the production topology that ``make cluster`` rehearses (scripts/cluster.py).

    .venv/bin/python bench/cluster.py            # 1,000 clubs, 100 live tournaments, 10 deals/s each, 5,000 spectators, 30 s
    .venv/bin/python bench/cluster.py --clubs 20 --tournaments 5 --spectators 100 --rate 2 --seconds 10   # a small run
    .venv/bin/python bench/cluster.py --reuse-database ...   # keep the clubs of the last run (no new migrate)
    .venv/bin/python bench/cluster.py --haproxy-delay ...    # haproxy's events backend without option http-no-delay

Starts the cluster as tests/integration/test_cluster.py does — ``scripts/cluster.py start`` on
free ports of its own and a run directory of its own: haproxy in front of two web nodes (gunicorn,
uvicorn workers, ``-w 2`` each, gupai_site.settings unchanged: every middleware, the per-link
allowance of deals included), PgBouncer in transaction mode, a streaming replica, a Celery worker
per queue and beat — over a database of its own (``--database``, default ``gupai_clusterbench``,
dropped and made again unless ``--reuse-database``) and a Redis of its own (a ``redis-server`` on
a free port: the events' pub/sub channels are the same in every Redis database, and another
stack's tournament 7 must not reach this one's spectators). Stops it all at the end (the logs are
kept; their folder is printed).

Sets up, through the services, in that database: ``--clubs`` clubs (one director for all of them:
a director each would cost a password hash each), and in the first ``--tournaments`` of them a
public Jie Long tournament at the points level — its players, entries and their standing rows
inserted in bulk with the ORM as bench/seating.py does (no audit rows for them; one by one
through the services with ``--players-through-services``: 20,000 calls at the full size) —
started through the services, with a seated session (``session_seat``) of enough tables
that no scorer link goes over its allowance of 30 deals a minute at ``--rate`` deals/s (25 tables
at 10 deals/s: 0.4 a table a second), and a scorer link per table; the deals' bodies are
``games.simulate``'s, as bench/load.py's scorers send them (``scorer_bodies``).

Then a child process opens ``--spectators`` event streams (``GET /api/v1/tournaments/{id}/events/``,
raw asyncio streams, uvloop when installed) through haproxy, spread evenly over the tournaments,
noting which node holds each (haproxy's ``X-Gupai-Node``) and every ``deal_recorded`` event's
round id and the time it came (reconnecting with ``Last-Event-ID`` if cut). Once all are held,
this process posts deals through haproxy open-loop — each at its time on a schedule
(``--rate`` a second per tournament, phases spread), never waiting for an earlier answer: a
connection from an idle pool or a new one, up to ``--connections`` — with ``Authorization: Scorer …`` and an
Idempotency-Key, for ``--seconds``, then waits ``--drain`` seconds for the last events.

Prints: deals offered and answered a second, the answers' p50/p99 from the send and from the
schedule (a deal the cluster made wait counts from when it was due, not from when a free
connection let it go) and their statuses, how late the client itself sent (its lag behind the
schedule); for every (deal answered 201, spectator of
its tournament) the delay from the 201 answer and from the send to the event's arrival
(p50/p95/p99; negative from the answer when the event came first), events missed (expected vs
received per spectator) and duplicated; the CPU each part used over the deals and the drain
(bench/cpu.py, /proc: the nodes, haproxy, PgBouncer, PostgreSQL's backends of the database,
the replica, the Celery workers and beat, Redis, and this bench's own two processes — a Python
client holding thousands of streams on the same cores is itself a load); then checks that each
tournament's standings equal a recomputation (bench/load.py's ``check_after``).

Needs Debian's haproxy, pgbouncer, postgresql (the machine's server on 127.0.0.1:5432, user
postgres, trust) and redis-server, like ``make cluster``.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import math
import multiprocessing
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench import cpu  # noqa: E402

#: The per-link allowance of deals (scoring/web/throttling.py: 30 a minute, in fixed minutes): each
#: table is sent at most this many a second, so that none is refused.
PER_TABLE = 0.4
ROUND_ID = re.compile(rb'"round":(\d+)')


# --- The pure parts: the stream's bytes, the accounting (tests/bench/test_cluster.py) -----------

class Chunked:
    """An HTTP/1.1 chunked body decoded as it comes: ``feed(bytes)`` → the body's bytes so far."""

    def __init__(self) -> None:
        self.buffer = b""
        self.left = 0          # bytes of the current chunk still to come
        self.skip = 0          # bytes of the CRLF after it still to come
        self.done = False

    def feed(self, data: bytes) -> bytes:
        self.buffer += data
        out = []
        while self.buffer and not self.done:
            if self.left:
                take = self.buffer[:self.left]
                out.append(take)
                self.buffer, self.left = self.buffer[len(take):], self.left - len(take)
                self.skip = 0 if self.left else 2
            elif self.skip:
                n = min(self.skip, len(self.buffer))
                self.buffer, self.skip = self.buffer[n:], self.skip - n
            else:
                end = self.buffer.find(b"\r\n")
                if end < 0:
                    break
                size = int(self.buffer[:end].split(b";")[0], 16)
                self.buffer = self.buffer[end + 2:]
                self.done, self.left = size == 0, size
        return b"".join(out)


class EventStream:
    """Server-sent events parsed as they come: ``feed(bytes)`` → ``[(id, event, round id)]`` of the
    complete events (id None for a frame without one; round id None unless ``deal_recorded``)."""

    def __init__(self) -> None:
        self.buffer = b""

    def feed(self, data: bytes) -> list[tuple[int | None, str, int | None]]:
        self.buffer += data.replace(b"\r\n", b"\n")
        *frames, self.buffer = self.buffer.split(b"\n\n")
        out = []
        for frame in frames:
            event_id, kind, round_id = None, "message", None
            for line in frame.split(b"\n"):
                if line.startswith(b"id:"):
                    event_id = int(line[3:].strip() or 0)
                elif line.startswith(b"event:"):
                    kind = line[6:].strip().decode()
                elif line.startswith(b"data:") and kind == "deal_recorded":
                    m = ROUND_ID.search(line)
                    round_id = int(m.group(1)) if m else None
            if event_id is not None or kind != "message":
                out.append((event_id, kind, round_id))
        return out


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank on the sorted values); NaN when there are none."""
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, max(0, math.ceil(p / 100 * len(values)) - 1))]


@dataclass
class Deal:
    tournament: int
    key: str
    scheduled: float            # time.monotonic(): the same clock in every process of the machine
    sent: float = 0.0
    answered: float = 0.0
    status: int = 0             # 0: no answer (the connection failed)
    round: int | None = None
    node: str = ""


@dataclass
class Watched:
    """One spectator: its tournament, its node, its connections and what came (round, when)."""
    tournament: int
    node: str = ""
    connects: int = 0
    receipts: list[tuple[int, float]] = field(default_factory=list)


def account(deals: list[Deal], spectators: list[Watched], published: dict[int, float] | None = None) -> dict:
    """For every (deal answered 201, spectator of its tournament): the delay from the answer and
    from the send to the event's arrival; per spectator the deals expected but not received
    (missed), received more than once (duplicated), and received though never answered 201
    (unexpected: a deal whose answer was lost). Delays by the spectator's node too. With
    ``published`` (round → when a subscriber of Redis saw its event): the delay from there to
    each spectator, and from there to the deal's answer reaching the scorer."""
    published = published or {}
    by_round = {d.round: d for d in deals if d.status == 201 and d.round is not None}
    expected: dict[int, set[int]] = defaultdict(set)
    for d in by_round.values():
        expected[d.tournament].add(d.round)
    from_answer, from_send, from_redis = [], [], []
    by_node: dict[str, list[float]] = defaultdict(list)
    missed = duplicated = unexpected = 0
    for s in spectators:
        seen = Counter(r for r, _ in s.receipts)
        duplicated += sum(n - 1 for n in seen.values())
        missed += len(expected[s.tournament] - seen.keys())
        unexpected += len(seen.keys() - expected[s.tournament])
        first: dict[int, float] = {}
        for r, at in s.receipts:
            first.setdefault(r, at)
        for r, at in first.items():
            d = by_round.get(r)
            if d is not None and d.tournament == s.tournament:
                from_answer.append(at - d.answered)
                from_send.append(at - d.sent)
                if r in published:
                    from_redis.append(at - published[r])
                by_node[s.node].append(at - d.answered)
    redis_to_answer = [d.answered - published[r] for r, d in by_round.items() if r in published]
    return {"from_answer": from_answer, "from_send": from_send, "from_redis": from_redis,
            "redis_to_answer": redis_to_answer, "by_node": dict(by_node),
            "expected": sum(len(expected[s.tournament]) for s in spectators), "missed": missed,
            "duplicated": duplicated, "unexpected": unexpected}


def schedule(tournaments: int, rate: float, seconds: float) -> list[tuple[float, int, int]]:
    """The deals' times: ``(at, tournament index, its k-th deal)``, ``rate`` a second for each
    tournament over ``seconds``, the tournaments' phases spread evenly; sorted by time."""
    if rate <= 0:
        return []
    every = 1 / rate
    out = [(i * every / tournaments + k * every, i, k)
           for i in range(tournaments) for k in range(int(seconds * rate))]
    return sorted(out)


def tables_for(rate: float) -> int:
    """Tables a tournament needs so that ``rate`` deals/s, round robin, keep each link under its
    allowance (at least 2)."""
    return max(2, math.ceil(rate / PER_TABLE))


# --- HTTP on raw asyncio streams ------------------------------------------------------------------

async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    return int(lines[0].split(" ", 2)[1]), headers


async def read_body(reader: asyncio.StreamReader, headers: dict) -> bytes:
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"]))
    if "chunked" in headers.get("transfer-encoding", ""):
        chunks, body = Chunked(), []
        while not chunks.done:
            data = await reader.read(65536)
            if not data:
                raise ConnectionError("cut in the body")
            body.append(chunks.feed(data))
        return b"".join(body)
    return await reader.read()


# --- Spectators (a child process) -----------------------------------------------------------------

async def spectate(port: int, s: Watched, path: str, state: dict) -> None:
    last = None
    while not state["stop"]:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            resume = f"Last-Event-ID: {last}\r\n" if last is not None else ""
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{resume}\r\n"
                         .encode())
            status, headers = await read_head(reader)
            if status != 200:
                state["refused"][status] += 1
                raise ConnectionError(status)
            s.node = s.node or headers.get("x-gupai-node", "?")
            s.connects += 1
            state["connected"] += 1
            chunked = Chunked() if "chunked" in headers.get("transfer-encoding", "") else None
            events = EventStream()
            try:
                while True:
                    data = await reader.read(65536)
                    if not data:
                        break
                    now = time.monotonic()
                    for event_id, _kind, round_id in events.feed(chunked.feed(data) if chunked else data):
                        last = event_id if event_id is not None else last
                        if round_id is not None:
                            s.receipts.append((round_id, now))
            finally:
                state["connected"] -= 1
                writer.close()
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, ValueError):
            pass
        if not state["stop"]:
            await asyncio.sleep(random.uniform(0, 3))   # the stream's retry: 3000


PUBLISHED = re.compile(rb'"event":"deal_recorded","data":\{"round":(\d+)')


async def watch_redis(redis_url: str, published: dict, state: dict) -> None:
    """A subscriber of the events' channels on Redis beside the nodes' hubs: when each deal's
    event was published (the first time it is seen), to split the spectators' delay in two."""
    host, _, port = redis_url.split("//", 1)[1].split("/", 1)[0].rpartition("@")[2].partition(":")
    try:
        reader, writer = await asyncio.open_connection(host, int(port or 6379))
    except (OSError, ValueError):
        return
    pattern = b"gupai:events:*"
    writer.write(b"*2\r\n$10\r\nPSUBSCRIBE\r\n$%d\r\n%s\r\n" % (len(pattern), pattern))
    buffer = b""
    while not state["stop"]:
        data = await reader.read(262144)
        if not data:
            return
        now = time.monotonic()
        buffer += data
        end = 0
        for m in PUBLISHED.finditer(buffer):
            published.setdefault(int(m.group(1)), now)
            end = m.end()
        buffer = buffer[max(end, len(buffer) - 100):]


def spectators_main(port: int, tournaments: list[int], n: int, pipe, redis_url: str = "") -> None:
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass

    async def main():
        watched = [Watched(tournament=tournaments[i % len(tournaments)]) for i in range(n)]
        state = {"stop": False, "connected": 0, "refused": Counter()}
        published: dict[int, float] = {}
        tasks = [asyncio.ensure_future(watch_redis(redis_url, published, state))] if redis_url else []
        started = time.monotonic()
        for i in range(0, n, 200):     # in batches: the listen backlogs
            tasks += [asyncio.ensure_future(spectate(port, s, f"/api/v1/tournaments/{s.tournament}/events/", state))
                      for s in watched[i:i + 200]]
            await asyncio.sleep(0.05)
        deadline = time.monotonic() + 180
        while state["connected"] < n and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        pipe.send(("connected", state["connected"], time.monotonic() - started))
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, pipe.recv)   # "finish"
        state["stop"] = True
        for t in tasks:
            t.cancel()
        pipe.send(("watched", [(s.tournament, s.node, s.connects, s.receipts) for s in watched],
                   dict(state["refused"]), published))

    asyncio.run(main())


# --- Scorers (this process): open-loop ------------------------------------------------------------

class Pool:
    """Keep-alive connections to haproxy: an idle one taken, a new one opened when none is, at
    most ``most`` at once (past that a deal waits for one: its send is late, which the lag and
    the answer time from the schedule show)."""

    def __init__(self, port: int, most: int) -> None:
        self.port, self.idle, self.opened, self.stale = port, [], 0, 0
        self.slots = asyncio.Semaphore(most)

    async def post(self, path: str, headers: str, body: bytes, deal: Deal) -> tuple[int, dict, bytes]:
        async with self.slots:
            deal.sent = time.monotonic()
            raw = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{headers}"
                   f"Content-Length: {len(body)}\r\n\r\n").encode() + body
            while self.idle:
                reader, writer = self.idle.pop()
                try:
                    return await self._exchange(reader, writer, raw)
                except (OSError, asyncio.IncompleteReadError) as e:
                    # Closed by haproxy while idle (its keep-alive timeout) before any answer: the
                    # same request again on another (the same Idempotency-Key: never twice).
                    if isinstance(e, asyncio.IncompleteReadError) and e.partial:
                        raise
                    self.stale += 1
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            self.opened += 1
            return await self._exchange(reader, writer, raw)

    async def _exchange(self, reader, writer, raw: bytes) -> tuple[int, dict, bytes]:
        try:
            writer.write(raw)
            status, head = await read_head(reader)
            answer = await read_body(reader, head)
        except BaseException:
            writer.close()
            raise
        if head.get("connection", "").lower() == "close":
            writer.close()
        else:
            self.idle.append((reader, writer))
        return status, head, answer


async def post_deal(pool: Pool, deal: Deal, table: dict, body: bytes) -> None:
    try:
        deal.status, head, answer = await pool.post(table["path"], f"Authorization: {table['auth']}\r\n"
                                                    f"Idempotency-Key: {deal.key}\r\n", body, deal)
        deal.node = head.get("x-gupai-node", "")
        if deal.status == 201:
            deal.round = json.loads(answer)["id"]
    except (OSError, asyncio.IncompleteReadError, ConnectionError, ValueError, KeyError):
        deal.status = 0
    deal.answered = time.monotonic()


async def post_deals(port: int, tournaments: list[dict], rate: float, seconds: float, run: str,
                     connections: int) -> list[Deal]:
    """Every deal of the schedule posted at its time (never waiting for an earlier answer, on at
    most ``connections`` connections); returns the deals."""
    pool, deals, tasks = Pool(port, connections), [], []
    plan = schedule(len(tournaments), rate, seconds)
    t0 = time.monotonic() + 0.5
    for at, i, k in plan:
        # (behind schedule: still a turn of the loop, so that the deals sent go on meanwhile)
        await asyncio.sleep(max(0.0, t0 + at - time.monotonic()))
        t = tournaments[i]
        table = t["tables"][k % len(t["tables"])]
        body = table["bodies"][(k // len(t["tables"])) % len(table["bodies"])]
        deal = Deal(tournament=t["id"], key=f"{run}-{t['id']}-{k}", scheduled=t0 + at)
        deals.append(deal)
        tasks.append(asyncio.ensure_future(post_deal(pool, deal, table, body)))
    await asyncio.gather(*tasks)
    for _, writer in pool.idle:
        writer.close()
    print(f"(the scorers' connections: {pool.opened} opened, {pool.stale} found closed while idle and the deal "
          f"sent again on another)", flush=True)
    return deals


# --- The cluster, the clubs -----------------------------------------------------------------------

def cluster_module():
    """scripts/cluster.py, loaded as tests/integration/test_cluster.py loads it."""
    spec = importlib.util.spec_from_file_location("cluster_script", ROOT / "scripts" / "cluster.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["cluster_script"] = module   # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    from bench.stack import free_port as free
    return free()


def redis_server() -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                             "no", "--maxclients", "20000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    from bench.stack import wait_port
    wait_port(port, proc)
    return proc, f"redis://127.0.0.1:{port}/0"


def psql(query: str) -> str:
    return subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-tAc", query], capture_output=True, text=True,
                          check=True).stdout.strip()


def scorer_bodies(table: int, deals: int) -> list[dict]:
    """bench/load.py's (imported late: it sets its own environment when imported)."""
    saved = dict(os.environ)
    try:
        from bench.load import scorer_bodies as bodies
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return bodies(table, deals)


def check_after(tournament_id: int) -> dict:
    saved = dict(os.environ)
    try:
        from bench.load import check_after as check
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return check(tournament_id)


def prepare(n_clubs: int, n_tournaments: int, rate: float, seconds: float,
            through_services: bool = False) -> tuple[list[dict], float]:
    """The clubs and the live tournaments, through the services, but for the players and their
    entries (``through_services``: those too, one by one; see the module); returns the
    tournaments (id, tables: path, Authorization, bodies as bytes) and the seconds it took."""
    import django

    django.setup()
    from django.db import connections

    from scoring.domain.actors import Actor
    from scoring.models import Entry, Player, Standing
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create, player_create
    from scoring.services.seating import session_seat
    from scoring.services.tournaments import entry_create, tournament_create, tournament_start

    began = time.monotonic()
    stamp = int(time.time() * 1000)
    director = director_create(username=f"clusterbench{stamp}", password="bench-secret-1")
    actor = Actor(user=director)
    clubs = [club_create(actor=actor, name=f"Club {i + 1} ({stamp})") for i in range(n_clubs)]
    print(f"{n_clubs} clubs made in {time.monotonic() - began:.1f} s", flush=True)
    n_tables = tables_for(rate)
    deals_a_table = math.ceil(rate * seconds / n_tables) + 1
    tournaments = []
    for i, club in enumerate(clubs[:n_tournaments]):
        t = tournament_create(actor=actor, club=club, name=f"Live {i + 1}", game="jie_long", public=True)
        if through_services:
            for p in range(4 * n_tables):
                entry_create(actor=actor, tournament=t,
                             player=player_create(actor=actor, club=club, name=f"Player {p + 1}"))
        else:   # as bench/seating.py: the rows entry_create writes (the entry, its standing), less its log
            players = Player.objects.bulk_create([Player(club=club, name=f"Player {p + 1}") for p in range(4 * n_tables)])
            entries = Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players])
            Standing.objects.bulk_create([Standing(tournament=t, entry=e) for e in entries])
        seated = session_seat(actor=actor, tournament=t, method="random", table_size=4, leftovers="sit_out")
        tournament_start(actor=actor, tournament=t)
        tables = [{"path": f"/api/v1/tables/{table.pk}/rounds/", "auth": f"Scorer {token}",
                   "bodies": [json.dumps(b).encode() for b in scorer_bodies(i * 100 + j, deals_a_table)]}
                  for j, (table, token) in enumerate(seated.tables)]
        tournaments.append({"id": t.pk, "tables": tables})
    with connections["default"].cursor() as cursor:   # the fresh tables' statistics
        cursor.execute("ANALYZE")
    connections.close_all()
    took = time.monotonic() - began
    print(f"{len(tournaments)} tournaments of {n_tables} tables ({4 * n_tables} players each) started; "
          f"set up in {took:.1f} s", flush=True)
    return tournaments, took



def haproxy_delay(script, c) -> None:
    """haproxy restarted without ``option http-no-delay`` in the events' backend (as ``make
    cluster`` had it before these runs): by default it tells the kernel more is coming after a
    small chunk (MSG_MORE), which may hold an event up to the peer's delayed ACK (~200 ms)."""
    made = script.haproxy_config
    script.haproxy_config = lambda c: "\n".join(line for line in made(c).split("\n") if "http-no-delay" not in line)
    script.stop_process(c, "haproxy")
    script.haproxy_start(c)
    script.wait_until(lambda: script.http_status(f"{c.url}/readyz") == 200, 90, "haproxy did not come back")
    print("haproxy restarted without option http-no-delay for the events' backend", flush=True)


def meter(script, c, redis: subprocess.Popen | None, child: multiprocessing.Process) -> cpu.Meter:
    """The CPU of each part of the run (bench/cpu.py), read from /proc."""
    def of(*names: str):
        return lambda: sum(cpu.tree(pid) for pid in (script.running(c, n) for n in names) if pid)

    def replica() -> float:
        try:
            return cpu.tree(int((c.replica_dir / "postmaster.pid").read_text().split()[0]))
        except (OSError, ValueError, IndexError):
            return 0.0

    def own() -> float:
        used = resource.getrusage(resource.RUSAGE_SELF)
        return used.ru_utime + used.ru_stime

    parts = {"nodes": of(*(f"web-{p}" for p in c.node_ports)), "haproxy": of("haproxy"),
             "pgbouncer": of("pgbouncer"), "postgresql": lambda: cpu.backends(c.database), "replica": replica,
             "workers": of("beat", "worker-all", *(f"worker-{q}" for q in script.QUEUES))}
    if redis is not None:
        parts["redis"] = lambda: cpu.tree(redis.pid)
    parts["bench: scorers"] = own
    parts["bench: spectators"] = lambda: cpu.tree(child.pid)
    return cpu.Meter(**parts)


def ms(seconds: float) -> str:
    return "n/a" if math.isnan(seconds) else f"{seconds * 1000:.0f}"


def report(args, deals: list[Deal], spectators: list[Watched], refused: dict, used: dict,
           wall: float, connected: tuple[int, float], published: dict) -> dict:
    answered = [d for d in deals if d.status]
    ok = [d for d in deals if d.status == 201]
    times = [d.answered - d.sent for d in answered]
    late = [d.answered - d.scheduled for d in answered]
    lags = [d.sent - d.scheduled for d in deals]
    statuses = Counter(d.status for d in deals)
    a = account(deals, spectators, published)
    nodes_s = Counter(s.node for s in spectators)
    nodes_d = Counter(d.node for d in answered)
    last_answer = max((d.answered for d in answered), default=0.0)
    span = last_answer - min((d.sent for d in deals), default=last_answer) or float("nan")
    print(f"\n{args.tournaments} tournaments × {args.rate:g} deals/s for {args.seconds:g} s through haproxy "
          f"(open loop), {args.spectators} spectators, {args.clubs} clubs; load average now "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"spectators held: {connected[0]}/{args.spectators} in {connected[1]:.1f} s; by node "
          f"{dict(sorted(nodes_s.items()))}; connections per spectator "
          f"{sum(s.connects for s in spectators) / max(len(spectators), 1):.2f}; refused {refused or 0}")
    print(f"deals offered {len(deals)} ({len(deals) / args.seconds:.1f}/s), answered {len(answered)} "
          f"({len(answered) / span:.1f}/s from the first send to the last answer, {span:.1f} s), 201: {len(ok)}; "
          f"statuses {dict(sorted(statuses.items()))} (0: no answer); non-2xx {sum(n for st, n in statuses.items() if not 200 <= st < 300)}")
    print(f"deal answers from the send: p50 {ms(percentile(times, 50))} ms, p99 {ms(percentile(times, 99))} ms, max "
          f"{ms(max(times, default=float('nan')))} ms; from the schedule: p50 {ms(percentile(late, 50))} ms, p99 "
          f"{ms(percentile(late, 99))} ms; by node {dict(sorted(nodes_d.items()))}")
    print(f"the client's sends behind its schedule (its own lag, and waits for one of its {args.connections} "
          f"connections): p50 {ms(percentile(lags, 50))} ms, p99 {ms(percentile(lags, 99))} ms")
    fa, fs = a["from_answer"], a["from_send"]
    print(f"spectator delay ({len(fa)} deliveries): from the 201 answer p50 {ms(percentile(fa, 50))} ms, p95 "
          f"{ms(percentile(fa, 95))} ms, p99 {ms(percentile(fa, 99))} ms; from the send p50 {ms(percentile(fs, 50))} ms, "
          f"p95 {ms(percentile(fs, 95))} ms, p99 {ms(percentile(fs, 99))} ms")
    fr, ra = a["from_redis"], a["redis_to_answer"]
    print(f"  split at Redis (a subscriber beside the hubs saw {len(published)} deals' events): from the publish to "
          f"the spectator p50 {ms(percentile(fr, 50))} ms, p95 {ms(percentile(fr, 95))} ms, p99 {ms(percentile(fr, 99))} "
          f"ms; from the publish to the 201 reaching the scorer p50 {ms(percentile(ra, 50))} ms, p99 "
          f"{ms(percentile(ra, 99))} ms")
    print("  from the answer, by the spectator's node: " + "; ".join(
        f"{node} p50 {ms(percentile(v, 50))} ms p95 {ms(percentile(v, 95))} ms" for node, v in sorted(a["by_node"].items())))
    print(f"events expected {a['expected']}, missed {a['missed']}, duplicated {a['duplicated']}, unexpected "
          f"{a['unexpected']} (received for a deal never answered 201)")
    busy = sum(v for k, v in used.items() if not k.startswith("bench"))
    print(f"CPU over the deals and the drain ({wall:.1f} s), seconds (% of one core) and ms a deal answered 201:")
    for name, seconds in used.items():
        print(f"  {name:18} {seconds:7.1f} s ({seconds / wall:5.0%})  {seconds * 1000 / max(len(ok), 1):6.2f} ms")
    print(f"  {'the cluster':18} {busy:7.1f} s ({busy / wall:5.0%})  {busy * 1000 / max(len(ok), 1):6.2f} ms")
    return a


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=1000)
    parser.add_argument("--tournaments", type=int, default=100, help="live tournaments (one per club, the first ones)")
    parser.add_argument("--spectators", type=int, default=5000)
    parser.add_argument("--rate", type=float, default=10.0, help="deals a second per tournament")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--connections", type=int, default=512, help="the scorers' connections at most")
    parser.add_argument("--drain", type=float, default=5.0, help="seconds waited after the last answer")
    parser.add_argument("--database", default="gupai_clusterbench")
    parser.add_argument("--reuse-database", action="store_true", help="keep the database (and its clubs) of a run before")
    parser.add_argument("--redis-url", default="", help="a Redis to use (default: a redis-server of this run's own)")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--haproxy-delay", action="store_true",
                        help="haproxy restarted without `option http-no-delay` for the events (haproxy's default)")
    parser.add_argument("--players-through-services", action="store_true",
                        help="players and entries one by one through the services (default: in bulk, as bench/seating.py)")
    args = parser.parse_args()
    if args.tournaments > args.clubs:
        raise SystemExit("--tournaments: at most one a club")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)   # inherited by haproxy and the nodes too
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 3 * args.spectators + 2000)), hard))
    if not args.reuse_database:
        psql(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
    script = cluster_module()
    redis, redis_url = (None, args.redis_url) if args.redis_url else redis_server()
    run_dir = Path(tempfile.mkdtemp(prefix="gupai-clusterbench-"))
    ports = [free_port() for _ in range(5)]
    cli = ["--run-dir", str(run_dir), "--database", args.database, "--redis-url", redis_url,
           "--haproxy-port", str(ports[0]), "--node-ports", f"{ports[1]},{ports[2]}", "--pgbouncer-port", str(ports[3]),
           "--replica-port", str(ports[4]), "--web-workers", str(args.web_workers)]
    command = [sys.executable, str(ROOT / "scripts" / "cluster.py")]
    child = None
    try:
        began = time.monotonic()
        started = subprocess.run([*command, "start", *cli], cwd=ROOT, capture_output=True, text=True)
        if started.returncode:
            raise SystemExit("the cluster did not start:\n" + started.stdout[-3000:] + started.stderr[-3000:])
        c = script.Cluster(**{**json.loads((run_dir / "cluster.json").read_text()), "run_dir": run_dir})
        print(f"cluster started in {time.monotonic() - began:.0f} s (haproxy {c.url}, nodes {c.node_ports}; "
              f"logs in {run_dir})", flush=True)
        if args.haproxy_delay:
            haproxy_delay(script, c)
        env = script.site_env(c)
        env.pop("DATABASE_REPLICA_URL")
        os.environ.update(env)   # the site's settings and keys (its scorer links), straight to the primary
        tournaments, _ = prepare(args.clubs, args.tournaments, args.rate, args.seconds,
                                 args.players_through_services)
        here, there = multiprocessing.Pipe()
        child = multiprocessing.get_context("fork").Process(
            target=spectators_main, args=(c.haproxy_port, [t["id"] for t in tournaments], args.spectators, there, redis_url))
        child.start()
        _, n_connected, took = here.recv()
        parts = meter(script, c, redis, child)
        parts.start()
        t0 = time.monotonic()
        deals = asyncio.run(post_deals(c.haproxy_port, tournaments, args.rate, args.seconds, f"cb{int(time.time())}",
                                       args.connections))
        time.sleep(args.drain)
        wall = time.monotonic() - t0
        used = parts.stop()
        here.send("finish")
        _, watched, refused, published = here.recv()
        child.join(30)
        spectators = [Watched(tournament=t, node=node, connects=n, receipts=r) for t, node, n, r in watched]
        report(args, deals, spectators, refused, used, wall, (n_connected, took), published)
        checks = [check_after(t["id"]) for t in tournaments]
        stored = sum(x["rounds"] for x in checks)
        print(f"after: standings exact in {sum(x['standings_exact'] for x in checks)}/{len(checks)} tournaments; "
              f"deals stored {stored}, distinct keys answered 201 {sum(x['distinct_keys'] for x in checks)}, "
              f"deals in the standings {sum(x['deals_counted'] for x in checks)}")
    finally:
        if child is not None and child.is_alive():
            child.kill()
        subprocess.run([*command, "stop", "--run-dir", str(run_dir)], cwd=ROOT, capture_output=True)
        if redis is not None:
            redis.kill()
            redis.wait(10)
        print(f"(the cluster stopped; its logs in {run_dir})")


if __name__ == "__main__":
    main()
