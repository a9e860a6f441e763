"""The adjustments API (scoring/api/adjustments.py): record, list, delete; each refusal at its
field in the errors shape; every answer as the schema documents it."""

from __future__ import annotations

import pytest

from scoring.models import ActionLog, Adjustment, Standing
from scoring.services.tournaments import tournament_finish

from .test_schema import Checked

pytestmark = pytest.mark.django_db


def codes(response) -> list[tuple[str, str]]:
    return [(e["path"], e["code"]) for e in response.json()["errors"]]


@pytest.fixture
def api(director_client):
    return Checked(director_client, set())


def url(setup) -> str:
    return f"/api/v1/tournaments/{setup.tournament.pk}/adjustments/"


def test_record_list_and_delete(api, jie_long):
    s = jie_long
    anna = s.entries[0]
    r = api.post(url(s), {"player": anna.player_id, "amount": -10, "reason": "Late arrival"})
    assert r.status_code == 201
    body = r.json()
    assert (body["player"], body["entry"], body["name"], body["amount"], body["reason"], body["deleted_at"]) == (
        anna.player_id, anna.pk, "Anna", -10, "Late arrival", None)
    assert body["created_by"] == "director alice"
    assert Standing.objects.get(entry=anna).total == -10
    listed = api.get(url(s)).json()
    assert listed["count"] == 1 and listed["results"][0]["id"] == body["id"]
    assert api.get(f"/api/v1/tournaments/{s.tournament.pk}/standings/").json()["rows"][-1]["net"] == -10

    gone = api.call("delete", f"/api/v1/adjustments/{body['id']}/")
    assert gone.status_code == 204
    assert api.get(url(s)).json()["count"] == 0
    assert Standing.objects.get(entry=anna).total == 0
    assert Adjustment.objects.get(pk=body["id"]).deleted_at is not None          # kept
    assert ActionLog.objects.filter(action="adjustment_delete", data__amount=-10).exists()
    again = api.call("delete", f"/api/v1/adjustments/{body['id']}/")
    assert again.status_code == 409 and codes(again) == [("", "already_deleted")]


@pytest.mark.parametrize(("change", "expected"), [
    ({"amount": 0}, [("amount", "zero_amount")]),
    ({"amount": 10_000_000}, [("amount", "max_value")]),
    ({"amount": "5"}, [("amount", "invalid")]),
    ({"reason": "   "}, [("reason", "blank")]),
    ({"reason": ""}, [("reason", "blank")]),
    ({"reason": "x" * 2001}, [("reason", "max_length")]),
    ({"player": 999999}, [("player", "not_found")]),
    ({"seat": 1}, [("seat", "unknown_field")]),
])
def test_each_refusal_at_its_field(api, jie_long, change, expected):
    body = {"player": jie_long.entries[0].player_id, "amount": -5, "reason": "Phone rang", **change}
    r = api.post(url(jie_long), body)
    assert r.status_code == 400 and codes(r) == expected
    assert not Adjustment.objects.exists()


def test_a_missing_field_is_required(api, jie_long):
    r = api.post(url(jie_long), {"player": jie_long.entries[0].player_id})
    assert r.status_code == 400 and sorted(codes(r)) == [("amount", "required"), ("reason", "required")]


def test_a_player_of_another_tournament_is_not_found(api, jie_long, ding_niu):
    r = api.post(url(jie_long), {"player": ding_niu.entries[0].player_id, "amount": 5, "reason": "Bonus"})
    assert r.status_code == 400 and codes(r) == [("player", "not_found")]


def test_a_finished_tournament_refuses(api, jie_long):
    s = jie_long
    made = api.post(url(s), {"player": s.entries[0].player_id, "amount": 5, "reason": "Bonus"}).json()
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    r = api.post(url(s), {"player": s.entries[0].player_id, "amount": 5, "reason": "Bonus"})
    assert r.status_code == 409 and codes(r) == [("", "tournament_finished")]
    r = api.call("delete", f"/api/v1/adjustments/{made['id']}/")
    assert r.status_code == 409 and codes(r) == [("", "tournament_finished")]


def test_a_draft_refuses(api, make_setup):
    s = make_setup("jie_long", start=False)
    r = api.post(url(s), {"player": s.entries[0].player_id, "amount": 5, "reason": "Bonus"})
    assert r.status_code == 409 and codes(r) == [("", "tournament_not_running")]


def test_others_and_scorer_links_cannot(jie_long, other_director, anon_client, scorer_client_for):
    from rest_framework.test import APIClient

    stranger = APIClient()
    stranger.force_authenticate(other_director)
    body = {"player": jie_long.entries[0].player_id, "amount": 5, "reason": "Bonus"}
    assert Checked(stranger, set()).post(url(jie_long), body).status_code == 404
    assert Checked(anon_client, set()).post(url(jie_long), body).status_code == 401
    assert Checked(scorer_client_for(jie_long.token), set()).post(url(jie_long), body).status_code in (403, 404)
    assert Checked(stranger, set()).call("delete", "/api/v1/adjustments/999/").status_code == 404
    assert not Adjustment.objects.exists()


def test_an_idempotency_key_answers_the_same_adjustment(api, jie_long):
    s = jie_long
    body = {"player": s.entries[0].player_id, "amount": -5, "reason": "Late"}
    first = api.post(url(s), body, HTTP_IDEMPOTENCY_KEY="fine-1")
    again = api.post(url(s), body, HTTP_IDEMPOTENCY_KEY="fine-1")
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert Adjustment.objects.count() == 1 and Standing.objects.get(entry=s.entries[0]).total == -5
    other = api.post(url(s), {**body, "amount": -6}, HTTP_IDEMPOTENCY_KEY="fine-1")
    assert other.status_code == 422 and codes(other) == [("", "idempotency_key_reused")]
