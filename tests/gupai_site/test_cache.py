"""gupai_site/cache.py's Redis cache: one client per process, whatever context a request runs in."""

from __future__ import annotations

import contextvars

from django.core.cache import caches


def test_requests_in_fresh_contexts_share_one_redis_client(settings):
    """The ASGI router runs each request in a fresh copy of the event loop's context, where Django
    keeps a cache object per context: each request made its own pool and a connection to Redis."""
    settings.CACHES = {"default": {"BACKEND": "gupai_site.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}}

    def clients():   # what a request's code reaches, and the pool it would connect through
        client = caches["default"]._cache
        return caches["default"], client, client._get_connection_pool(write=True)

    first, second = contextvars.Context().run(clients), contextvars.Context().run(clients)
    assert first[0] is not second[0]   # Django's per-context cache objects…
    assert first[1] is second[1] and first[2] is second[2]   # …share the process's client and pool


def test_another_location_has_its_own_client(settings):
    settings.CACHES = {"default": {"BACKEND": "gupai_site.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"},
                       "other": {"BACKEND": "gupai_site.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/1"}}
    assert caches["default"]._cache is not caches["other"]._cache
