"""Scorer authentication and actors."""

from __future__ import annotations

import pytest
from rest_framework import exceptions
from rest_framework.test import APIRequestFactory

from scoring.domain.actors import Actor
from scoring.selectors.access import can_access_table
from scoring.services.tables import table_scorer_token_rotate
from scoring.web.auth import ScorerAuthentication, ScorerPrincipal, actor_from_request

pytestmark = pytest.mark.django_db


def _request(header=None):
    kwargs = {"HTTP_AUTHORIZATION": header} if header else {}
    return APIRequestFactory().get("/", REMOTE_ADDR="10.9.8.7", **kwargs)


def test_scorer_token_authenticates_as_its_table(jie_long):
    user, table = ScorerAuthentication().authenticate(_request(f"Scorer {jie_long.token}"))
    assert isinstance(user, ScorerPrincipal) and table == jie_long.table
    assert user.is_authenticated and not user.is_staff


@pytest.mark.parametrize("header", ["Scorer", "Scorer a b", "Scorer nope"])
def test_bad_scorer_headers_are_refused(jie_long, header):
    with pytest.raises(exceptions.AuthenticationFailed):
        ScorerAuthentication().authenticate(_request(header))


def test_other_schemes_are_left_alone(db):
    assert ScorerAuthentication().authenticate(_request("Token abc")) is None
    assert ScorerAuthentication().authenticate(_request()) is None


def test_a_rotated_token_no_longer_authenticates(jie_long, director_actor):
    table_scorer_token_rotate(actor=director_actor, table=jie_long.table)
    with pytest.raises(exceptions.AuthenticationFailed):
        ScorerAuthentication().authenticate(_request(f"Scorer {jie_long.token}"))


def test_actor_from_request(jie_long, director):
    req = _request()
    req.user = ScorerPrincipal(jie_long.table)
    actor = actor_from_request(req)
    assert actor.is_scorer and actor.table == jie_long.table and actor.ip == "10.9.8.7"
    assert actor.label == f"scorer of table Table 1 (#{jie_long.table.pk})"
    req.user = director
    actor = actor_from_request(req)
    assert actor.is_director and actor.label == "director alice"
    assert actor_from_request(_request(), table=jie_long.table).is_scorer


def test_table_access(jie_long, make_setup, director, other_director):
    other = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    assert can_access_table(Actor(table=jie_long.table), jie_long.table)
    assert not can_access_table(Actor(table=other.table), jie_long.table)
    assert can_access_table(Actor(user=director), jie_long.table)
    assert not can_access_table(Actor(user=other_director), jie_long.table)
    assert not can_access_table(Actor(), jie_long.table)


# --- "Log out everywhere" ends the browser sessions too (issue 16) -----------------------------------

def _browser(username: str):
    from django.test import Client

    browser = Client()
    response = browser.post("/director/login/", {"username": username, "password": f"{username}-secret-1"})
    assert response.status_code == 302
    assert browser.get("/director/").status_code == 200
    return browser


def _logged_out(browser) -> bool:
    response = browser.get("/director/")
    return response.status_code == 302 and response["Location"].startswith("/director/login/")


def test_log_out_everywhere_with_a_token_ends_every_browser_session(director, director_client, other_director):
    from scoring.models import ActionLog

    laptop, phone, theirs = _browser("alice"), _browser("alice"), _browser("bruno")
    r = director_client.post("/api/v1/auth/token/revoke/")
    assert r.status_code == 200 and r.json() == {"revoked": 1}
    assert _logged_out(laptop) and _logged_out(phone)
    assert theirs.get("/director/").status_code == 200   # another director's session stays
    assert ActionLog.objects.get(action="auth_tokens_revoke").data == {"revoked": 1, "sessions_ended": 2}
    assert director_client.get("/api/v1/tournaments/").status_code == 401


def test_log_out_everywhere_from_a_browser_keeps_that_browser(director):
    laptop, phone = _browser("alice"), _browser("alice")
    r = laptop.post("/api/v1/auth/token/revoke/", content_type="application/json")
    assert r.status_code == 200
    assert _logged_out(phone)
    assert laptop.get("/director/").status_code == 200   # the one that asked


def test_auth_tokens_cleanup_deletes_the_expired_tokens_and_logs_it(director, other_director):
    from datetime import timedelta

    from django.utils import timezone

    from scoring.models import ActionLog, ApiToken
    from scoring.selectors.auth import user_by_api_token
    from scoring.services.auth import auth_token_obtain, auth_tokens_cleanup

    for _ in range(2):
        auth_token_obtain(username="alice", password="alice-secret-1")
    live = auth_token_obtain(username="bruno", password="bruno-secret-1")
    ApiToken.objects.filter(user=director).update(expires_at=timezone.now() - timedelta(days=2))
    assert auth_tokens_cleanup() == 2
    assert list(ApiToken.objects.values_list("user", flat=True)) == [other_director.pk]
    assert user_by_api_token(live) == other_director
    log = ActionLog.objects.get(action=ActionLog.Action.AUTH_TOKENS_CLEANUP)
    assert log.data == {"deleted": 2} and log.actor_label == "system"
    assert auth_tokens_cleanup() == 0   # nothing left to delete: no second row
    assert ActionLog.objects.filter(action=ActionLog.Action.AUTH_TOKENS_CLEANUP).count() == 1
