"""GET /api/v1/players/{id}/stats/: directors of the club see every tournament; anyone else only
the public ones, and 404 for a player with none (like an unknown id)."""

import pytest

from scoring.models import Tournament
from scoring.services.rounds import round_record
from tests.scoring.bodies import JIE_LONG, JIE_LONG_NETS

pytestmark = pytest.mark.django_db


def test_director_sees_all_anonymous_only_public(jie_long, make_setup, director_client, anon_client):
    round_record(actor=jie_long.director_actor, table=jie_long.table, body=JIE_LONG)
    private = make_setup("jie_long", table_name="Table 2")
    round_record(actor=private.director_actor, table=private.table, body=JIE_LONG)
    Tournament.objects.filter(pk=private.tournament.pk).update(public=False)
    anna = jie_long.entries[0].player
    url = f"/api/v1/players/{anna.pk}/stats/"
    mine = director_client.get(url)
    assert mine.status_code == 200 and mine.json()["overall"]["deals"] == 2
    assert mine.json()["overall"]["net"] == 2 * JIE_LONG_NETS[0] and mine.json()["public_only"] is False
    public = anon_client.get(url)
    assert public.status_code == 200, public.content
    body = public.json()
    assert body["public_only"] is True and body["overall"]["deals"] == 1
    assert [t["id"] for t in body["tournaments"]] == [jie_long.tournament.pk]
    assert body["games"][0]["game"] == "jie_long" and body["games"][0]["must_play"] == {"full_logs": 0,
                                                                                        "warnings": 0}


def test_player_without_public_tournament_is_404(jie_long, anon_client, other_director):
    Tournament.objects.filter(pk=jie_long.tournament.pk).update(public=False)
    anna = jie_long.entries[0].player
    r = anon_client.get(f"/api/v1/players/{anna.pk}/stats/")
    assert r.status_code == 404 and r.json()["errors"][0]["message"] == "No such player."
    assert anon_client.get("/api/v1/players/999999/stats/").status_code == 404
