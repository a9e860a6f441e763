"""``GET /api/v1/tournaments/{id}/events/`` as a native ASGI handler (``gupai_site.asgi`` routes it
here): held connections cost a task and a queue each, never a worker thread.

Each server process has one ``Hub`` (per event loop): ONE Redis pub/sub connection
(pattern ``gupai:events:*``; without ``REDIS_URL``, the in-process listeners of
``services.events``) whose messages it fans out to the connections' queues, keyed by
tournament. A connection subscribes FIRST, then reads its backlog (``Last-Event-ID``) from the
database, then sends what the queue brings, dropping ids it has sent: nothing is lost between
the read and the subscription. An id beyond the next one (a publish lost, or two publishes
that crossed) sends the connection back to the database for the gap. A client whose queue
fills (too slow) is disconnected; it reconnects with ``Last-Event-ID``. When Redis goes away,
every stream is closed (the pages poll meanwhile, ``static/js/live.js``) and new ones answer
503 until the subscription is back.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import weakref
from collections import defaultdict
from functools import partial

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest

from scoring.services import events as feed
from scoring.web.client_address import behind_proxy, client_address, proxy_hops
from scoring.web.events import (
    Refused,
    backlog,
    first_bytes,
    frame,
    in_thread,
    not_found,
    parse_last_event_id,
    public_tournament,
    stream_tournament,
)

log = logging.getLogger(__name__)

#: A comment line this often keeps proxies and the browser from calling the stream dead.
HEARTBEAT = 15.0
#: Events a connection may have waiting; past that it is too slow and is disconnected.
QUEUE_SIZE = 200
#: How long a new stream waits for the hub's subscription before answering 503.
READY_WAIT = 3.0
#: Backlog reads asked within this window share one query (a reconnecting crowd).
GATHER = 0.01
#: Streams sent an event in one turn of the loop (see ``Hub._fan_out``).
FAN_OUT_BATCH = 250
#: The heartbeat's place in a queue: a comment line.
PING = (0, b": ping\n\n")


class Subscriber:
    __slots__ = ("tournament", "queue", "__weakref__")

    def __init__(self, tournament: int) -> None:
        self.tournament = tournament
        self.queue: asyncio.Queue = asyncio.Queue(QUEUE_SIZE)


class Hub:
    """The process's one subscription, fanned out to its connections (see the module)."""

    def __init__(self, redis_url: str) -> None:
        self.loop = asyncio.get_running_loop()
        self.redis_url = redis_url
        self.subscribers: dict[int, set[Subscriber]] = defaultdict(set)
        self.ready = asyncio.Event()
        #: Refuse new streams (503), as while Redis is away: how the browser test cuts the stream.
        self.cut = False
        self._task: asyncio.Task | None = None
        self._beat: asyncio.TimerHandle | None = None
        self._gathering: dict[tuple, asyncio.Future] = {}

    # -- the subscription ------------------------------------------------------------------

    def start(self) -> None:
        if self._task is not None:
            return
        # One timer for every stream's heartbeat (a timer per stream and wake-up would cost more
        # than the events themselves with thousands of streams).
        self._beat = self.loop.call_later(HEARTBEAT, self._heartbeat)
        if self.redis_url:
            self._task = self.loop.create_task(self._follow_redis())
        else:
            self._task = self.loop.create_future()   # nothing to run: listeners are called
            feed.listen(self._from_thread)
            self.ready.set()

    def _heartbeat(self) -> None:
        for subs in list(self.subscribers.values()):
            for sub in list(subs):
                if sub.queue.empty():
                    sub.queue.put_nowait(PING)
        self._beat = self.loop.call_later(HEARTBEAT, self._heartbeat)

    def stop(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None
        if self._task is not None:
            self._task.cancel()
            self._task = None
        feed.unlisten(self._from_thread)
        self.ready.clear()
        self.close_all()

    def _from_thread(self, tournament: int, message: str) -> None:
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.deliver, tournament, message)

    async def _follow_redis(self) -> None:
        import redis.asyncio as aioredis

        wait = 0.5
        while True:
            client = aioredis.Redis.from_url(self.redis_url, socket_connect_timeout=2, health_check_interval=HEARTBEAT,
                                             socket_keepalive=True)
            pubsub = client.pubsub()
            try:
                await pubsub.psubscribe(f"{feed.CHANNEL_PREFIX}*")
                async for message in pubsub.listen():
                    kind = message.get("type")
                    if kind == "psubscribe":
                        self.ready.set()
                        wait = 0.5
                    elif kind == "pmessage":
                        channel = message["channel"]
                        channel = channel.decode() if isinstance(channel, bytes) else channel
                        self.deliver(int(channel.rsplit(":", 1)[1]), message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("events: Redis subscription lost (%s); streams closed, retrying in %.1f s", e, wait)
            finally:
                # Whatever was published meanwhile is in the database: the clients reconnect with
                # Last-Event-ID and read it from there.
                self.ready.clear()
                self.close_all()
                try:
                    await pubsub.aclose()
                    await client.aclose()
                except Exception:
                    pass
            await asyncio.sleep(wait)
            wait = min(wait * 2, 10.0)

    # -- fan-out ---------------------------------------------------------------------------

    def deliver(self, tournament: int, message: str | bytes) -> None:
        """A published event: parsed and framed once, queued for each of the tournament's streams."""
        subs = self.subscribers.get(tournament)
        if not subs:
            return
        m = json.loads(message)
        item = (m["id"], frame(m["id"], m["event"], m["data"]))
        self._fan_out(list(subs), item, 0)

    def _fan_out(self, subs: list[Subscriber], item: tuple, start: int) -> None:
        """Queue ``item`` for ``FAN_OUT_BATCH`` streams, the next batch in the loop's next turn:
        what else is waiting — above all a scorer's answer, whose own deal set this fan-out off —
        goes between two batches rather than after thousands of streams' writes. Each stream still
        gets its events in order (an earlier event's batches stay a turn ahead of a later one's)."""
        end = start + FAN_OUT_BATCH
        for sub in subs[start:end]:
            try:
                sub.queue.put_nowait(item)
            except asyncio.QueueFull:
                self.drop(sub)
        if end < len(subs):
            self.loop.call_soon(self._fan_out, subs, item, end)

    def subscribe(self, tournament: int) -> Subscriber:
        self.start()
        sub = Subscriber(tournament)
        self.subscribers[tournament].add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        subs = self.subscribers.get(sub.tournament)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.subscribers[sub.tournament]

    def drop(self, sub: Subscriber) -> None:
        """End a stream: its queue emptied, then None (the handler's signal to finish)."""
        self.unsubscribe(sub)
        while not sub.queue.empty():
            sub.queue.get_nowait()
        sub.queue.put_nowait(None)

    def close_all(self) -> None:
        for subs in list(self.subscribers.values()):
            for sub in list(subs):
                self.drop(sub)

    @property
    def connections(self) -> int:
        return sum(len(s) for s in self.subscribers.values())

    # -- reads shared by the connections that ask together ---------------------------------

    async def gathered(self, key: tuple, fn, *args):
        """``fn(*args)`` in a thread, shared with every caller asking the same ``key`` before the
        read starts (``GATHER``): a read that started earlier is never shared, so each caller's
        answer is read after its subscription."""
        future = self._gathering.get(key)
        if future is None:
            future = self.loop.create_future()
            self._gathering[key] = future
            self.loop.call_later(GATHER, self._run_gathered, key, future, fn, args)
        return await asyncio.shield(future)

    def _run_gathered(self, key, future, fn, args) -> None:
        self._gathering.pop(key, None)
        task = self.loop.run_in_executor(None, partial(in_thread, fn, *args))

        def done(t):
            if future.cancelled():
                return
            if t.exception() is not None:
                future.set_exception(t.exception())
            else:
                future.set_result(t.result())
        task.add_done_callback(done)


_hubs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def get_hub() -> Hub:
    """The running loop's hub (one per process in production; the tests run several loops)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = Hub(settings.REDIS_URL)
    return hub


# ---------------------------------------------------------------------------------------------
# The handler

def _headers(scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _request(scope):
    request = ASGIRequest(scope, io.BytesIO())
    if behind_proxy():
        address = client_address(request.META.get("HTTP_X_FORWARDED_FOR"), request.META.get("REMOTE_ADDR"),
                                 proxy_hops())
        if address:
            request.META["REMOTE_ADDR"] = address
    return request


def _anonymous(headers: dict[str, str]) -> bool:
    return "authorization" not in headers and f"{settings.SESSION_COOKIE_NAME}=" not in headers.get("cookie", "")


async def _answer(send, status: int, body: dict, headers: dict | None = None) -> None:
    raw = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()),
                            (b"cache-control", b"no-store"),
                            *[(k.lower().encode(), str(v).encode()) for k, v in (headers or {}).items()]]})
    await send({"type": "http.response.body", "body": raw})


def _unavailable() -> Refused:
    message = "The live stream is not available now: poll the page's live address, and try again."
    return Refused(503, {"errors": [{"path": "", "code": "events_unavailable", "message": message}],
                         "detail": message}, {"Retry-After": "5"})


async def tournament_events(scope, receive, send, tournament_id: int) -> None:
    """The stream (see the module and ``scoring.web.events``)."""
    if scope["method"] != "GET":
        await _answer(send, 405, {"errors": [{"path": "", "code": "method_not_allowed",
                                              "message": f'Method "{scope["method"]}" not allowed.'}]},
                      {"Allow": "GET"})
        return
    hub = get_hub()
    headers = _headers(scope)
    try:
        if _anonymous(headers):
            if not await hub.gathered(("public", tournament_id), public_tournament, tournament_id):
                raise not_found()
        else:
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, partial(in_thread, stream_tournament, _request(scope), tournament_id))
        if hub.cut:
            raise _unavailable()
        sub = hub.subscribe(tournament_id)
    except Refused as r:
        await _answer(send, r.status, r.body, r.headers)
        return
    try:
        try:
            await asyncio.wait_for(hub.ready.wait(), READY_WAIT)
        except asyncio.TimeoutError:
            r = _unavailable()
            await _answer(send, r.status, r.body, r.headers)
            return
        await _stream(hub, sub, receive, send, tournament_id, parse_last_event_id(headers.get("last-event-id")))
    finally:
        hub.unsubscribe(sub)


async def _stream(hub: Hub, sub: Subscriber, receive, send, tournament_id: int, after: int | None) -> None:
    version, frames = await hub.gathered(("backlog", tournament_id, after), backlog, tournament_id, after)
    await send({"type": "http.response.start", "status": 200, "headers": [
        (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
        (b"x-accel-buffering", b"no"), (b"x-content-type-options", b"nosniff")]})
    last_sent, body = first_bytes(version, frames, new_client=after is None)
    await send({"type": "http.response.body", "more_body": True, "body": body})

    async def watch_disconnect() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        hub.drop(sub)

    watcher = asyncio.get_running_loop().create_task(watch_disconnect())
    try:
        while True:
            item = await sub.queue.get()
            out = []
            while item is not None:
                event_id, data = item
                if item is PING:
                    out.append(data)
                elif event_id == last_sent + 1:
                    out.append(data)
                    last_sent = event_id
                elif event_id > last_sent:
                    # A gap: the missing events (and this one) are committed; read them once.
                    _version, missed = await hub.gathered(("backlog", tournament_id, last_sent), backlog,
                                                          tournament_id, last_sent)
                    for missed_id, missed_frame in missed:
                        if missed_id > last_sent:
                            out.append(missed_frame)
                            last_sent = missed_id
                if sub.queue.empty():
                    break
                item = sub.queue.get_nowait()
            if out:
                await send({"type": "http.response.body", "body": b"".join(out), "more_body": True})
            if item is None:
                break
    finally:
        watcher.cancel()
    try:
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    except Exception:  # the client is gone already
        pass


def stop_hubs() -> None:
    """End every stream and subscription of this process (the server is shutting down)."""
    for hub in list(_hubs.values()):
        hub.stop()
