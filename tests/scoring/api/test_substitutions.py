"""``/api/v1/tables/{id}/substitutions/`` (scoring/api/substitutions.py)."""

from __future__ import annotations

import pytest

from scoring.services.clubs import player_create
from scoring.services.rounds import round_record
from scoring.services.tournaments import entry_create

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def _newcomer(s, name="Eve"):
    player = player_create(actor=s.director_actor, club=s.tournament.club, name=name)
    return entry_create(actor=s.director_actor, tournament=s.tournament, player=player)


def test_round_trip(jie_long, director_client):
    s = jie_long
    eve = _newcomer(s)
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    url = f"/api/v1/tables/{s.table.pk}/substitutions/"
    assert director_client.get(url).json() == []
    r = director_client.post(url, {"seat": 2, "player": eve.pk}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert {k: body[k] for k in ("seat", "from_deal", "entry_out", "name_out", "entry_in", "name_in", "created_by")} == {
        "seat": 2, "from_deal": 2, "entry_out": s.entries[2].pk, "name_out": "Celine", "entry_in": eve.pk,
        "name_in": "Eve", "created_by": "alice"}
    assert director_client.get(url).json() == [body]
    seats = director_client.get(f"/api/v1/tables/{s.table.pk}/").json()["seats"]
    assert [x["name"] for x in seats] == ["Anna", "Bob", "Eve", "Dominic"]
    deal = director_client.get(f"/api/v1/tables/{s.table.pk}/rounds/").json()["results"][0]
    assert [p["name"] for p in deal["players"]] == ["Anna", "Bob", "Celine", "Dominic"]


@pytest.mark.parametrize("payload, status, path, code", [
    ({"seat": 4, "player": None}, 400, "seat", "bad_seat"),
    ({"seat": "x", "player": None}, 400, "seat", None),
    ({"seat": 0}, 400, "player", None),
    ({"seat": 0, "player": 999999}, 400, "player", "not_found"),
])
def test_bad_input_is_refused_at_its_field(jie_long, director_client, payload, status, path, code):
    s = jie_long
    eve = _newcomer(s)
    if payload.get("player", 0) is None:
        payload = {**payload, "player": eve.pk}
    r = director_client.post(f"/api/v1/tables/{s.table.pk}/substitutions/", payload, format="json")
    assert r.status_code == status, r.content
    error = r.json()["errors"][0]
    assert error["path"] == path
    if code:
        assert error["code"] == code


def test_refused_while_a_deal_is_unconfirmed_and_for_a_seated_player(make_setup, director_client):
    s = make_setup("jie_long", require_confirmation=True)
    eve = _newcomer(s)
    url = f"/api/v1/tables/{s.table.pk}/substitutions/"
    assert director_client.post(url, {"seat": 0, "player": s.entries[1].pk}, format="json").json()["errors"][0][
        "code"] == "already_seated"
    round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    r = director_client.post(url, {"seat": 0, "player": eve.pk}, format="json")
    assert r.status_code == 409 and r.json()["errors"][0]["code"] == "round_unconfirmed"


def test_only_directors_substitute(jie_long, scorer_client_for, anon_client):
    s = jie_long
    eve = _newcomer(s)
    url = f"/api/v1/tables/{s.table.pk}/substitutions/"
    assert scorer_client_for(s.token).post(url, {"seat": 0, "player": eve.pk}, format="json").status_code == 403
    assert anon_client.post(url, {"seat": 0, "player": eve.pk}, format="json").status_code in (401, 403)
