"""The events stream's hub on a real Redis (REDIS_URL): an event recorded in one place comes to a
stream through Redis pub/sub; when Redis dies the streams end and new ones answer 503 (the pages
poll meanwhile), the deals go on and are stored, and once Redis is back a reconnection with
``Last-Event-ID`` gets every event it missed."""

from __future__ import annotations

import asyncio
import os
import shutil

import pytest

from gupai_site.asgi import application
from scoring.services import events as feed

from ..scoring.web.sse import events_path, open_stream, record, run
from .stack import RedisServer

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it; see docs/install.md, Services)"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def _fresh_publisher(monkeypatch):
    monkeypatch.setattr(feed.REDIS, "until", 0.0)


def test_events_come_through_redis(jie_long, settings):
    settings.REDIS_URL = os.environ["REDIS_URL"]
    heard = []
    feed.listen(lambda t, m: heard.append(m))     # the in-process path must stay silent

    async def scenario():
        stream = await open_stream(application, events_path(jie_long), {"Last-Event-ID": "0"})
        assert stream.status == 200
        await record(jie_long)
        await record(jie_long)
        got = [await stream.next(), await stream.next()]
        assert await stream.quiet(0.3) == []
        await stream.close()
        return [(e.id, e.event) for e in got]

    try:
        assert run(scenario()) == [(1, "deal_recorded"), (2, "deal_recorded")]
    finally:
        feed._listeners.clear()
    assert heard == []


@pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server (Debian's redis-server)")
def test_redis_down_then_back_loses_nothing(jie_long, settings):
    redis = RedisServer()
    redis.start()
    settings.REDIS_URL = redis.url

    async def scenario():
        stream = await open_stream(application, events_path(jie_long), {"Last-Event-ID": "0"})
        await record(jie_long)
        assert (await stream.next()).id == 1
        redis.stop()
        await asyncio.wait_for(stream.task, 10)         # the stream ends: the page polls meanwhile
        await record(jie_long)                          # recorded and stored, published to nobody
        refused = await open_stream(application, events_path(jie_long), {"Last-Event-ID": "1"})
        assert refused.status == 503 and refused.headers["retry-after"] == "5"
        redis.start()                                   # same port: the hub subscribes again
        for _ in range(100):
            again = await open_stream(application, events_path(jie_long), {"Last-Event-ID": "1"})
            if again.status == 200:
                break
            await asyncio.sleep(0.2)
        assert (await again.next()).id == 2            # the missed one, from the store
        feed.REDIS.wake()                               # (its rest after the failure, not waited for)
        await record(jie_long)
        assert (await again.next()).id == 3            # and live again
        await again.close()

    try:
        run(scenario())
    finally:
        redis.stop()
