"""Check-in over the API: ``POST /api/v1/tournaments/{id}/sessions/ahead/``, ``GET`` / ``POST
/api/v1/sessions/{id}/check-ins/``, ``DELETE .../check-ins/{entry_id}/``, and seating with
``"entries": "checked_in"``. Every answer is checked against the OpenAPI schema; refusals in the
errors shape; another club's director gets 404."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import ActionLog, Seat, SessionCheckIn
from scoring.services.auth import auth_token_obtain
from scoring.services.clubs import player_create
from scoring.services.roster import entry_withdraw
from scoring.services.tournaments import entry_create, tournament_create, tournament_start

from .test_schema import problems

pytestmark = pytest.mark.django_db

NAMES = ["Ah", "Bo", "Chi", "Di", "En"]


@pytest.fixture
def tournament(club, director_actor):
    """Da Ling (2 to 5 a table), five entries, running, no session."""
    t = tournament_create(actor=director_actor, club=club, name="Da Ling night", game="da_ling")
    for name in NAMES:
        entry_create(actor=director_actor, tournament=t, player=player_create(actor=director_actor, club=club,
                                                                              name=name))
    tournament_start(actor=director_actor, tournament=t)
    return t


def entry_ids(t) -> list[int]:
    return list(t.entries.order_by("player__name").values_list("pk", flat=True))


def call(client, method, url, body=None):
    response = getattr(client, method)(url, body, format="json") if body is not None else getattr(client, method)(url)
    found = problems(method, response.wsgi_request.path, response)
    assert not found, "\n".join(found)
    return response


def errors(response) -> list[tuple[str, str]]:
    return [(e["path"], e["code"]) for e in response.json()["errors"]]


def open_ahead(client, t) -> dict:
    r = call(client, "post", f"/api/v1/tournaments/{t.pk}/sessions/ahead/")
    assert r.status_code in (200, 201)
    return r.json()


def test_open_ahead_then_check_in_and_out(director_client, tournament):
    r = call(director_client, "post", f"/api/v1/tournaments/{tournament.pk}/sessions/ahead/")
    assert r.status_code == 201 and r.json()["number"] == 1 and r.json()["seated"] is False
    again = call(director_client, "post", f"/api/v1/tournaments/{tournament.pk}/sessions/ahead/")
    assert again.status_code == 200 and again.json()["id"] == r.json()["id"]
    sid = r.json()["id"]
    ah, bo = entry_ids(tournament)[:2]
    first = call(director_client, "post", f"/api/v1/sessions/{sid}/check-ins/", {"entry": ah})
    assert first.status_code == 201 and first.json()["how"] == "director" and first.json()["name"] == "Ah"
    twice = call(director_client, "post", f"/api/v1/sessions/{sid}/check-ins/", {"entry": ah})
    assert twice.status_code == 200 and twice.json()["checked_in_at"] == first.json()["checked_in_at"]
    assert SessionCheckIn.objects.count() == 1
    assert ActionLog.objects.filter(action="entry_check_in").count() == 1
    listed = call(director_client, "get", f"/api/v1/sessions/{sid}/check-ins/").json()
    assert [row["entry"] for row in listed["checked_in"]] == [ah]
    assert [row["name"] for row in listed["missing"]] == NAMES[1:]
    assert listed["session"] == {"id": sid, "number": 1, "status": "open", "seated": False}
    for _ in range(2):   # undoing twice is no error either
        assert call(director_client, "delete", f"/api/v1/sessions/{sid}/check-ins/{ah}/").status_code == 204
    assert SessionCheckIn.objects.count() == 0
    assert ActionLog.objects.filter(action="entry_check_in_undo").count() == 1
    assert call(director_client, "delete", f"/api/v1/sessions/{sid}/check-ins/{bo}/").status_code == 204


def test_refusals(director_client, tournament, club, director_actor):
    sid = open_ahead(director_client, tournament)["id"]
    other = tournament_create(actor=director_actor, club=club, name="Other", game="da_ling")
    stranger = entry_create(actor=director_actor, tournament=other, player=club.players.get(name="Ah"))
    withdrawn = tournament.entries.get(player__name="Bo")
    entry_withdraw(actor=director_actor, entry=withdrawn)
    url = f"/api/v1/sessions/{sid}/check-ins/"
    cases = [({"entry": stranger.pk}, 400, [("entry", "not_found")]),
             ({"entry": withdrawn.pk}, 400, [("entry", "withdrawn")]),
             ({"entry": "7"}, 400, [("entry", "invalid")]),
             ({"entry": 0}, 400, [("entry", "min_value")]),
             ({"entry": 2**64}, 400, [("entry", "max_value")]),
             ({}, 400, [("entry", "required")]),
             ({"entry": entry_ids(tournament)[0], "how": "self"}, 400, [("how", "unknown_field")])]
    for body, status, expected in cases:
        r = call(director_client, "post", url, body)
        assert (r.status_code, errors(r)) == (status, expected), body
    r = call(director_client, "delete", f"{url}{stranger.pk}/")
    assert (r.status_code, errors(r)) == (404, [("", "not_found")])
    for missing in (f"/api/v1/sessions/{sid + 999}/check-ins/", f"/api/v1/sessions/{2**63}/check-ins/"):
        assert call(director_client, "get", missing).status_code == 404
    assert SessionCheckIn.objects.count() == 0


def test_a_seated_session_takes_no_check_in(director_client, tournament):
    seated = call(director_client, "post", f"/api/v1/tournaments/{tournament.pk}/sessions/",
                  {"method": "random", "table_size": 5, "leftovers": "sit_out"})
    sid = tournament.sessions.get(number=seated.json()["session"]).pk
    r = call(director_client, "post", f"/api/v1/sessions/{sid}/check-ins/", {"entry": entry_ids(tournament)[0]})
    assert (r.status_code, errors(r)) == (409, [("", "session_seated")])
    assert call(director_client, "get", f"/api/v1/sessions/{sid}/check-ins/").json()["session"]["seated"] is True


def test_another_clubs_director_gets_404(director_client, tournament, other_director):
    sid = open_ahead(director_client, tournament)["id"]
    bruno = APIClient()
    bruno.credentials(HTTP_AUTHORIZATION=f"Token {auth_token_obtain(username='bruno', password='bruno-secret-1')}")
    ah = entry_ids(tournament)[0]
    for method, url, body in [("get", f"/api/v1/sessions/{sid}/check-ins/", None),
                              ("post", f"/api/v1/sessions/{sid}/check-ins/", {"entry": ah}),
                              ("delete", f"/api/v1/sessions/{sid}/check-ins/{ah}/", None),
                              ("post", f"/api/v1/tournaments/{tournament.pk}/sessions/ahead/", None)]:
        r = call(bruno, method, url, body)
        assert r.status_code == 404, url
    assert call(APIClient(), "get", f"/api/v1/sessions/{sid}/check-ins/").status_code == 401
    assert SessionCheckIn.objects.count() == 0


def test_seating_the_checked_in_only(director_client, tournament):
    sid = open_ahead(director_client, tournament)["id"]
    ids = entry_ids(tournament)
    for e in ids[:4]:   # En does not come
        call(director_client, "post", f"/api/v1/sessions/{sid}/check-ins/", {"entry": e})
    r = call(director_client, "post", f"/api/v1/tournaments/{tournament.pk}/sessions/",
             {"method": "random", "table_size": 4, "leftovers": "sit_out", "entries": "checked_in"})
    assert r.status_code == 201 and r.json()["session"] == 1 and r.json()["sit_outs"] == []
    assert sorted(s["entry"] for t in r.json()["tables"] for s in t["seats"]) == ids[:4]
    assert set(Seat.objects.filter(table__session_id=sid).values_list("entry_id", flat=True)) == set(ids[:4])


def test_seating_the_checked_in_with_too_few_is_a_field_error(director_client, tournament):
    body = {"method": "random", "table_size": 4, "leftovers": "sit_out", "entries": "checked_in"}
    r = call(director_client, "post", f"/api/v1/tournaments/{tournament.pk}/sessions/", body)
    assert (r.status_code, errors(r)) == (400, [("entries", "no_check_in")])
    sid = open_ahead(director_client, tournament)["id"]
    call(director_client, "post", f"/api/v1/sessions/{sid}/check-ins/", {"entry": entry_ids(tournament)[0]})
    r = call(director_client, "post", f"/api/v1/tournaments/{tournament.pk}/sessions/", body)
    assert (r.status_code, errors(r)) == (400, [("entries", "too_few_players")])
    r = call(director_client, "post", f"/api/v1/tournaments/{tournament.pk}/sessions/", {**body, "entries": "some"})
    assert r.status_code == 400 and errors(r)[0][0] == "entries"


def test_the_check_in_list_costs_the_same_whatever_the_entries(director_client, tournament, club, director_actor,
                                                               django_assert_max_num_queries):
    sid = open_ahead(director_client, tournament)["id"]
    for e in entry_ids(tournament):
        call(director_client, "post", f"/api/v1/sessions/{sid}/check-ins/", {"entry": e})
    # token, session (with its tournament and club), director check, check-ins, tables, entries
    with django_assert_max_num_queries(8):
        assert director_client.get(f"/api/v1/sessions/{sid}/check-ins/").status_code == 200
    for n in range(30):
        entry_create(actor=director_actor, tournament=tournament,
                     player=player_create(actor=director_actor, club=club, name=f"Late {n}"))
    with django_assert_max_num_queries(8):
        assert len(director_client.get(f"/api/v1/sessions/{sid}/check-ins/").json()["missing"]) == 30
    # a check-in: token, session, director check (the view's, the service's), tournament status, entry,
    # the session locked, whether seated, the row, its insert, the log, and two savepoints
    last = entry_ids(tournament)[-1]
    with django_assert_max_num_queries(15):
        assert director_client.post(f"/api/v1/sessions/{sid}/check-ins/", {"entry": last},
                                    format="json").status_code == 201
