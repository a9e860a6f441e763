"""The referees API (scoring/api/referees.py) and a referee's token: the club's directors add,
list and remove referees; a referee's token reaches their tournament's disputes, adjustments and
substitutions and nothing else (403 on every other endpoint, before any look-up). Every answer
as the schema documents it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import resolve, reverse
from rest_framework.permissions import AllowAny
from rest_framework.test import APIClient

from scoring.models import ActionLog, TournamentReferee
from scoring.services.auth import auth_token_obtain
from scoring.services.referees import referee_add, referee_remove
from scoring.services.rounds import round_dispute, round_record
from scoring.services.tournaments import entry_create
from tests.scoring.bodies import JIE_LONG
from tests.scoring.test_hostile_parameters import ROUTES

from .test_schema import Checked, codes

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(director_client):
    return Checked(director_client, set())


def token_client(username: str, password: str) -> Checked:
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {auth_token_obtain(username=username, password=password)}")
    return Checked(c, set())


@pytest.fixture
def rita_api(jie_long, referee_user):
    referee_add(actor=jie_long.director_actor, tournament=jie_long.tournament, user="rita")
    return token_client("rita", "rita-secret-1")


def url(setup) -> str:
    return f"/api/v1/tournaments/{setup.tournament.pk}/referees/"


def test_add_list_remove(api, jie_long, referee_user):
    r = api.post(url(jie_long), {"user": "rita"})
    assert r.status_code == 201
    assert r.json() | {"created_at": None} == {"user": referee_user.pk, "username": "rita",
                                               "tournament": jie_long.tournament.pk, "added_by": "alice",
                                               "created_at": None}
    listed = api.get(url(jie_long)).json()
    assert listed["count"] == 1 and listed["results"][0]["username"] == "rita"
    gone = api.call("delete", f"{url(jie_long)}{referee_user.pk}/")
    assert gone.status_code == 204 and not TournamentReferee.objects.exists()
    assert api.call("delete", f"{url(jie_long)}{referee_user.pk}/").status_code == 404
    assert [a.action for a in ActionLog.objects.filter(action__startswith="referee_").order_by("id")] == ["referee_add",
                                                                                           "referee_remove"]


def test_by_id_too(api, jie_long, referee_user):
    assert api.post(url(jie_long), {"user": referee_user.pk}).status_code == 201


@pytest.mark.parametrize(("body", "status", "expected"), [
    ({"user": "nobody"}, 400, [("user", "not_found")]),
    ({"user": "alice"}, 409, [("user", "already_director")]),
    ({"user": True}, 400, [("user", "invalid")]),
    ({"user": ""}, 400, [("user", "invalid")]),
    ({}, 400, [("user", "required")]),
    ({"user": "rita", "role": "x"}, 400, [("role", "unknown_field")]),
])
def test_refusals_at_their_field(api, jie_long, referee_user, body, status, expected):
    r = api.post(url(jie_long), body)
    assert r.status_code == status and codes(r) == expected
    assert not TournamentReferee.objects.exists()


def test_twice_is_a_conflict(api, jie_long, referee_user):
    api.post(url(jie_long), {"user": "rita"})
    r = api.post(url(jie_long), {"user": "rita"})
    assert r.status_code == 409 and codes(r) == [("user", "already_referee")]


def test_another_clubs_director_sees_no_such_tournament(jie_long, other_director, referee_user):
    bruno = token_client("bruno", "bruno-secret-1")
    assert bruno.get(url(jie_long)).status_code == 404
    assert bruno.post(url(jie_long), {"user": "rita"}).status_code == 404
    assert not TournamentReferee.objects.exists()


def test_a_referee_adds_lists_and_removes_no_referee(rita_api, jie_long, referee_user):
    assert rita_api.get(url(jie_long)).status_code == 403
    assert rita_api.post(url(jie_long), {"user": "alice"}).status_code == 403
    assert rita_api.call("delete", f"{url(jie_long)}{referee_user.pk}/").status_code == 403
    assert TournamentReferee.objects.count() == 1


def test_a_user_who_referees_nothing_gets_no_token(referee_user):
    c = APIClient()
    r = c.post("/api/v1/auth/token/", {"username": "rita", "password": "rita-secret-1"}, format="json")
    assert r.status_code == 403


def test_a_referees_token_settles_adjusts_and_substitutes(rita_api, jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_dispute(actor=s.scorer_actor, round=rnd, message="a double left")
    r = rita_api.post(f"/api/v1/rounds/{rnd.pk}/resolve/", {"note": "checked"})
    assert r.status_code == 200 and r.json()["disputed"] is False
    adj = rita_api.post(f"/api/v1/tournaments/{s.tournament.pk}/adjustments/",
                        {"player": s.entries[0].player_id, "amount": -5, "reason": "late"})
    assert adj.status_code == 201 and adj.json()["created_by"] == "referee rita"
    assert rita_api.get(f"/api/v1/tournaments/{s.tournament.pk}/adjustments/").json()["count"] == 1
    assert rita_api.call("delete", f"/api/v1/adjustments/{adj.json()['id']}/").status_code == 204
    eve = entry_create(actor=s.director_actor, tournament=s.tournament,
                       player=s.tournament.club.players.create(name="Eve"))
    sub = rita_api.post(f"/api/v1/tables/{s.table.pk}/substitutions/", {"seat": 0, "player": eve.pk})
    assert sub.status_code == 201, sub.json()
    assert rita_api.get(f"/api/v1/tables/{s.table.pk}/substitutions/").status_code == 200
    assert set(ActionLog.objects.filter(actor_label="referee rita").values_list("action", flat=True)) == {
        "auth_token_create", "round_dispute_resolve", "adjustment_create", "adjustment_delete", "table_substitute"}


def test_a_referees_token_reaches_no_other_tournament(rita_api, make_setup):
    other = make_setup("jie_long")
    rnd = round_record(actor=other.scorer_actor, table=other.table, body=JIE_LONG)
    round_dispute(actor=other.scorer_actor, round=rnd, message="a double left")
    assert rita_api.post(f"/api/v1/rounds/{rnd.pk}/resolve/", {"note": "mine?"}).status_code == 404
    assert rita_api.get(f"/api/v1/tournaments/{other.tournament.pk}/adjustments/").status_code == 404
    assert rita_api.post(f"/api/v1/tables/{other.table.pk}/substitutions/", {"seat": 0, "player": 1}).status_code \
        == 404


def test_a_referee_taken_away_reaches_the_tournament_no_more(rita_api, jie_long, referee_user):
    adjustments = f"/api/v1/tournaments/{jie_long.tournament.pk}/adjustments/"
    assert rita_api.get(adjustments).status_code == 200
    referee_remove(actor=jie_long.director_actor, tournament=jie_long.tournament, user_id=referee_user.pk)
    assert rita_api.client.get(adjustments).status_code == 404


def test_a_referee_revokes_their_own_tokens(rita_api):
    r = rita_api.post("/api/v1/auth/token/revoke/")
    assert r.status_code == 200 and r.json()["revoked"] == 1
    assert rita_api.client.get("/api/v1/tournaments/").status_code == 401


#: The API's routes a referee's token may call, and with which methods.
REFEREE_API = {"api-auth-token-revoke": {"POST"}, "api-round-resolve": {"POST"}, "api-tournament-adjustments": {"GET", "POST"},
               "api-adjustment": {"DELETE"}, "api-table-substitutions": {"GET", "POST"}}
#: Routes that answer before authentication (the events stream) or make tokens.
OPEN_API = {"api-auth-token", "api-tournament-events"}


def test_every_other_endpoint_refuses_a_referees_token_with_403(rita_api, jie_long, referee_user):
    """Each API route and method, with the referee's own tournament's ids: 403 unless it is one
    of ``REFEREE_API``; a route open to anyone (``AllowAny``: public reads) answers the referee's
    token exactly as it answers another signed-in user who directs and referees nothing."""
    anyone = APIClient()
    anyone.force_authenticate(get_user_model().objects.create_user(username="nora", password="nora-secret-1"))
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    ids = {"pk": None, "tournament_id": s.tournament.pk, "player_id": s.entries[0].player_id,
           "user_id": referee_user.pk, "entry_id": s.entries[0].pk}
    by_prefix = {"api-club": s.tournament.club_id, "api-player": s.entries[0].player_id, "api-season": 1,
                 "api-tournament": s.tournament.pk, "api-import": 1, "api-session": s.table.session_id,
                 "api-table": s.table.pk, "api-round": rnd.pk, "api-audit": 1, "api-adjustment": 1}
    walked = 0
    for route in (r for r in ROUTES if r.kind == "api" and r.name not in OPEN_API):
        pk = next(v for prefix, v in sorted(by_prefix.items(), key=lambda kv: -len(kv[0]))
                  if route.name.startswith(prefix)) if "<int:pk>" in route.route else None
        kwargs = {name: (pk if name == "pk" else ids[name]) for _, name in route.params}
        path = reverse(route.name, kwargs=kwargs)
        view = resolve(path).func
        open_to_anyone = AllowAny in getattr(getattr(view, "view_class", None), "permission_classes", [])
        for method in route.methods:
            if method in REFEREE_API.get(route.name, set()):
                continue
            response = rita_api.client.generic(method, path, "{}", content_type="application/json")
            if open_to_anyone:
                expected = anyone.generic(method, path, "{}", content_type="application/json").status_code
                assert response.status_code == expected, (route.name, method, response.status_code, expected)
                assert response.status_code >= 400 or method == "GET", (route.name, method)
            else:
                assert response.status_code == 403, (route.name, method, response.status_code)
            walked += 1
    assert walked > 40
