"""PostgreSQL's statement_timeout (gupai_site/settings.py, gupai_site/celery.py): a web request's
connection stops a statement after DB_STATEMENT_TIMEOUT, a Celery worker's after the longer
DB_TASK_STATEMENT_TIMEOUT, so a runaway statement is cancelled by the database rather than left
running after the web server gave up on its request."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import OperationalError, connection, connections

from gupai_site.celery import _worker_statement_timeout
from gupai_site.dbtimeout import with_statement_timeout

POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
needs_postgres = pytest.mark.skipif(not POSTGRES, reason="statement_timeout is PostgreSQL's (SQLite has none)")


def test_the_timeout_is_written_into_the_connection_options():
    assert with_statement_timeout("", 10) == "-c statement_timeout=10000"
    assert with_statement_timeout("-c search_path=x -c statement_timeout=5", 300) == (
        "-c search_path=x -c statement_timeout=300000")
    assert with_statement_timeout("-c statement_timeout=5", 0) == ""


def show(conn) -> str:
    with conn.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        return cursor.fetchone()[0]


@needs_postgres
@pytest.mark.django_db
def test_a_web_connection_stops_a_statement_after_ten_seconds(client):
    assert settings.DB_STATEMENT_TIMEOUT == 10
    client.get("/")   # a request's connection is the one the test holds
    assert show(connection) == "10s"


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_worker_connection_takes_the_longer_task_timeout():
    options = connection.settings_dict["OPTIONS"]
    web = options["options"]
    try:
        _worker_statement_timeout()   # on `celery worker`'s worker_init, as it starts
        assert show(connection) == "5min"
        assert show(connections.create_connection("default")) == "5min"
    finally:
        options["options"] = web
        connections.close_all()
    assert show(connection) == "10s"


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_statement_past_the_timeout_is_cancelled():
    quick = connections.create_connection("default")
    quick.settings_dict = {**quick.settings_dict,
                           "OPTIONS": {**quick.settings_dict["OPTIONS"], "options": with_statement_timeout("", 0.2)}}
    try:
        with pytest.raises(OperationalError, match="statement timeout"):
            with quick.cursor() as cursor:
                cursor.execute("SELECT pg_sleep(2)")
    finally:
        quick.close()
