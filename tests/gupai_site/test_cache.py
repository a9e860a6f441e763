"""gupai_site/cache.py's Redis cache: one client per process, whatever context a request runs in;
a Redis that restarted costs no request an error."""

from __future__ import annotations

import contextvars
import shutil
import time

import pytest
from django.core.cache import caches

from tests.integration.stack import RedisServer


def test_requests_in_fresh_contexts_share_one_redis_client(settings):
    """The ASGI router runs each request in a fresh copy of the event loop's context, where Django
    keeps a cache object per context: each request made its own pool and a connection to Redis."""
    settings.CACHES = {"default": {"BACKEND": "gupai_site.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}}

    def clients():   # what a request's code reaches, and the pool it would connect through
        cache = caches["default"]
        return cache, cache._cache, cache._cache._get_connection_pool(write=True), cache._cache.get_client(write=True)

    first, second = contextvars.Context().run(clients), contextvars.Context().run(clients)
    assert first[0] is not second[0]   # Django's per-context cache objects…
    # …share the process's client, its pool and its redis.Redis
    assert first[1] is second[1] and first[2] is second[2] and first[3] is second[3]


def test_another_location_has_its_own_client(settings):
    settings.CACHES = {"default": {"BACKEND": "gupai_site.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"},
                       "other": {"BACKEND": "gupai_site.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/1"}}
    assert caches["default"]._cache is not caches["other"]._cache


@pytest.fixture
def own_redis(settings):
    if not shutil.which("redis-server"):
        pytest.skip("needs redis-server")
    server = RedisServer()
    server.start()
    settings.CACHES = {"default": {"BACKEND": "gupai_site.cache.RedisCache", "LOCATION": server.url,
                                   "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
    try:
        yield server
    finally:
        server.stop()


def test_after_redis_restarts_the_pooled_connections_cost_no_error(own_redis):
    cache = caches["default"]
    pool = cache._cache._get_connection_pool(write=True)
    held = [pool.get_connection() for _ in range(3)]   # three connections in the pool, as threads leave them
    for connection in held:
        connection.connect()
        pool.release(connection)
    cache.set("k", 1, 60)
    own_redis.stop()
    own_redis.start()   # the same port, empty: every pooled connection is dead
    for i in range(5):   # each pooled connection in turn: retried once on a new one
        assert cache.add(f"after-{i}", 1, 60) is True
    assert cache.get("k") is None and cache.get("after-4") == 1


def test_while_redis_is_down_a_call_fails_at_once(own_redis):
    cache = caches["default"]
    cache.set("k", 1, 60)
    own_redis.stop()
    started = time.monotonic()
    with pytest.raises(Exception):   # noqa: B017 - whatever redis-py raises: the callers fail open
        cache.get("k")
    assert time.monotonic() - started < 1.0   # refused twice, no backoff between
