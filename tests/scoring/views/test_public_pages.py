"""The public side of a tournament: standings, payouts, a player's deals, a table's deals and
the live fragments, for a visitor with no login; nothing of a private or draft tournament."""

from __future__ import annotations

import re

import pytest

from scoring.services.rounds import round_dispute, round_record
from scoring.services.tournaments import tournament_update
from scoring.views.public import etag_matches

from ..bodies import DING_NIU_FULL_LOG, JIE_LONG, JIE_LONG_NETS

pytestmark = pytest.mark.django_db

def pages(setup) -> list[str]:
    t, table = setup.tournament, setup.table
    player = setup.entries[0].player_id
    return [f"/t/{t.slug}/", f"/t/{t.slug}/live/", f"/t/{t.slug}/payouts/", f"/t/{t.slug}/payouts/?session=1",
            f"/t/{t.slug}/players/{player}/", f"/t/{t.slug}/tables/{table.pk}/",
            f"/t/{t.slug}/tables/{table.pk}/live/"]


def test_home_links_every_public_tournament_and_no_private_one(client, make_setup, director_actor):
    shown = make_setup("jie_long")
    hidden = make_setup("jie_long")
    tournament_update(actor=director_actor, tournament=hidden.tournament, public=False)
    draft = make_setup("jie_long", start=False)
    page = client.get("/").content.decode()
    assert f'href="/t/{shown.tournament.slug}/"' in page
    assert f"/t/{hidden.tournament.slug}/" not in page
    assert f"/t/{draft.tournament.slug}/" not in page


def test_every_page_works_for_an_anonymous_visitor(client, jie_long):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    for url in pages(jie_long):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "csrfmiddlewaretoken" not in response.content.decode(), url


def test_the_standings_rank_ties_as_ties_and_show_the_figures(client, jie_long):
    page = client.get(f"/t/{jie_long.tournament.slug}/").content.decode()
    # Nobody has played: four players share the first rank.
    assert page.count("=1<") == 4
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    page = client.get(f"/t/{jie_long.tournament.slug}/").content.decode()
    rows = re.findall(r'<tr data-entry="\d+">(.*?)</tr>', page, re.S)
    assert ">Anna</a>" in rows[0] and ">58<" in rows[0]
    assert ">Celine</a>" in rows[3] and ">-70<" in rows[3]
    assert "Ranked by net, wins, average place" in page
    assert f'href="/t/{jie_long.tournament.slug}/tables/{jie_long.table.pk}/"' in page


def test_payouts_say_who_pays_whom_in_money_also_per_session(client, jie_long):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    for url in (f"/t/{jie_long.tournament.slug}/payouts/", f"/t/{jie_long.tournament.slug}/payouts/?session=1"):
        page = client.get(url).content.decode()
        # Celine is -70 at 0.50 EUR a chip: she pays 35.00 EUR in all.
        assert "<strong>Celine</strong> pays <strong>Anna</strong>" in page
        assert "EUR" in page
    assert client.get(f"/t/{jie_long.tournament.slug}/payouts/?session=9").status_code == 404
    assert client.get(f"/t/{jie_long.tournament.slug}/payouts/?session=x").status_code == 404


def test_a_players_page_lists_every_deal_with_a_running_net_and_a_chart(client, jie_long):
    for _ in range(3):
        round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    page = client.get(f"/t/{jie_long.tournament.slug}/players/{jie_long.entries[2].player_id}/").content.decode()
    assert '<svg class="chart"' in page and "<title id=\"net-chart-title\">Cumulative net of Celine</title>" in page
    running = re.findall(r'<td class="num">(-?\d+)</td></tr>', page)
    assert running == [str(JIE_LONG_NETS[2] * k) for k in (1, 2, 3)]


def test_a_table_page_shows_tiles_and_a_replayable_full_log(client, ding_niu):
    round_record(actor=ding_niu.scorer_actor, table=ding_niu.table, body=DING_NIU_FULL_LOG)
    page = client.get(f"/t/{ding_niu.tournament.slug}/tables/{ding_niu.table.pk}/").content.decode()
    assert "data-replay" in page and 'data-total="10"' in page
    assert "Adam leads 6:4" in page and "Boris passes 5:5 face down" in page
    assert "Kept in hand" in page  # the tiles each seat never played
    assert page.count('class="replay-tile') == 4
    # Tiles are drawn (scoring.web.tile_art): each once in the page's sprite, then used by reference.
    assert page.count('<symbol id="tile-6-4"') == 1
    assert '<use href="#tile-6-4"/>' in page and 'aria-label="tile 6:4"' in page


def test_a_private_or_draft_tournament_is_404_everywhere_like_an_unknown_slug(client, make_setup,
                                                                                director_actor):
    private = make_setup("jie_long")
    tournament_update(actor=director_actor, tournament=private.tournament, public=False)
    draft = make_setup("jie_long", start=False)
    for setup in (private, draft):
        for url in pages(setup):
            assert client.get(url).status_code == 404, url
    assert client.get("/t/no-such-tournament/").status_code == 404


def test_another_tournaments_player_or_table_is_404(client, make_setup, director_actor, club):
    one = make_setup("jie_long")
    other = make_setup("ding_niu")
    slug = one.tournament.slug
    assert client.get(f"/t/{slug}/players/{other.entries[0].player_id}/").status_code == 404
    assert client.get(f"/t/{slug}/tables/{other.table.pk}/").status_code == 404
    assert client.get(f"/t/{slug}/tables/{other.table.pk}/live/").status_code == 404


def test_no_public_page_shows_a_token_or_a_scorer_link(client, ding_niu):
    round_record(actor=ding_niu.scorer_actor, table=ding_niu.table, body=DING_NIU_FULL_LOG)
    rnd = ding_niu.table.rounds.get()
    round_dispute(actor=ding_niu.director_actor, round=rnd, message="secret referee note")
    for url in pages(ding_niu):
        page = client.get(url).content.decode()
        assert ding_niu.token not in page, url
        assert "/s/" not in page, url
        assert ding_niu.table.scorer_token_hash not in page, url
        assert "secret referee note" not in page, url


def test_the_live_fragment_answers_304_until_a_deal_changes(client, jie_long):
    url = f"/t/{jie_long.tournament.slug}/live/"
    first = client.get(url)
    assert first.status_code == 200 and 'data-live-part="standings"' in first.content.decode()
    tag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    again = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and again["ETag"] != tag
    assert ">58<" in again.content.decode()
    table_url = f"/t/{jie_long.tournament.slug}/tables/{jie_long.table.pk}/live/"
    tag = client.get(table_url)["ETag"]
    assert client.get(table_url, HTTP_IF_NONE_MATCH=tag).status_code == 304


@pytest.mark.parametrize(("header", "matches"), [
    ('"7-en"', True), ('W/"7-en"', True), ('"1-en", W/"7-en"', True), ("*", True),
    ('"7-zh-hans"', False), ('W/"8-en"', False), ("", False), ('"7-en', False), ('w/"7-en"', False),
])
def test_if_none_match_is_compared_weakly(header, matches):
    """GZipMiddleware sends a compressed fragment's tag as W/"…": it must still match."""
    assert etag_matches('"7-en"', header) is matches


def test_the_directors_live_fragment_is_for_the_clubs_directors_only(client, jie_long, director, other_director):
    url = f"/director/tournaments/{jie_long.tournament.pk}/live/"
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(other_director)
    assert client.get(url).status_code == 404
    client.force_login(director)
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    response = client.get(url)
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-live-part="standings"' in page and 'data-live-part="tables"' in page and ">58<" in page
    assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
