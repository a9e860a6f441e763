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
    assert [row["player"]["name"] for row in r.context["ladder"]["rows"]] == ["Anna", "Bob", "Dominic", "Celine"]
    assert "provisional" in r.content.decode()
    r = client.post(f"/director/clubs/{club.pk}/ratings/rebuild/", follow=True)
    assert r.redirect_chain[0][1] == 302 and ActionLog.objects.filter(action="ratings_rebuild").count() == 1
    assert "Ratings rebuild started" in r.content.decode()   # a worker rebuilds them
    client.force_login(other_director)
    assert client.get(f"/director/clubs/{club.pk}/ratings/").status_code in (403, 404)
    assert client.post(f"/director/clubs/{club.pk}/ratings/rebuild/").status_code in (403, 404)
    assert ActionLog.objects.filter(action="ratings_rebuild").count() == 1


def test_the_ladder_page_shows_the_moves_and_links_the_public_ladder(make_setup, client, director, club):
    from scoring.models import Club
    from scoring.services.ratings import ratings_follow
    from scoring.services.rounds import round_record

    from ..bodies import JIE_LONG

    first = make_setup("jie_long")
    round_record(actor=first.scorer_actor, table=first.table, body=JIE_LONG)
    second = make_setup("jie_long", names=["Anna", "Bob", "Celine", "Eve"])
    for _ in range(4):
        round_record(actor=second.scorer_actor, table=second.table, body={"points": [12, 2, 34, 18]})
    ratings_follow(club=club)
    client.force_login(director)
    r = client.get(f"/director/clubs/{club.pk}/ratings/")
    rows = {row["player"]["name"]: row for row in r.context["ladder"]["rows"]}
    assert rows["Bob"]["rank"] == 1 and rows["Bob"]["rank_change"] == 1 and rows["Anna"]["rank_change"] == -1
    assert rows["Eve"]["new"] is True and rows["Eve"]["rank_change"] is None
    html = r.content.decode()
    assert '<span class="plus">+1</span>' in html and '<span class="badge">new</span>' in html
    assert f'href="/clubs/{club.pk}/ratings/"' not in html and "/players/" not in html   # not public: no links
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    html = client.get(f"/director/clubs/{club.pk}/ratings/").content.decode()
    assert f'href="/clubs/{club.pk}/ratings/"' in html and f'href="/players/{rows["Bob"]["player"]["id"]}/"' in html


def test_the_settings_form_makes_the_ladder_public_and_leaves_games_out(client, director, club):
    from scoring.models import ActionLog

    client.force_login(director)
    page = client.get(f"/director/clubs/{club.pk}/ratings/").content.decode()
    assert 'name="ladder_public" id="r-ladder-public">' in page
    assert 'name="unrated_games" value="tau_ngau">' in page
    r = client.post(f"/director/clubs/{club.pk}/ratings/settings/",
                    {"ladder_public": "on", "unrated_games": ["tau_ngau", "da_ling"]})
    assert r.status_code == 302 and r["Location"].endswith("#settings")
    club.refresh_from_db()
    assert club.ladder_public is True and sorted(club.unrated_games) == ["da_ling", "tau_ngau"]
    page = client.get(f"/director/clubs/{club.pk}/ratings/").content.decode()
    assert 'name="ladder_public" id="r-ladder-public" checked>' in page
    assert 'name="unrated_games" value="tau_ngau" checked>' in page
    assert ActionLog.objects.filter(action="club_ratings_update", target_id=str(club.pk)).count() == 1


def test_a_bad_game_is_refused_at_its_field_and_nothing_changes(client, director, club):
    client.force_login(director)
    r = client.post(f"/director/clubs/{club.pk}/ratings/settings/",
                    {"ladder_public": "on", "unrated_games": ["tau_ngau", "chess"]})
    assert r.status_code == 400
    html = r.content.decode()
    fieldset = html.split('<fieldset class="field has-error">', 1)[1].split("</fieldset>", 1)[0]
    assert '<p class="field-error" role="alert">Unknown game: chess.</p>' in fieldset
    assert 'name="ladder_public" id="r-ladder-public" checked>' in html   # what was sent stays
    club.refresh_from_db()
    assert club.ladder_public is False and club.unrated_games == []


def test_another_clubs_director_cannot_change_the_settings(client, other_director, club):
    client.force_login(other_director)
    r = client.post(f"/director/clubs/{club.pk}/ratings/settings/", {"ladder_public": "on"})
    assert r.status_code in (403, 404)
    club.refresh_from_db()
    assert club.ladder_public is False
