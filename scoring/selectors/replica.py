"""Which database a read goes to: the public pages' reads to the streaming replica, chosen
explicitly, everything else to the primary.

A read goes to the replica only inside ``reading(replica=True)``, which the public pages (a
tournament's standings and tables, a table, a player, a club's ratings, a season) put around
their selectors, and only when a ``replica`` alias is configured (``DATABASE_REPLICA_URL``).
Nothing is sent there by guessing from the SQL: a read-after-write through a generic
read/write split would read a replica that has not replayed the write yet. Directors' and
scorers' pages never ask for it, so they read their own writes from the primary; a block
opened inside a transaction on the primary stays there too (its reads may depend on what the
transaction wrote), and so do the login and session tables (a director who has just logged in
is known at once). Every write goes to the primary, also of a row read from the replica.

``ReplicaRouter`` is the database router that does it (``DATABASE_ROUTERS``); ``public_db()``
names the alias for an explicit ``.using()``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

REPLICA = "replica"
#: Only the scoring app's rows are read from the replica (not sessions, users or tokens' owners).
REPLICATED_APPS = ("scoring",)

_on_replica: ContextVar[bool] = ContextVar("gupai_on_replica", default=False)


def public_db() -> str:
    """The alias the public pages read: ``replica`` when one is configured, else ``default``."""
    return REPLICA if REPLICA in settings.DATABASES else DEFAULT_DB_ALIAS


@contextmanager
def reading(*, replica: bool) -> Iterator[str]:
    """Reads inside go to the replica when ``replica`` (and one is configured, and the primary is
    not inside a transaction), else to the primary. Yields the alias chosen."""
    chosen = replica and public_db() == REPLICA and not connections[DEFAULT_DB_ALIAS].in_atomic_block
    token = _on_replica.set(chosen)
    try:
        yield REPLICA if chosen else DEFAULT_DB_ALIAS
    finally:
        _on_replica.reset(token)


class ReplicaRouter:
    """Reads inside ``reading(replica=True)`` to the replica; every write to the primary."""

    def db_for_read(self, model, **hints) -> str | None:
        if _on_replica.get() and model._meta.app_label in REPLICATED_APPS:
            return REPLICA
        instance = hints.get("instance")
        if instance is not None and instance._state.db == REPLICA and not _on_replica.get():
            # A row read on the replica, its relations read later (a template): the primary.
            return DEFAULT_DB_ALIAS
        return None

    def db_for_write(self, model, **hints) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints) -> bool | None:
        both = {obj1._state.db, obj2._state.db}
        return True if both <= {DEFAULT_DB_ALIAS, REPLICA} else None

    def allow_migrate(self, db, app_label, **hints) -> bool | None:
        return False if db == REPLICA else None


def on_replica(function):
    """``function`` (a public page's view) with all its reads inside ``reading(replica=True)``."""

    @wraps(function)
    def wrapped(*args, **kwargs):
        with reading(replica=True):
            return function(*args, **kwargs)

    return wrapped
