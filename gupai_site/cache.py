"""The site's cache backends.

- ``DatabaseCache``: the cache kept in the database, for a site served by several processes
  without Redis (``make club`` on a laptop: gunicorn's workers). Each process's own memory would
  count every guessing limit once per process — 39 wrong passwords were checked against an
  allowance of 10 with four workers; a table all of them read counts once.
- ``RedisCache``: Django's, with one client (its connection pool) per process, which tries a
  dropped connection once more on a new one.
"""

from __future__ import annotations

import threading
from functools import cached_property

from django.core.cache.backends import db
from django.core.cache.backends import redis as redis_backend
from django.db import connections, router, transaction

#: Keys kept before the table is culled: more than a club night makes (a culled count would start
#: a guesser over), where Django's default is 300.
MAX_ENTRIES = 100_000


class DatabaseCache(db.DatabaseCache):
    """Django's database cache, whose ``incr`` (a read, then a write) counts every increment even
    when processes increment together: the read and the write are one transaction, holding the
    row (PostgreSQL: ``FOR UPDATE``) or the database's write lock (SQLite: the settings' ``BEGIN
    IMMEDIATE``) — else two guesses at once would count one."""

    def __init__(self, table, params):
        super().__init__(table, {**params, "OPTIONS": {"MAX_ENTRIES": MAX_ENTRIES, **params.get("OPTIONS", {})}})

    def incr(self, key, delta=1, version=None):
        alias = router.db_for_write(self.cache_model_class)
        connection = connections[alias]
        with transaction.atomic(using=alias):
            if connection.features.has_select_for_update:
                table = connection.ops.quote_name(self._table)
                with connection.cursor() as cursor:
                    cursor.execute(f"SELECT cache_key FROM {table} WHERE cache_key = %s FOR UPDATE",  # noqa: S608
                                   [self.make_and_validate_key(key, version=version)])
            return super().incr(key, delta, version)


class _SharedClient(redis_backend.RedisCacheClient):
    """Django's Redis cache client with one ``redis.Redis`` per pool (Django makes a new one
    for every operation: some 170 response callbacks set up each time), and whose connections
    try a command once more, on a new connection, when theirs was dropped: after Redis restarts,
    every pooled connection is dead, and each would otherwise fail one request. While Redis is
    down the second try is refused as fast as the first (no backoff)."""

    def __init__(self, servers, **options):
        from redis.backoff import NoBackoff
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.retry import Retry

        options.setdefault("retry", Retry(NoBackoff(), 1))
        options.setdefault("retry_on_error", [RedisConnectionError])
        super().__init__(servers, **options)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


_clients: dict[tuple, _SharedClient] = {}
_clients_lock = threading.Lock()


class RedisCache(redis_backend.RedisCache):
    """Django's Redis cache whose client — and so its connection pool — is shared by the whole
    process. Django keeps a cache object per context (asgiref's ``Local``), and under the ASGI
    router (``gupai_site.asgi``) every request runs in a fresh copy of the event loop's context:
    each request made a new pool and a new connection to Redis (a TCP connect and a handshake on
    every deal, the old pool left to the garbage collector). redis-py's pools are thread-safe
    and start afresh in a forked child."""

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = _SharedClient(self._servers, **self._options)
        return client
