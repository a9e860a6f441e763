"""The cache kept in the database, for a site served by several processes without Redis (``make
club`` on a laptop: gunicorn's workers). Each process's own memory would count every guessing
limit once per process — 39 wrong passwords were checked against an allowance of 10 with four
workers; a table all of them read counts once."""

from __future__ import annotations

from django.core.cache.backends import db
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
