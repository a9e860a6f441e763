"""Spectators on the live events stream, on the real stack, while tables keep recording.

    .venv/bin/python bench/spectators.py [--clients 5000] [--tables 10] [--every 2.0] [--seconds 30]

Starts, on this machine: gunicorn (``-w 2``, gupai_site/gunicorn.conf.py: uvicorn workers serving
``gupai_site.asgi``) on PostgreSQL and Redis (pub/sub), and a Celery worker. A child process
opens ``--clients`` concurrent stream connections on one public tournament (raw asyncio
sockets, uvloop), reading every event id and the time it came. Meanwhile ``--tables`` scorers
each post a real deal (``games.simulate``, Jie Long, Idempotency-Key) every ``--every`` seconds.

Measured: for each deal, the delay from its commit (the event row's ``created_at``, written in
the deal's transaction just before COMMIT: the delay is over-, never under-estimated) to each
client's receipt — p50/p95/p99 over every (deal, client); the scorers' answer times (p50/p99);
the server's memory per held connection (its processes' RSS with every client connected, less
before, ÷ clients). Then every client is cut at once (the workers are killed; gunicorn starts
new ones) while the tables go on; the clients reconnect with ``Last-Event-ID`` (after 0–3 s,
as the stream's ``retry`` asks); at the end each client must have seen every version from its
first to the last exactly once, in order.

Uses its own database (``live_bench``, created and migrated here) and Redis database 13.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.stack import bench_env, free_port, prepare_database, wait_port  # noqa: E402

ENV = bench_env(database="live_bench", redis="redis://127.0.0.1:6379/13", hosts="127.0.0.1", ACCESS_LOG="")

ID = re.compile(rb"(?:^|\n)id: (\d+)\n")


def prepare(n_tables: int) -> tuple[int, list[dict]]:
    prepare_database(ENV)
    import django

    django.setup()
    from games.simulate import simulate
    from scoring.domain.actors import Actor
    from scoring.services.auth import director_create
    from scoring.services.clubs import club_create, player_create
    from scoring.services.tables import table_create
    from scoring.services.tournaments import entry_create, tournament_create, tournament_start

    director = director_create(username=f"spect{int(time.time() * 1000)}", password="bench-secret-1")
    actor = Actor(user=director)
    club = club_create(actor=actor, name=f"Spectators {director.username}")
    t = tournament_create(actor=actor, club=club, name=f"Spectators {director.username}", game="jie_long",
                          public=True)
    tables = []
    for i in range(n_tables):
        entries = [entry_create(actor=actor, tournament=t, player=player_create(actor=actor, club=club,
                                                                                 name=f"P{i}-{s}"))
                   for s in range(4)]
        table, token = table_create(actor=actor, tournament=t, name=f"T{i + 1}", entries=entries)
        bodies = [json.dumps({"points": r["points"]}) for r in simulate("jie_long", deals=400, seed=7 + i,
                                                                     players=4, level="points")]
        tables.append({"path": f"/api/v1/tables/{table.pk}/rounds/", "auth": f"Scorer {token}", "bodies": bodies})
    tournament_start(actor=actor, tournament=t)
    from django.db import connections
    connections.close_all()
    return t.pk, tables


# ---------------------------------------------------------------------------------------------
# Spectators (a child process)

class Client:
    __slots__ = ("last", "first", "dups", "gaps", "seen", "connects")

    def __init__(self) -> None:
        self.last = None
        self.first = None
        self.dups = self.gaps = self.seen = self.connects = 0


async def spectate(port: int, path: str, client: Client, times: dict, state: dict) -> None:
    while not state["stop"]:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            last = f"Last-Event-ID: {client.last}\r\n" if client.last is not None else ""
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{last}\r\n".encode())
            head = await reader.readuntil(b"\r\n\r\n")
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                raise ConnectionError(head[:40])
            client.connects += 1
            state["connected"] += 1
            tail = b""
            try:
                while True:
                    chunk = await reader.read(65536)
                    if not chunk:
                        break
                    now = time.time()
                    data = tail + chunk
                    end = 0
                    for m in ID.finditer(data):
                        end = m.end()
                        n = int(m.group(1))
                        if client.last is None:
                            client.first = client.last = n      # the opening: its version, no event
                            continue
                        if n <= client.last:
                            client.dups += 1
                            continue
                        if n != client.last + 1:
                            client.gaps += 1
                        client.last = n
                        client.seen += 1
                        if state["measure"]:
                            times.setdefault(n, []).append(now)
                    tail = data[max(end, len(data) - 64):]
            finally:
                state["connected"] -= 1
                writer.close()
        except (OSError, asyncio.IncompleteReadError, ConnectionError):
            pass
        if not state["stop"]:
            await asyncio.sleep(random.uniform(0, 3))    # as the stream's retry: 3000 asks


def spectators_main(port: int, path: str, n: int, pipe) -> None:
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass

    async def main():
        clients = [Client() for _ in range(n)]
        times: dict = {}
        state = {"stop": False, "measure": True, "connected": 0}
        tasks = []
        for i in range(0, n, 250):     # in batches: the listen backlog
            tasks += [asyncio.ensure_future(spectate(port, path, c, times, state)) for c in clients[i:i + 250]]
            await asyncio.sleep(0.05)
        while state["connected"] < n:
            await asyncio.sleep(0.2)
        pipe.send(("connected", state["connected"]))
        loop = asyncio.get_running_loop()
        while True:
            command = await loop.run_in_executor(None, pipe.recv)
            if command == "stop-measuring":
                state["measure"] = False
                pipe.send(("times", {k: v for k, v in times.items()}))
            elif command == "connected":
                pipe.send(("connected", state["connected"]))
            elif command == "finish":
                state["stop"] = True
                for t in tasks:
                    t.cancel()
                pipe.send(("clients", [(c.first, c.last, c.dups, c.gaps, c.seen, c.connects) for c in clients]))
                return

    asyncio.run(main())


# ---------------------------------------------------------------------------------------------
# Scorers (this process)

async def scorer(port: int, table: dict, every: float, state: dict, answers: list) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    i = 0
    await asyncio.sleep(random.uniform(0, every))
    while not state["stop"]:
        body = table["bodies"][i % len(table["bodies"])].encode()
        i += 1
        request = (f"POST {table['path']} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   f"Authorization: {table['auth']}\r\nIdempotency-Key: s-{time.time_ns()}-{i}\r\n"
                   f"Content-Length: {len(body)}\r\n\r\n").encode() + body
        started = time.monotonic()
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
        await reader.readexactly(length)
        answers.append((time.monotonic() - started, int(head.split(b" ", 2)[1])))
        await asyncio.sleep(max(0.0, every - (time.monotonic() - started)))
    writer.close()


async def record_for(port: int, tables: list, every: float, seconds: float, answers: list) -> None:
    state = {"stop": False}
    tasks = [asyncio.ensure_future(scorer(port, t, every, state, answers)) for t in tables]
    await asyncio.sleep(seconds)
    state["stop"] = True
    await asyncio.gather(*tasks, return_exceptions=True)


def rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total


def worker_pids(master: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
    return [int(p) for p in out]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))] if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=5000)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--every", type=float, default=2.0, help="seconds between two deals of a table")
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 2 * args.clients + 1000)), hard))

    tournament_id, tables = prepare(args.tables)
    port = free_port()
    work = Path(tempfile.mkdtemp(prefix="gupai-spectators-"))
    log = open(work / "server.log", "w")
    web = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gupai_site/gunicorn.conf.py",
                            "gupai_site.asgi:application", "-w", "2", "-b", f"127.0.0.1:{port}"],
                           cwd=ROOT, env=ENV, stdout=log, stderr=subprocess.STDOUT)
    celery = subprocess.Popen([sys.executable, "-m", "celery", "-A", "gupai_site", "worker", "-c", "1",
                               "--loglevel=WARNING"], cwd=ROOT, env=ENV, stdout=log, stderr=subprocess.STDOUT)
    here, there = multiprocessing.Pipe()
    try:
        wait_port(port, web)
        time.sleep(2)
        path = f"/api/v1/tournaments/{tournament_id}/events/"
        # The baseline beside it: the same recording without spectators (which also warms both
        # workers up — Django loaded, threads and database connections made — before measuring).
        base_answers: list = []
        asyncio.run(record_for(port, tables, args.every, args.seconds, base_answers))
        before = rss_kb(worker_pids(web.pid))
        child = multiprocessing.Process(target=spectators_main, args=(port, path, args.clients, there))
        started = time.monotonic()
        child.start()
        _, connected = here.recv()
        took = time.monotonic() - started
        time.sleep(2)
        after = rss_kb(worker_pids(web.pid))
        print(f"{connected} clients connected in {took:.1f} s; server RSS {before / 1024:.0f} MB → "
              f"{after / 1024:.0f} MB: {(after - before) / connected:.1f} kB per held connection")

        answers: list = []
        asyncio.run(record_for(port, tables, args.every, args.seconds, answers))
        time.sleep(3)
        here.send("stop-measuring")
        _, times = here.recv()

        # Everyone cut at once, the tables going on, everyone back with Last-Event-ID.
        cut_answers: list = []

        async def cut_phase():
            recording = asyncio.ensure_future(record_for(port, tables, args.every, 20, cut_answers))
            await asyncio.sleep(3)
            for pid in worker_pids(web.pid):
                os.kill(pid, signal.SIGKILL)
            await recording
        asyncio.run(cut_phase())
        for _ in range(60):
            here.send("connected")
            if here.recv()[1] >= args.clients:
                break
            time.sleep(1)
        time.sleep(4)
        here.send("finish")
        _, clients = here.recv()
        child.join(30)
    finally:
        web.terminate()
        celery.terminate()
        web.wait(40)
        celery.wait(40)

    import django
    django.setup()
    from scoring.models import TournamentEvent, TournamentFeed
    created = dict(TournamentEvent.objects.filter(tournament_id=tournament_id).values_list("version", "created_at"))
    final = TournamentFeed.objects.get(pk=tournament_id).version
    delays = [t - created[v].timestamp() for v, ts in times.items() if v in created for t in ts]
    per_deal = len(times)
    lat = [a for a, _ in answers]
    base = [a for a, _ in base_answers]
    bad = sum(1 for _, s in base_answers + answers + cut_answers if s != 201)
    print(f"{args.tables} tables, a deal each every {args.every} s, {args.seconds:.0f} s: {len(answers)} deals, "
          f"{per_deal} events seen, {len(delays)} deliveries")
    print(f"visibility after commit: p50 {pct(delays, 50) * 1000:.0f} ms, p95 {pct(delays, 95) * 1000:.0f} ms, "
          f"p99 {pct(delays, 99) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms; within 1 s "
          f"{sum(d <= 1 for d in delays) / len(delays):.1%}, within 2 s {sum(d <= 2 for d in delays) / len(delays):.1%}")
    print(f"scorers with the spectators: p50 {statistics.median(lat) * 1000:.0f} ms, p99 {pct(lat, 99) * 1000:.0f} ms; "
          f"without (the baseline, just before): p50 {statistics.median(base) * 1000:.0f} ms, "
          f"p99 {pct(base, 99) * 1000:.0f} ms; answers other than 201: {bad}")
    complete = sum(1 for first, last, dups, gaps, *_ in clients if last == final and dups == 0 and gaps == 0)
    print(f"after cutting every client (workers killed, {len(cut_answers)} deals meanwhile): final version {final}; "
          f"clients with every version from their first to {final} exactly once, in order: {complete}/{len(clients)}; "
          f"duplicates {sum(c[2] for c in clients)}, gaps {sum(c[3] for c in clients)}, "
          f"connections per client {statistics.mean(c[5] for c in clients):.2f}")
    print(f"(server log in {work})")


if __name__ == "__main__":
    main()
