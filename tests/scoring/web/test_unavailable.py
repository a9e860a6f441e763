"""A database that does not answer (scoring/web/unavailable.py, scoring/api/errors.py): the API
answers a JSON 503 in its error shape with Retry-After, a page a friendly 503 page, never a 500.
The database is made unreachable for the request by making the connection refuse to connect,
as a stopped PostgreSQL does; the real thing, through gunicorn, is
tests/integration/test_database_outage.py."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.db import InterfaceError, OperationalError, connection
from django.test import RequestFactory

from scoring.web.unavailable import RETRY_AFTER, DatabaseUnavailableMiddleware

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db

REFUSED = OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')
CLOSED = OperationalError("server closed the connection unexpectedly")
SHUTDOWN = OperationalError("terminating connection due to administrator command")
GONE = InterfaceError("connection already closed")


@contextmanager
def database_down(monkeypatch, error: Exception = REFUSED):
    """Every query of this thread's connection fails with ``error`` while inside."""
    def refuse(*args, **kwargs):
        raise error

    with monkeypatch.context() as m:
        m.setattr(connection, "ensure_connection", refuse)
        yield


def assert_api_503(response):
    assert response.status_code == 503, response.content
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == str(RETRY_AFTER) and 1 <= RETRY_AFTER <= 10
    body = response.json()
    assert [(e["path"], e["code"]) for e in body["errors"]] == [("", "database_unavailable")]
    assert body["errors"][0]["message"] == body["detail"] and "Try again" in body["detail"]


@pytest.mark.parametrize("error", [REFUSED, CLOSED, SHUTDOWN, GONE], ids=["refused", "closed", "shutdown", "gone"])
def test_the_api_answers_503_in_its_error_shape(monkeypatch, director_client, error):
    with database_down(monkeypatch, error):
        response = director_client.get("/api/v1/clubs/")
    assert_api_503(response)
    assert director_client.get("/api/v1/clubs/").status_code == 200  # back as soon as the database is


def test_a_deal_sent_while_the_database_is_down_answers_503(monkeypatch, jie_long, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    with database_down(monkeypatch, CLOSED):
        response = scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", {**JIE_LONG, "entered_by": 0},
                               format="json", HTTP_IDEMPOTENCY_KEY="deal-1")
    assert_api_503(response)
    # The retry the 503 asks for records the deal.
    response = scorer.post(f"/api/v1/tables/{jie_long.table.pk}/rounds/", {**JIE_LONG, "entered_by": 0},
                           format="json", HTTP_IDEMPOTENCY_KEY="deal-1")
    assert response.status_code == 201, response.content


def test_the_api_message_is_translated(monkeypatch, director_client):
    with database_down(monkeypatch):
        response = director_client.get("/api/v1/clubs/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 503 and response["Retry-After"] == str(RETRY_AFTER)
    assert response.status_code == 503 and response.json()["errors"][0]["code"] == "database_unavailable"
    assert response.json()["detail"] == response.json()["errors"][0]["message"] == "数据库暂时没有响应。请过几秒再试。"


@pytest.mark.parametrize("page", ["home", "tournament", "director"])
def test_a_page_answers_the_friendly_503_page(monkeypatch, client, director, jie_long, page):
    client.force_login(director)  # the session is in the database too
    path = {"home": "/", "tournament": f"/t/{jie_long.tournament.slug}/", "director": "/director/"}[page]
    with database_down(monkeypatch):
        response = client.get(path)
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER)
    assert response["Content-Type"].startswith("text/html")
    assert [t.name for t in response.templates][0] == "unavailable.html"
    page = response.content.decode()
    assert "Back in a moment" in page and "The database is not answering just now." in page
    assert "Content-Security-Policy" in response  # the usual headers still come


def test_a_scorer_page_answers_503_and_in_the_phone_s_language(monkeypatch, client, jie_long):
    with database_down(monkeypatch, SHUTDOWN):
        response = client.get(f"/s/{jie_long.token}/", HTTP_ACCEPT_LANGUAGE="zh-hant")
    assert response.status_code == 503 and response["Retry-After"] == str(RETRY_AFTER)
    page = response.content.decode()
    assert 'lang="zh-hant"' in page and "Back in a moment" not in page
    assert "請稍候" in page and f"請等 {RETRY_AFTER} 秒" in page and "資料庫暫時沒有回應" in page


def test_other_exceptions_are_left_alone():
    middleware = DatabaseUnavailableMiddleware(lambda request: None)
    request = RequestFactory().get("/")
    assert middleware.process_exception(request, ValueError("a bug")) is None
    assert middleware.process_exception(request, REFUSED).status_code == 503


def test_the_browsable_api_answers_503_too(monkeypatch, client, director):
    """A browser at an API address: the browsable API's page, rendered after the view, needs the
    database too (the user's session), so the middleware answers in the API's shape."""
    client.force_login(director)
    with database_down(monkeypatch):
        response = client.get("/api/v1/clubs/", HTTP_ACCEPT="text/html")
    assert_api_503(response)
