"""``POST /api/v1/tournaments/{id}/sessions/``: a seated session with every table's link, token and
QR code (not cached; a retry with the same Idempotency-Key answers the same session), errors at
their paths, and only for the tournament's directors. Every answer is checked against the
OpenAPI schema."""

from __future__ import annotations

import pytest

from scoring.models import Session, Table
from scoring.selectors.tables import table_seats
from scoring.services.clubs import player_create
from scoring.services.tournaments import entry_create, tournament_create, tournament_finish

from .test_schema import problems

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(club, director_actor):
    """Da Ling (2 to 5 players) with seven entries and no tables."""
    t = tournament_create(actor=director_actor, club=club, name="Da Ling night", game="da_ling")
    for name in ["Ah", "Bo", "Chi", "Di", "En", "Fu", "Gu"]:
        player = player_create(actor=director_actor, club=club, name=name)
        entry_create(actor=director_actor, tournament=t, player=player)
    return t


def post(client, t, body):
    response = client.post(f"/api/v1/tournaments/{t.pk}/sessions/", body, format="json")
    found = problems("post", response.wsgi_request.path, response)
    assert not found, "\n".join(found)
    return response


def errors(response) -> list[tuple[str, str]]:
    return [(e["path"], e["code"]) for e in response.json()["errors"]]


def test_a_seated_session_shows_every_link(director_client, scorer_client_for, tournament):
    r = post(director_client, tournament, {"method": "random", "table_size": 5, "leftovers": "smaller_tables",
                                           "seed": "night-1"})
    assert r.status_code == 201 and r["Cache-Control"] == "no-store"
    body = r.json()
    assert (body["session"], body["method"], body["seed"], body["sit_outs"]) == (1, "random", "night-1", [])
    assert [len(t["seats"]) for t in body["tables"]] == [4, 3]
    assert [t["name"] for t in body["tables"]] == ["Table 1", "Table 2"]
    for t in body["tables"]:
        assert [s["position"] for s in t["seats"]] == list(range(len(t["seats"])))
        assert t["scorer_url"] == f"http://testserver/s/{t['scorer_token']}/"
        assert t["qr_svg"].startswith("<svg") and "<path" in t["qr_svg"]
        table = Table.objects.get(pk=t["id"])
        assert [s.entry_id for s in table_seats(table)] == [s["entry"] for s in t["seats"]]
        # the link works, for its own table
        assert scorer_client_for(t["scorer_token"]).get(f"/api/v1/tables/{t['id']}/").status_code == 200
        # and is not in the table's read (only the seating's answer and the director's sheet show it)
        assert t["scorer_token"] not in director_client.get(f"/api/v1/tables/{t['id']}/").content.decode()


def test_sit_outs_and_the_drawn_seed(director_client, tournament):
    body = post(director_client, tournament, {"method": "balanced", "table_size": 3, "leftovers": "sit_out"}).json()
    assert [len(t["seats"]) for t in body["tables"]] == [3, 3] and len(body["sit_outs"]) == 1
    assert set(body["sit_outs"][0]) == {"entry", "player", "name"} and body["seed"]
    second = post(director_client, tournament, {"method": "balanced", "table_size": 3, "leftovers": "sit_out"})
    assert second.json()["session"] == 2
    assert second.json()["sit_outs"][0]["entry"] != body["sit_outs"][0]["entry"]   # not the same one again


@pytest.mark.parametrize("body, expected", [
    ({"method": "alphabetical", "table_size": 4, "leftovers": "sit_out"}, [("method", "invalid_choice")]),
    ({"method": "random", "table_size": "four", "leftovers": "sit_out"}, [("table_size", "invalid")]),
    ({"method": "random", "table_size": 6, "leftovers": "sit_out"}, [("table_size", "wrong_player_count")]),
    ({"method": "random", "table_size": 4}, [("leftovers", "required")]),
    ({"method": "random", "table_size": 4, "leftovers": "sit_out", "entries": [999999]},
     [("entries[0]", "not_found")]),
    ({"method": "random", "table_size": 4, "leftovers": "sit_out", "entries": [3, "x"]}, [("entries[1]", "invalid")]),
    ({"method": "random", "table_size": 2, "leftovers": "sit_out", "entries": []}, [("entries", "min_length")]),
    # as the schema says (found by fuzzing): no other field, whole numbers, the seed as text, no repeats
    ({"method": "random", "table_size": 4, "leftovers": "sit_out", "tables": 2}, [("tables", "unknown_field")]),
    ({"method": "random", "table_size": 4.5, "leftovers": "sit_out"}, [("table_size", "invalid")]),
    ({"method": "random", "table_size": 9, "leftovers": "sit_out"}, [("table_size", "max_value")]),
    ({"method": "random", "table_size": 4, "leftovers": "sit_out", "seed": 7}, [("seed", "invalid")]),
    ({"method": "random", "table_size": 4, "leftovers": "sit_out", "entries": [1, 1]}, [("entries[1]", "duplicate_entry")]),
])
def test_bad_requests_answer_400_at_their_path_and_create_nothing(director_client, tournament, body, expected):
    r = post(director_client, tournament, body)
    assert r.status_code == 400 and errors(r) == expected
    assert not Session.objects.exists()


def test_exactly_four_games_have_no_smaller_tables(director_client, ding_niu):
    r = post(director_client, ding_niu.tournament, {"method": "random", "table_size": 4,
                                                    "leftovers": "smaller_tables"})
    assert r.status_code == 400 and errors(r) == [("leftovers", "no_smaller_tables")]


def test_only_the_tournaments_directors(anon_client, director_client, other_director, scorer_client_for,
                                        ding_niu):
    from rest_framework.test import APIClient

    body = {"method": "random", "table_size": 4, "leftovers": "sit_out"}
    stranger = APIClient()
    stranger.force_authenticate(other_director)
    assert post(anon_client, ding_niu.tournament, body).status_code == 401
    assert post(stranger, ding_niu.tournament, body).status_code == 404         # like an unknown id
    assert post(scorer_client_for(ding_niu.token), ding_niu.tournament, body).status_code == 404
    assert Session.objects.filter(tournament=ding_niu.tournament).count() == 1
    tournament_finish(actor=ding_niu.director_actor, tournament=ding_niu.tournament)
    r = post(director_client, ding_niu.tournament, body)
    assert r.status_code == 409 and errors(r) == [("", "tournament_finished")]


def post_with_key(client, t, body, key):
    response = client.post(f"/api/v1/tournaments/{t.pk}/sessions/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    found = problems("post", response.wsgi_request.path, response)
    assert not found, "\n".join(found)
    return response


def _counts():
    from scoring.models import ActionLog, IdempotencyKey, Seat

    return (Session.objects.count(), Table.objects.count(), Seat.objects.count(), ActionLog.objects.count(),
            IdempotencyKey.objects.count())


def test_a_retry_with_the_same_key_answers_the_same_session(director_client, scorer_client_for, tournament):
    """A lost answer retried: the same session, tables and links, nothing created."""
    body = {"method": "balanced", "table_size": 3, "leftovers": "sit_out"}   # seed drawn by the server
    first = post_with_key(director_client, tournament, body, "seat-7")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first
    after = _counts()
    again = post_with_key(director_client, tournament, body, "seat-7")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and again["Cache-Control"] == "no-store"
    assert _counts() == after
    assert again.json() == first.json()          # same session, seed, tables, seats, sit-outs, links, QR codes
    for t in again.json()["tables"]:
        assert scorer_client_for(t["scorer_token"]).get(f"/api/v1/tables/{t['id']}/").status_code == 200


def test_the_same_key_with_another_body_is_refused(director_client, tournament):
    body = {"method": "random", "table_size": 3, "leftovers": "sit_out", "seed": "1"}
    assert post_with_key(director_client, tournament, body, "k").status_code == 201
    after = _counts()
    r = post_with_key(director_client, tournament, {**body, "seed": "2"}, "k")
    assert r.status_code == 422 and errors(r) == [("", "idempotency_key_reused")]
    assert _counts() == after
    r = post_with_key(director_client, tournament, body, "   ")
    assert r.status_code == 400 and errors(r) == [("", "bad_idempotency_key")] and _counts() == after


def test_a_large_session_answers_links_without_qr_codes(director_client, tournament, monkeypatch):
    """Past QR_IN_ANSWER tables no QR code is drawn on the request path (the sheet draws them a
    page at a time): the links are all there."""
    from scoring.api import seating as api_seating

    monkeypatch.setattr(api_seating, "QR_IN_ANSWER", 1)
    r = post(director_client, tournament, {"method": "random", "table_size": 3, "leftovers": "sit_out"})
    tables = r.json()["tables"]
    assert len(tables) == 2 and all(t["qr_svg"] is None and t["scorer_url"].endswith(f"/s/{t['scorer_token']}/")
                                    for t in tables)
