"""A season's public page: its standings and tournaments; a private season answers 404."""

from django.test import Client
from django.utils import translation

from scoring.services.rounds import round_record
from scoring.services.seasons import season_create, season_tournament_add, season_update

from ..bodies import JIE_LONG


def test_a_public_seasons_page_shows_standings_and_weights(club, director_actor, make_setup):
    league, final = make_setup(), make_setup()
    round_record(actor=league.scorer_actor, table=league.table, body=JIE_LONG)
    s = season_create(actor=director_actor, club=club, name="Spring 2026")
    season_tournament_add(actor=director_actor, season=s, tournament=league.tournament)
    season_tournament_add(actor=director_actor, season=s, tournament=final.tournament, weight="1.5")
    assert Client().get(f"/seasons/{s.pk}/").status_code == 404      # private
    season_update(actor=director_actor, season=s, public=True)
    page = Client().get(f"/seasons/{s.pk}/").content.decode()
    assert "Spring 2026" in page and "×1.5" in page and "×1<" in page
    standings = page[page.index('id="season-standings"'):page.index('id="season-tournaments"')]
    assert standings.index("Anna") < standings.index("Bob") < standings.index("Dominic") < standings.index("Celine")
    assert ">58<" in standings
    assert Client().get("/seasons/999999/").status_code == 404


def test_the_page_speaks_chinese(club, director_actor):
    s = season_create(actor=director_actor, club=club, name="春季", public=True)
    for language, word in (("zh-hans", "权重"), ("zh-hant", "權重")):
        with translation.override(language):
            page = Client(headers={"accept-language": language}).get(f"/seasons/{s.pk}/").content.decode()
        assert word in page, language
