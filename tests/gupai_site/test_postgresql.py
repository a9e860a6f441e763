"""gupai_site/postgresql: a persistent connection's health check, with no round trip while sound."""

from __future__ import annotations

import select
import time

import psycopg
import pytest
from django.conf import settings
from django.db import connections

POSTGRES = settings.DATABASES["default"]["ENGINE"].endswith("postgresql")
pytestmark = [pytest.mark.skipif(not POSTGRES, reason="PostgreSQL's backend: needs a PostgreSQL DATABASE_URL"),
              pytest.mark.django_db(transaction=True)]


def _other_connection():
    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.connect(**params, autocommit=True)


def test_the_site_uses_it():
    assert settings.DATABASES["default"]["ENGINE"] == "gupai_site.postgresql"


def test_a_sound_connection_is_usable_without_a_statement():
    conn = connections["default"]
    conn.ensure_connection()
    with conn.connection.cursor() as cursor:
        cursor.execute("SELECT 'the last statement'")
    pid = conn.connection.info.backend_pid
    assert conn.is_usable() is True
    with _other_connection() as other:   # the server saw no SELECT 1 after ours
        last = other.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()[0]
    assert last == "SELECT 'the last statement'"


def test_a_connection_the_server_closed_is_not_usable():
    """As after a restart: Django then replaces it before the request uses it."""
    conn = connections["default"]
    conn.ensure_connection()
    pid = conn.connection.info.backend_pid
    with _other_connection() as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5   # the server's notice reaches the socket
    while not select.select([conn.connection.fileno()], [], [], 0.05)[0] and time.monotonic() < deadline:
        pass
    assert conn.is_usable() is False
    conn.close_if_unusable_or_obsolete()
    conn.health_check_done = False
    with conn.cursor() as cursor:   # a fresh connection
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
