"""A lock that stayed taken (PostgreSQL's ``lock_timeout``, SQLSTATE 55P03; SQLite's "database is
locked") answers 503 ``busy`` with a short Retry-After, not "database unavailable"
(scoring/web/unavailable.py, scoring/api/errors.py). The real wait, on PostgreSQL: a club row
locked by another connection while a director renames the tournament."""

from __future__ import annotations

import threading

import pytest
from django.conf import settings
from django.db import OperationalError, connection, connections, transaction

from scoring.models import Tournament
from scoring.web.unavailable import BUSY_RETRY_AFTER, RETRY_AFTER, is_busy

from .test_unavailable import REFUSED, database_down

pytestmark = pytest.mark.django_db


class LockNotAvailable(Exception):
    sqlstate = "55P03"


def lock_timed_out() -> OperationalError:
    error = OperationalError("canceling statement due to lock timeout")
    error.__cause__ = LockNotAvailable()
    return error


def assert_busy(response):
    assert response.status_code == 503, response.content
    assert response["Retry-After"] == str(BUSY_RETRY_AFTER) and BUSY_RETRY_AFTER < RETRY_AFTER
    body = response.json()
    assert [(e["path"], e["code"]) for e in body["errors"]] == [("", "busy")]
    assert "Try again" in body["detail"] and "database" not in body["detail"].lower()


def test_a_lock_timeout_or_a_locked_sqlite_is_busy_and_an_outage_is_not():
    assert is_busy(lock_timed_out()) and is_busy(OperationalError("database is locked"))
    assert not is_busy(REFUSED) and not is_busy(ValueError("database is locked"))


def test_the_api_and_the_pages_say_busy(monkeypatch, director_client, client, director):
    with database_down(monkeypatch, lock_timed_out()):
        assert_busy(director_client.get("/api/v1/clubs/"))
    client.force_login(director)
    with database_down(monkeypatch, lock_timed_out()):
        page = client.get("/director/")
    assert page.status_code == 503 and page["Retry-After"] == str(BUSY_RETRY_AFTER)
    assert "Someone else is changing the same records" in page.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                    reason="lock_timeout is PostgreSQL's (DATABASE_URL)")
def test_a_row_locked_past_the_lock_timeout_answers_busy_on_postgresql(director_client, jie_long):
    assert "lock_timeout=" in settings.DATABASES["default"]["OPTIONS"]["options"]
    connection.close()   # reconnect with a short lock timeout
    options = connection.settings_dict["OPTIONS"]
    kept = options["options"]
    options["options"] = kept.replace(f"lock_timeout={int(settings.DB_LOCK_TIMEOUT * 1000)}", "lock_timeout=300")
    holding, release = threading.Event(), threading.Event()

    def hold():   # another writer holding the tournament's row
        try:
            with transaction.atomic():
                Tournament.objects.select_for_update().get(pk=jie_long.tournament.pk)
                holding.set()
                release.wait(10)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(10)
        response = director_client.patch(f"/api/v1/tournaments/{jie_long.tournament.pk}/", {"name": "Renamed"},
                                         format="json")
    finally:
        release.set()
        holder.join()
        options["options"] = kept
        connection.close()
    assert_busy(response)
