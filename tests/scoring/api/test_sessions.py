"""Sessions over the API: the list (``GET /api/v1/tournaments/{id}/sessions/``), close and reopen,
the clock, seating that closes the earlier sessions (or keeps them open), and a closed session's
refusal of its scorer link (409 ``session_closed``). Every answer is checked against the schema."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.models import Round, Session
from scoring.services.sessions import session_close

from ..bodies import JIE_LONG
from .test_schema import problems

pytestmark = pytest.mark.django_db


def checked(response):
    found = problems(response.wsgi_request.method.lower(), response.wsgi_request.path, response)
    assert not found, "\n".join(found)
    return response


def codes(response) -> list[str]:
    return [e["code"] for e in response.json()["errors"]]


def seat(client, t, **extra):
    return checked(client.post(f"/api/v1/tournaments/{t.pk}/sessions/",
                               {"method": "random", "table_size": 4, "leftovers": "sit_out", "seed": "3", **extra},
                               format="json"))


def test_the_sessions_list(jie_long, director_client):
    s = jie_long
    response = checked(director_client.get(f"/api/v1/tournaments/{s.tournament.pk}/sessions/"))
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1
    session = body["results"][0]
    assert session == {
        "id": s.table.session_id, "number": 1, "status": "open", "closed_at": None, "clock": None,
        "tables": [{"id": s.table.pk, "name": "Table 1",
                    "seats": [{"position": i, "entry": e.pk, "player": e.player_id, "name": name}
                              for i, (e, name) in enumerate(zip(s.entries, s.names))]}]}


def test_the_list_shows_the_clock(jie_long, director_client):
    s = jie_long
    sid = s.table.session_id
    response = checked(director_client.post(f"/api/v1/sessions/{sid}/clock/", {"minutes": 45}, format="json"))
    assert response.status_code == 200
    clock = response.json()["clock"]
    assert 45 * 60 - 5 <= clock["seconds_left"] <= 45 * 60
    listed = checked(director_client.get(f"/api/v1/tournaments/{s.tournament.pk}/sessions/")).json()
    assert listed["results"][0]["clock"]["ends_at"] == clock["ends_at"]
    Session.objects.filter(pk=sid).update(clock_started_at=timezone.now() - timedelta(hours=1),
                                          clock_ends_at=timezone.now() - timedelta(minutes=5))
    listed = checked(director_client.get(f"/api/v1/tournaments/{s.tournament.pk}/sessions/")).json()
    assert listed["results"][0]["clock"]["seconds_left"] == 0
    stopped = checked(director_client.delete(f"/api/v1/sessions/{sid}/clock/"))
    assert stopped.status_code == 200 and stopped.json()["clock"] is None
    again = checked(director_client.delete(f"/api/v1/sessions/{sid}/clock/"))
    assert again.status_code == 409 and codes(again) == ["no_clock"]


@pytest.mark.parametrize("body", [{}, {"minutes": 0}, {"minutes": "30"}, {"minutes": 1441}, {"minutes": 1.5}])
def test_the_clock_needs_whole_minutes(jie_long, director_client, body):
    response = checked(director_client.post(f"/api/v1/sessions/{jie_long.table.session_id}/clock/", body,
                                            format="json"))
    assert response.status_code == 400
    assert [e["path"] for e in response.json()["errors"]] == ["minutes"]


def test_close_and_reopen_and_their_conflicts(jie_long, director_client):
    sid = jie_long.table.session_id
    closed = checked(director_client.post(f"/api/v1/sessions/{sid}/close/"))
    assert closed.status_code == 200 and closed.json()["status"] == "closed" and closed.json()["closed_at"]
    again = checked(director_client.post(f"/api/v1/sessions/{sid}/close/"))
    assert again.status_code == 409 and codes(again) == ["session_already_closed"]
    clock = checked(director_client.post(f"/api/v1/sessions/{sid}/clock/", {"minutes": 5}, format="json"))
    assert clock.status_code == 409 and codes(clock) == ["session_closed"]
    opened = checked(director_client.post(f"/api/v1/sessions/{sid}/reopen/"))
    assert opened.status_code == 200 and opened.json()["status"] == "open" and opened.json()["closed_at"] is None
    again = checked(director_client.post(f"/api/v1/sessions/{sid}/reopen/"))
    assert again.status_code == 409 and codes(again) == ["session_already_open"]


def test_a_finished_tournaments_sessions_do_not_move(jie_long, director_client):
    checked(director_client.post(f"/api/v1/tournaments/{jie_long.tournament.pk}/finish/", {}, format="json"))
    response = checked(director_client.post(f"/api/v1/sessions/{jie_long.table.session_id}/close/"))
    assert response.status_code == 409 and codes(response) == ["tournament_finished"]


def test_sessions_are_the_directors(jie_long, scorer_client_for, anon_client, other_director):
    from rest_framework.test import APIClient

    s = jie_long
    scorer = scorer_client_for(s.token)
    sid = s.table.session_id
    assert checked(scorer.get(f"/api/v1/tournaments/{s.tournament.pk}/sessions/")).status_code == 404
    assert checked(scorer.post(f"/api/v1/sessions/{sid}/close/")).status_code == 404
    assert checked(anon_client.post(f"/api/v1/sessions/{sid}/close/")).status_code == 401
    other = APIClient()
    other.force_authenticate(other_director)
    assert checked(other.post(f"/api/v1/sessions/{sid}/reopen/")).status_code == 404
    assert checked(other.post(f"/api/v1/sessions/{sid}/clock/", {"minutes": 3}, format="json")).status_code == 404
    assert Session.objects.get(pk=sid).status == "open"


def test_seating_closes_the_earlier_sessions_and_says_which(jie_long, director_client):
    t = jie_long.tournament
    response = seat(director_client, t)
    assert response.status_code == 201 and response.json()["closed_sessions"] == [1]
    third = seat(director_client, t, keep_open=True)
    assert third.status_code == 201 and third.json()["closed_sessions"] == []
    assert dict(Session.objects.values_list("number", "status")) == {1: "closed", 2: "open", 3: "open"}
    listed = checked(director_client.get(f"/api/v1/tournaments/{t.pk}/sessions/")).json()["results"]
    assert [(x["number"], x["status"]) for x in listed] == [(1, "closed"), (2, "open"), (3, "open")]
    assert [len(x["tables"]) for x in listed] == [1, 1, 1]
    bad = seat(director_client, t, keep_open="yes")
    assert bad.status_code == 400 and [e["path"] for e in bad.json()["errors"]] == ["keep_open"]


def test_a_closed_sessions_scorer_link_is_refused_with_409(jie_long, scorer_client_for, director_client):
    s = jie_long
    scorer = scorer_client_for(s.token)
    url = f"/api/v1/tables/{s.table.pk}/rounds/"
    first = checked(scorer.post(url, {**JIE_LONG, "entered_by": 0}, format="json", HTTP_IDEMPOTENCY_KEY="a"))
    assert first.status_code == 201 and first.json()["late"] is False and first.json()["after_time"] is False
    session_close(actor=s.director_actor, session=s.table.session)
    refused = checked(scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="b"))
    assert refused.status_code == 409 and codes(refused) == ["session_closed"]
    rid = first.json()["id"]
    confirm = checked(scorer.post(f"/api/v1/rounds/{rid}/confirm/", {"confirmed_by": 1}, format="json"))
    assert confirm.status_code == 409 and codes(confirm) == ["session_closed"]
    correct = checked(scorer.put(f"/api/v1/rounds/{rid}/", {**JIE_LONG, "reason": "typo"}, format="json",
                                 HTTP_IF_MATCH='"1"'))
    assert correct.status_code == 409 and codes(correct) == ["session_closed"]
    assert Round.objects.count() == 1
    # The director records it: a late deal.
    late = checked(director_client.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="c"))
    assert late.status_code == 201 and late.json()["late"] is True
    checked_round = checked(director_client.get(f"/api/v1/rounds/{late.json()['id']}/"))
    assert checked_round.json()["late"] is True


def test_a_deal_after_the_clock_ran_out_is_accepted_and_marked(jie_long, scorer_client_for):
    s = jie_long
    Session.objects.filter(pk=s.table.session_id).update(clock_started_at=timezone.now() - timedelta(hours=1),
                                                         clock_ends_at=timezone.now() - timedelta(seconds=1))
    response = checked(scorer_client_for(s.token).post(f"/api/v1/tables/{s.table.pk}/rounds/", JIE_LONG,
                                                       format="json", HTTP_IDEMPOTENCY_KEY="k"))
    assert response.status_code == 201 and response.json()["after_time"] is True
