"""The director's settings form leaves a tournament out of the club's ratings (and back)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_settings_form_switches_rated(jie_long, client, director):
    client.force_login(director)
    t = jie_long.tournament
    page = client.get(f"/director/tournaments/{t.pk}/").content.decode()
    assert 'name="rated" id="s-rated" checked' in page
    form = {"name": t.name, "public": "on", "chip_value": "0.50", "currency": "EUR", "tie_break_0": "net"}
    assert client.post(f"/director/tournaments/{t.pk}/settings/", form).status_code == 302
    t.refresh_from_db()
    assert t.rated is False
    assert client.post(f"/director/tournaments/{t.pk}/settings/", {**form, "rated": "on"}).status_code == 302
    t.refresh_from_db()
    assert t.rated is True


def test_the_ladder_page_ranks_the_club_and_rebuilds(jie_long, client, director, club, other_director):
    from scoring.models import ActionLog
    from scoring.services.ratings import ratings_follow
    from scoring.services.rounds import round_record

    from ..bodies import JIE_LONG

    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    ratings_follow(club=club)
    client.force_login(director)
    r = client.get(f"/director/clubs/{club.pk}/ratings/")
    assert r.status_code == 200
    assert [row["player"]["name"] for row in r.context["ladder"]] == ["Anna", "Bob", "Dominic", "Celine"]
    assert "provisional" in r.content.decode()
    r = client.post(f"/director/clubs/{club.pk}/ratings/rebuild/")
    assert r.status_code == 302 and ActionLog.objects.filter(action="ratings_rebuild").count() == 1
    client.force_login(other_director)
    assert client.get(f"/director/clubs/{club.pk}/ratings/").status_code in (403, 404)
    assert client.post(f"/director/clubs/{club.pk}/ratings/rebuild/").status_code in (403, 404)
    assert ActionLog.objects.filter(action="ratings_rebuild").count() == 1
