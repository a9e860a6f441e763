"""The database aliases' settings beyond one process (gupai_site/operations.py): PgBouncer in
transaction mode in front of the primary."""

from __future__ import annotations

import dj_database_url

from gupai_site.operations import postgresql_options, replica_databases


def aliases() -> dict:
    return {"default": dj_database_url.parse("postgres://gupai@127.0.0.1:6432/gupai"),
            **replica_databases("postgres://gupai@127.0.0.1:5433/gupai", testing=False)}


def test_through_pgbouncer_no_server_side_cursors_nor_prepared_statements():
    databases = aliases()
    postgresql_options(databases, statement_timeout=10, lock_timeout=3, pooler="pgbouncer")
    default = databases["default"]
    # A transaction may meet another server connection each time: a cursor or a prepared
    # statement left on the last one would be missing (or another client's).
    assert default["DISABLE_SERVER_SIDE_CURSORS"] is True
    assert default["OPTIONS"]["prepare_threshold"] is None
    assert "options" not in default["OPTIONS"]   # PgBouncer refuses the startup parameter
    # The replica is reached directly: its own timeouts, as before (and no server-side cursors:
    # a named cursor would take no row scope before its statement, gupai_site/row_security.py).
    assert "server_side_binding" not in default["OPTIONS"]   # the client-side cursor, values quoted in
    replica = databases["replica"]
    assert replica["OPTIONS"]["server_side_binding"] is True
    assert replica["OPTIONS"]["options"] == "-c statement_timeout=10000 -c lock_timeout=3000"


def test_without_a_pooler_postgresql_is_reached_directly_with_prepared_statements():
    databases = aliases()
    postgresql_options(databases, statement_timeout=10, lock_timeout=3, pooler="")
    for alias in databases.values():
        # Values bound by the server and a statement prepared at its fifth run (Django's default
        # threshold is None: never), so PostgreSQL plans it once a connection.
        assert alias["OPTIONS"]["server_side_binding"] is True
        assert alias["OPTIONS"]["prepare_threshold"] == 5
    assert databases["default"]["OPTIONS"]["options"] == "-c statement_timeout=10000 -c lock_timeout=3000"
