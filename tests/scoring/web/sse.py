"""Driving the ASGI application in-process, as uvicorn would: one request, its answer read as it
comes (server-sent events parsed), and the client's disconnect."""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
from dataclasses import dataclass, field

from scoring.services.rounds import round_record

from ..bodies import JIE_LONG


@dataclass
class Event:
    id: int | None
    event: str | None
    data: str | None


def parse(buffer: str) -> tuple[list[Event], str]:
    """The complete events in ``buffer`` (comments and ``retry`` skipped; an ``id`` alone is an
    Event with no ``event``) and the unfinished rest."""
    out = []
    while "\n\n" in buffer:
        block, buffer = buffer.split("\n\n", 1)
        fields = {}
        for line in block.split("\n"):
            if line.startswith(":") or ":" not in line:
                continue
            name, value = line.split(":", 1)
            fields[name] = value[1:] if value.startswith(" ") else value
        if "id" in fields or "event" in fields or "data" in fields:
            out.append(Event(int(fields["id"]) if "id" in fields else None, fields.get("event"), fields.get("data")))
    return out, buffer


@dataclass
class Stream:
    status: int = 0
    headers: dict = field(default_factory=dict)
    body: bytes = b""
    ended: bool = False
    task: asyncio.Task | None = None
    _gone: asyncio.Event = field(default_factory=asyncio.Event)
    _more: asyncio.Event = field(default_factory=asyncio.Event)
    _events: list = field(default_factory=list)
    _rest: str = ""

    async def next(self, timeout: float = 5.0) -> Event:
        """The next event (id-only frames included); TimeoutError when none comes in time."""
        async with asyncio.timeout(timeout):
            while not self._events:
                if self.ended:
                    raise EOFError("the stream ended")
                self._more.clear()
                await self._more.wait()
        return self._events.pop(0)

    async def quiet(self, seconds: float = 0.5) -> list[Event]:
        """Whatever events come within ``seconds``."""
        await asyncio.sleep(seconds)
        out, self._events = self._events, []
        return out

    async def close(self) -> None:
        self._gone.set()
        if self.task is not None:
            await asyncio.wait_for(self.task, 5)


async def open_stream(app, path: str, headers: dict | None = None, *, method: str = "GET") -> Stream:
    """Start ``method path`` on ``app``; returns once the answer's head has come (or it ended)."""
    stream = Stream()
    started = asyncio.Event()
    sent_request = False

    async def receive():
        nonlocal sent_request
        if not sent_request:
            sent_request = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await stream._gone.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            stream.status = message["status"]
            stream.headers = {k.decode().lower(): v.decode() for k, v in message.get("headers", [])}
            started.set()
        elif message["type"] == "http.response.body":
            chunk = message.get("body", b"")
            stream.body += chunk
            events, stream._rest = parse(stream._rest + chunk.decode())
            stream._events += events
            if not message.get("more_body", False):
                stream.ended = True
            stream._more.set()

    path, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "headers": [(b"host", b"testserver"), *[(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]],
             "client": ("127.0.0.1", 50000), "server": ("testserver", 80)}

    async def run():
        try:
            await app(scope, receive, send)
        finally:
            stream.ended = True
            stream._more.set()
            started.set()

    stream.task = asyncio.get_running_loop().create_task(run())
    await asyncio.wait_for(started.wait(), 10)
    return stream


def in_a_thread_of_its_own(coro):
    """``asyncio.run(coro)`` in a thread of its own: the test process may already run an event
    loop in its main thread (Playwright's sync API keeps one while a browser test's browser is
    open), and ``asyncio.run`` refuses to start inside a running loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def run(coro):
    """The test's async part in a loop of its own (a hub of its own), its threads' database
    connections closed with it."""
    try:
        return in_a_thread_of_its_own(coro)
    finally:
        gc.collect()


def events_path(setup) -> str:
    return f"/api/v1/tournaments/{setup.tournament.pk}/events/"


async def record(setup, n: int = 1) -> None:
    """``n`` Jie Long deals at the setup's table, from a thread (as a scorer's request would)."""
    for _ in range(n):
        await asyncio.to_thread(round_record, actor=setup.scorer_actor, table=setup.table, body=JIE_LONG)
