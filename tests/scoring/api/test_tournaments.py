"""The tournaments API (scoring/api/tournaments.py): the level a new phone starts a deal on."""

from __future__ import annotations

import pytest

from scoring.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_entry_level_is_read_and_written(director_client, club):
    c = director_client
    r = c.post("/api/v1/tournaments/", {"club": club.pk, "name": "Bulls", "game": "tau_ngau",
                                         "entry_level": "values"}, format="json")
    assert r.status_code == 201, r.content
    t = r.json()
    assert t["entry_level"] == "values"
    r = c.patch(f"/api/v1/tournaments/{t['id']}/", {"entry_level": "hands"}, format="json")
    assert r.status_code == 200 and r.json()["entry_level"] == "hands"
    r = c.patch(f"/api/v1/tournaments/{t['id']}/", {"entry_level": "winners"}, format="json")  # Da Ling's
    assert r.status_code == 400
    assert [(e["path"], e["code"]) for e in r.json()["errors"]] == [("entry_level", "unknown_level")]
    r = c.post("/api/v1/tournaments/", {"club": club.pk, "name": "Dragon", "game": "jie_long"}, format="json")
    assert r.json()["entry_level"] == "points"  # the game's first
    Tournament.objects.filter(pk=r.json()["id"]).update(entry_level="")  # as an import may leave it
    assert c.get(f"/api/v1/tournaments/{r.json()['id']}/").json()["entry_level"] == "points"


def test_the_schema_documents_the_entry_level(client):
    schema = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    for name in ("Tournament", "TournamentInput", "PatchedTournamentUpdate"):
        level = schema[name]["properties"]["entry_level"]
        assert "unknown_level" in level["description"] and "tau_ngau: hands, values" in level["description"]
