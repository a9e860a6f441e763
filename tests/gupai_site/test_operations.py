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
    replica = databases["replica"]
    assert "prepare_threshold" not in replica["OPTIONS"]
    assert replica["OPTIONS"]["options"] == "-c statement_timeout=10000 -c lock_timeout=3000"


def test_without_a_pooler_postgresql_is_reached_as_before():
    databases = aliases()
    postgresql_options(databases, statement_timeout=10, lock_timeout=3, pooler="")
    assert "prepare_threshold" not in databases["default"]["OPTIONS"]
    assert databases["default"]["OPTIONS"]["options"] == "-c statement_timeout=10000 -c lock_timeout=3000"
