"""The request's (or task's) scope carried into every PostgreSQL transaction, for the tables'
row-level security (migration ``scoring/0033_row_security``; the scope: ``scoring.domain.row_scope``).

Each statement that reads or writes a ``scoring_`` table goes with ``SELECT set_config(…, true)``
before it, in the same round trip (one query string: the two run in one transaction, even in
autocommit, where the pair is an implicit transaction). ``true``: local to the transaction, so
a connection PgBouncer hands to another client keeps nothing. Inside a transaction of a
connection the site's backend tracks (``gupai_site.postgresql``: ``track``), a statement whose
scope was already set in that transaction goes alone: the backend forgets the setting at every
commit, rollback, savepoint rolled back (which takes a setting made inside it away) and change
of autocommit; a scope that changed (a request's widens as it goes: a scorer link found, a
director's token checked) is set again. Other connections (psycopg's own) carry it every time.
The statement's own results are then the cursor's (``nextset``): the ORM sees nothing else, and
no query is added to a page's count. Reached directly (not through PgBouncer), the site binds
values server-side (``ScopedServerCursor``): the setting and the statement go in one pipeline
instead (still one round trip and one transaction), the statements after it alone, and each is
prepared once run often.

It is done by the connection's cursor class, below every execute wrapper and Django's query
log (they see the statement as written). Superusers (CI connects as ``postgres``) bypass the
policies: the settings change nothing for them.
"""

from __future__ import annotations

import re
import time

from django.db.backends.postgresql.base import Cursor, ServerBindingCursor
from django.db.backends.signals import connection_created
from psycopg import errors
from psycopg.pq import TransactionStatus

from scoring.domain import row_scope

#: Statements that read or write rows (not DDL: ``CREATE INDEX CONCURRENTLY`` and the like may
#: not run in a transaction block; nor the test runner's ``CREATE DATABASE``).
_ROWS = re.compile(r"\s*\(?\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b", re.IGNORECASE)


def _touches_rows(query) -> bool:
    return isinstance(query, str) and "scoring_" in query and _ROWS.match(query) is not None


#: The attribute of a tracked psycopg connection naming the scope set in its open transaction.
SET_IN_TRANSACTION = "gupai_scope_set"


def track(connection) -> None:
    """``connection`` (psycopg's) remembers the scope set in its transaction, which its owner
    then ``forget``s whenever that transaction ends or a savepoint is rolled back."""
    setattr(connection, SET_IN_TRANSACTION, None)


def forget(connection) -> None:
    if connection is not None and hasattr(connection, SET_IN_TRANSACTION):
        setattr(connection, SET_IN_TRANSACTION, None)


class _Scoped:
    """Each row statement run within the current scope (below: with client-side or server-side
    binding)."""

    def execute(self, query, params=None, **kwargs):
        if not _touches_rows(query):
            return super().execute(query, params, **kwargs)
        conn = self.connection
        scope = row_scope.current().sql()
        tracked = hasattr(conn, SET_IN_TRANSACTION)
        if tracked and getattr(conn, SET_IN_TRANSACTION) == scope \
                and conn.info.transaction_status == TransactionStatus.INTRANS:
            return super().execute(query, params, **kwargs)   # set already in this transaction
        self._with_scope(scope, query, params, **kwargs)
        if tracked:   # in autocommit the statement was its own transaction: nothing stays set
            setattr(conn, SET_IN_TRANSACTION, None if conn.autocommit else scope)
        return self

    def _with_scope(self, scope, query, params, **kwargs) -> None:
        """One round trip: the setting, then the statement, in one query string (simple protocol:
        one implicit transaction in autocommit); the results are the statement's."""
        setting = scope + "; "
        super().execute(setting + query, params, **kwargs)
        self.nextset()
        try:   # the query log names the statement as written
            self._query.query = self._query.query[len(setting.encode()):]
        except (AttributeError, TypeError):
            pass

    def executemany(self, query, params_seq, **kwargs):
        # One statement a time there: the setting first, inside a transaction (opened if none).
        if not _touches_rows(query):
            return super().executemany(query, params_seq, **kwargs)
        if self.connection.autocommit:
            with self.connection.transaction():
                self.connection.execute(row_scope.current().sql())
                return super().executemany(query, params_seq, **kwargs)
        self.connection.execute(row_scope.current().sql())
        return super().executemany(query, params_seq, **kwargs)


class ScopedCursor(_Scoped, Cursor):
    """Django's client-side-binding cursor (the values quoted into the statement's text)."""


class ScopedServerCursor(_Scoped, ServerBindingCursor):
    """Django's server-side-binding cursor (``OPTIONS["server_side_binding"]``): a statement goes
    with its values apart, so its text is the same at every call and psycopg prepares it after
    five (``prepare_threshold``): PostgreSQL plans it once a connection instead of at every call,
    which was most of the database's time a deal (the lock's join: 0.48 ms planned and run,
    0.14 ms prepared). A statement that needs the scope set goes in one pipeline with the setting:
    one round trip, and one implicit transaction in autocommit (the extended protocol's, up to
    the pipeline's sync), so the statement is prepared too."""

    def _with_scope(self, scope, query, params, **kwargs) -> None:
        conn = self.connection
        with conn.pipeline():
            conn.cursor().execute(scope)   # touches no row: goes as it is
            super(_Scoped, self).execute(query, params, **kwargs)   # the statement, below the scope


def install(sender, connection, **kwargs) -> None:
    """Every PostgreSQL connection of the site makes its cursors scoped ones: ``ScopedServerCursor``
    where its options bind values server-side (reached directly), else ``ScopedCursor``."""
    if connection.vendor == "postgresql" and connection.connection is not None:
        server_side = connection.settings_dict.get("OPTIONS", {}).get("server_side_binding")
        connection.connection.cursor_factory = ScopedServerCursor if server_side else ScopedCursor


def connect() -> None:
    connection_created.connect(install, dispatch_uid="gupai_site.row_security")



#: A role name PostgreSQL takes unquoted.
ROLE_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def site_role_statements(name: str, password: str, database: str):
    """The statements that make (or bring up to date) the site's login role: no superuser, no
    ``BYPASSRLS``, owner of nothing; it reads and writes the site's tables, today's and those
    the migrating role makes later. Each is psycopg's ``sql`` (names and password quoted)."""
    from psycopg import sql

    if not ROLE_NAME.fullmatch(name):
        raise ValueError(f"A role name is lower-case letters, digits and _ (not {name!r}).")
    role, db = sql.Identifier(name), sql.Identifier(database)
    exists = sql.SQL("SELECT 1 FROM pg_roles WHERE rolname = {}").format(sql.Literal(name))
    attributes = sql.SQL("LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD {}").format(
        sql.Literal(password))
    return exists, [
        sql.SQL("ALTER ROLE {} ").format(role) + attributes,
        sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(db, role),
        sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(role),
        sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {}").format(role),
        sql.SQL("GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {}").format(role),
        sql.SQL("ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {}")
        .format(role),
        sql.SQL("ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO {}").format(role),
    ], sql.SQL("CREATE ROLE {} ").format(role) + attributes


def site_role_create(connection, name: str, password: str) -> bool:
    """Make the site's role (or update it) through ``connection`` (a Django one, connected as the
    tables' owner or a superuser). True when it was made anew."""
    exists, grants, create = site_role_statements(name, password, connection.settings_dict["NAME"])
    connection.ensure_connection()
    raw = connection.connection
    made = raw.execute(exists).fetchone() is None
    if made:
        raw.execute(create)
    for statement in grants:
        _again_if_concurrent(raw, statement)
    return made


def _again_if_concurrent(raw, statement, tries: int = 5) -> None:
    """A role is the whole cluster's: two processes bringing it up to date at once (two nodes
    started together; the tests' workers, each in its own database) may collide on its catalogue
    row ("tuple concurrently updated"). The statement is simply run again."""
    for attempt in range(tries):
        try:
            raw.execute(statement)
            return
        except errors.InternalError_:
            if attempt == tries - 1 or not raw.autocommit:
                raise
            time.sleep(0.05 * (attempt + 1))
