"""The director's season pages: a club's seasons (list, create) and one season (name, slug,
public; its tournaments with weights added, changed, removed), linked from the club's page;
each refusal at its field; directors of the club only."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.models import ActionLog, Season, SeasonTournament
from scoring.services.seasons import season_create, season_tournament_add

pytestmark = pytest.mark.django_db


def _errors_of(html: str, field_id: str) -> str:
    return html.split(f'id="{field_id}-errors"', 1)[1].split("</div>", 1)[0]


def test_the_club_page_links_the_seasons_and_a_season_is_created(client, director, club):
    client.force_login(director)
    assert f'href="/director/clubs/{club.pk}/seasons/"' in client.get(f"/director/clubs/{club.pk}/").content.decode()
    page = client.get(f"/director/clubs/{club.pk}/seasons/").content.decode()
    assert "None yet." in page and 'id="new-name"' in page
    r = client.post(f"/director/clubs/{club.pk}/seasons/", {"name": "Spring 2026", "slug": "spring", "public": "on"})
    season = Season.objects.get(club=club)
    assert r.status_code == 302 and r["Location"] == f"/director/seasons/{season.pk}/"
    assert (season.name, season.slug, season.public) == ("Spring 2026", "spring", True)
    page = client.get(f"/director/clubs/{club.pk}/seasons/").content.decode()
    assert f'<a href="/director/seasons/{season.pk}/">Spring 2026</a>' in page
    assert ActionLog.objects.filter(action="season_create").count() == 1


def test_a_new_season_refused_shows_the_problem_at_its_field(client, director, club):
    client.force_login(director)
    r = client.post(f"/director/clubs/{club.pk}/seasons/", {"name": "  ", "slug": "Spring"})
    assert r.status_code == 400
    html = r.content.decode()
    assert "A season name is required." in _errors_of(html, "new-name")
    assert 'value="Spring"' in html                       # what was sent stays
    r = client.post(f"/director/clubs/{club.pk}/seasons/", {"name": "Spring", "slug": "!!!"})
    assert r.status_code == 400 and "letters, digits and dashes" in _errors_of(r.content.decode(), "new-slug")
    assert not Season.objects.exists()


def test_a_season_is_renamed_and_published(client, director, director_actor, club):
    season = season_create(actor=director_actor, club=club, name="Spring")
    client.force_login(director)
    page = client.get(f"/director/seasons/{season.pk}/").content.decode()
    assert 'id="season-name"' in page and 'value="Spring"' in page and f'href="/seasons/{season.pk}/"' not in page
    r = client.post(f"/director/seasons/{season.pk}/", {"name": "Spring 2026", "slug": "", "public": "on"})
    assert r.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.public) == ("Spring 2026", True)
    assert f'href="/seasons/{season.pk}/"' in client.get(f"/director/seasons/{season.pk}/").content.decode()
    r = client.post(f"/director/seasons/{season.pk}/", {"name": "", "public": "on"})
    assert r.status_code == 400 and "A season name is required." in _errors_of(r.content.decode(), "season-name")
    season.refresh_from_db()
    assert season.name == "Spring 2026"


def test_tournaments_are_added_weighted_and_removed(client, director, director_actor, club, make_setup):
    league, final = make_setup(), make_setup()
    season = season_create(actor=director_actor, club=club, name="Spring")
    client.force_login(director)
    url = f"/director/seasons/{season.pk}/"
    page = client.get(url).content.decode()
    add = page.split('id="season-add"', 1)[1]
    assert f'<option value="{league.tournament.pk}">' in add and f'<option value="{final.tournament.pk}">' in add
    r = client.post(f"{url}tournaments/", {"tournament": league.tournament.pk, "weight": "1"})
    assert r.status_code == 302 and r["Location"].endswith("#tournaments")
    client.post(f"{url}tournaments/", {"tournament": final.tournament.pk, "weight": "2"})
    weights = dict(SeasonTournament.objects.filter(season=season).values_list("tournament_id", "weight"))
    assert weights == {league.tournament.pk: Decimal("1"), final.tournament.pk: Decimal("2")}
    page = client.get(url).content.decode()
    assert f'id="w-{final.tournament.pk}" name="weight" type="text" required inputmode="decimal" value="2">' in page
    assert f'<option value="{final.tournament.pk}">' not in page.split('id="season-add"', 1)[1]   # in it already
    # the final's weight changed from its row
    r = client.post(f"{url}tournaments/", {"tournament": final.tournament.pk, "weight": "1.5", "row": "1"})
    assert r.status_code == 302
    assert SeasonTournament.objects.get(season=season, tournament=final.tournament).weight == Decimal("1.5")
    r = client.post(f"{url}tournaments/{league.tournament.pk}/remove/")
    assert r.status_code == 302
    assert list(SeasonTournament.objects.filter(season=season).values_list("tournament_id", flat=True)) == \
        [final.tournament.pk]
    assert ActionLog.objects.filter(action="season_tournament_add").count() == 3
    assert ActionLog.objects.filter(action="season_tournament_remove").count() == 1


def test_a_bad_weight_is_refused_at_its_field(client, director, director_actor, club, make_setup):
    league, final = make_setup(), make_setup()
    season = season_create(actor=director_actor, club=club, name="Spring")
    season_tournament_add(actor=director_actor, season=season, tournament=league.tournament, weight="2")
    client.force_login(director)
    url = f"/director/seasons/{season.pk}/"
    r = client.post(f"{url}tournaments/", {"tournament": final.tournament.pk, "weight": "-1"})
    assert r.status_code == 400
    html = r.content.decode()
    assert "The weight is a positive number" in _errors_of(html, "add-weight") and 'value="-1"' in html
    r = client.post(f"{url}tournaments/", {"tournament": "", "weight": "1"})
    assert r.status_code == 400 and "Choose one of the club&#x27;s tournaments." in _errors_of(r.content.decode(),
                                                                                          "add-tournament")
    r = client.post(f"{url}tournaments/", {"tournament": league.tournament.pk, "weight": "zero", "row": "1"})
    assert r.status_code == 400
    html = r.content.decode()
    assert "The weight is a positive number" in _errors_of(html, f"w-{league.tournament.pk}")
    assert f'id="w-{league.tournament.pk}" name="weight" type="text" required inputmode="decimal" value="zero"' in html
    assert SeasonTournament.objects.get(season=season).weight == Decimal("2")
    assert SeasonTournament.objects.filter(season=season).count() == 1


def test_another_clubs_director_sees_nothing(client, other_director, director_actor, club, make_setup):
    league = make_setup()
    season = season_create(actor=director_actor, club=club, name="Spring")
    client.force_login(other_director)
    for method, url, data in (
            ("get", f"/director/clubs/{club.pk}/seasons/", {}),
            ("post", f"/director/clubs/{club.pk}/seasons/", {"name": "Mine"}),
            ("get", f"/director/seasons/{season.pk}/", {}),
            ("post", f"/director/seasons/{season.pk}/", {"name": "Mine"}),
            ("post", f"/director/seasons/{season.pk}/tournaments/", {"tournament": league.tournament.pk, "weight": 1}),
            ("post", f"/director/seasons/{season.pk}/tournaments/{league.tournament.pk}/remove/", {})):
        assert getattr(client, method)(url, data).status_code == 404, url
    assert Season.objects.count() == 1 and Season.objects.get().name == "Spring"
    assert not SeasonTournament.objects.exists()
