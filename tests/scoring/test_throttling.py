"""Limits on guessing and flooding: 429 with Retry-After and the usual errors body past the
limit; a legitimate scorer's burst of retries passes; other addresses and tables are not
touched; and with the cache down the limits step aside instead of refusing everyone."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.web.throttling import RATES

from .bodies import JIE_LONG

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _day_long_windows(settings):
    """The same allowances counted over a day: a test's requests never straddle two windows
    (the counters are fixed windows; a minute's boundary could fall between two requests)."""
    settings.RATE_LIMITS = {group: rate.split("/")[0] + "/d" for group, rate in RATES.items()}


def allowance(group: str) -> int:
    return int(RATES[group].split("/")[0])


def client_from(address: str) -> APIClient:
    return APIClient(REMOTE_ADDR=address)


def assert_limited(response):
    assert response.status_code == 429, response.content
    assert int(response["Retry-After"]) >= 1
    if response["Content-Type"].startswith("application/json"):
        assert response.json()["errors"][0]["code"] == "throttled"


def test_failed_api_logins_are_limited_per_account(director):
    c = client_from("10.0.0.1")
    for i in range(allowance("login-account")):
        r = c.post("/api/v1/auth/token/", {"username": "alice", "password": f"guess{i}"}, format="json")
        assert r.status_code == 400
    r = c.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"}, format="json")
    assert_limited(r)
    # Another account from the same address is not locked by alice's failures.
    assert client_from("10.0.0.1").post("/api/v1/auth/token/", {"username": "bruno", "password": "x"},
                                        format="json").status_code == 400


def test_failed_api_logins_are_limited_per_address(director):
    c = client_from("10.0.0.2")
    for i in range(allowance("login-address")):
        c.post("/api/v1/auth/token/", {"username": f"user{i}", "password": "x"}, format="json")
    assert_limited(c.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"}, format="json"))
    r = client_from("10.0.0.3").post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"},
                                     format="json")
    assert r.status_code == 200


def test_failed_page_logins_are_limited(client, director):
    for i in range(allowance("login-account")):
        assert client.post("/director/login/", {"username": "alice", "password": f"guess{i}"}).status_code == 200
    r = client.post("/director/login/", {"username": "alice", "password": "alice-secret-1"})
    assert_limited(r)
    assert "Too many failed logins" in r.content.decode()


def test_guessing_scorer_links_is_limited_per_address(client, jie_long):
    for i in range(allowance("scorer-token")):
        assert client.get(f"/s/guess-{i}/").status_code == 404
    assert_limited(client.get(f"/s/{jie_long.token}/"))
    assert client.get(f"/s/{jie_long.token}/", REMOTE_ADDR="10.0.0.9").status_code == 200


def test_guessing_scorer_tokens_over_the_api_is_limited(jie_long):
    c = client_from("10.0.0.4")
    url = f"/api/v1/tables/{jie_long.table.pk}/"
    for i in range(allowance("scorer-token")):
        assert c.get(url, HTTP_AUTHORIZATION=f"Scorer guess-{i}").status_code == 401
    assert_limited(c.get(url, HTTP_AUTHORIZATION=f"Scorer {jie_long.token}"))


def test_guessing_director_tokens_is_limited(director):
    c = client_from("10.0.0.5")
    for i in range(allowance("director-token")):
        assert c.get("/api/v1/clubs/", HTTP_AUTHORIZATION=f"Token guess-{i}").status_code == 401
    assert_limited(c.get("/api/v1/clubs/", HTTP_AUTHORIZATION="Token another-guess"))


def test_a_scorers_burst_of_retries_passes_and_a_flood_is_stopped(jie_long, make_setup, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    url = f"/api/v1/tables/{jie_long.table.pk}/rounds/"
    # A phone on bad wifi retrying the same deal twenty times: every retry answered, one deal.
    for _ in range(20):
        r = scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="the-same-deal")
        assert r.status_code == 201
    assert jie_long.table.rounds.count() == 1
    for i in range(allowance("round-create") - 20):
        assert scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY=f"deal-{i}").status_code == 201
    assert_limited(scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="one-too-many"))
    # Another table is not slowed by this one.
    other = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    r = scorer_client_for(other.token).post(f"/api/v1/tables/{other.table.pk}/rounds/", JIE_LONG, format="json")
    assert r.status_code == 201


def test_with_the_cache_down_the_limits_step_aside(director, jie_long, settings, client):
    """A real Redis client against a port where nothing listens: connection refused."""
    from tests.integration.stack import free_port

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}}
    c = client_from("10.0.0.6")
    for i in range(allowance("login-account") + 2):
        c.post("/api/v1/auth/token/", {"username": "alice", "password": f"guess{i}"}, format="json")
    r = c.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-secret-1"}, format="json")
    assert r.status_code == 200
    assert client.get(f"/s/{jie_long.token}/").status_code == 200
