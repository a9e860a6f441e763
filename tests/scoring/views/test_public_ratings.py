"""The club's public ladder (/clubs/<id>/ratings/) and the rating on a player's public page
(/players/<id>/): shown only when the club's ladder is public; a private tournament's results
are not listed there."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from scoring.models import Club, Tournament
from scoring.selectors.rating_pages import rating_path
from scoring.services.ratings import ratings_follow
from scoring.services.rounds import round_record

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db

BOB_FIRST = {"points": [12, 2, 34, 18]}
SVG = "{http://www.w3.org/2000/svg}"


def _play(setup, body, n):
    return [round_record(actor=setup.scorer_actor, table=setup.table, body=body) for _ in range(n)]


@pytest.fixture
def two_tournaments(make_setup, club):
    """Anna leads after the first; Bob wins every deal of the second and overtakes her."""
    first = make_setup("jie_long")
    _play(first, JIE_LONG, 3)
    second = make_setup("jie_long")
    _play(second, BOB_FIRST, 6)
    ratings_follow(club=club)
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    return first, second


def _rows(html):
    body = html.split('<table id="ladder" class="fold">', 1)[1].split("</tbody>", 1)[0]
    return body.split("<tr data-player=")[1:]


def test_the_public_ladder_ranks_links_and_shows_the_moves(client, club, two_tournaments):
    r = client.get(f"/clubs/{club.pk}/ratings/")
    assert r.status_code == 200
    html = r.content.decode()
    rows = _rows(html)
    assert [next(n for n in ("Anna", "Bob", "Celine", "Dominic") if f">{n}</a>" in row) for row in rows] == \
        ["Bob", "Anna", "Dominic", "Celine"]
    bob, anna = club.players.get(name="Bob"), club.players.get(name="Anna")
    assert f'<a href="/players/{bob.pk}/">Bob</a>' in rows[0] and '<span class="plus">+1</span>' in rows[0]
    assert '<span class="minus">-1</span>' in rows[1] and f"/players/{anna.pk}/" in rows[1]
    assert '<span class="muted">=</span>' in rows[2]
    assert "(provisional)" in rows[0]          # 9 deals, fewer than 10
    assert f"since before {two_tournaments[1].tournament.name}" in html


def test_a_new_player_is_marked_new(client, club, make_setup):
    first = make_setup("jie_long")
    _play(first, JIE_LONG, 2)
    second = make_setup("jie_long", names=["Anna", "Bob", "Celine", "Eve"])
    _play(second, JIE_LONG, 1)
    ratings_follow(club=club)
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    rows = _rows(client.get(f"/clubs/{club.pk}/ratings/").content.decode())
    eve = [row for row in rows if ">Eve</a>" in row]
    assert len(eve) == 1 and '<span class="badge">new</span>' in eve[0]
    assert sum('<span class="badge">new</span>' in row for row in rows) == 1


def test_a_ladder_not_public_is_a_404(client, club, two_tournaments):
    Club.objects.filter(pk=club.pk).update(ladder_public=False)
    assert client.get(f"/clubs/{club.pk}/ratings/").status_code == 404
    assert client.get("/clubs/999999/ratings/").status_code == 404


def test_the_public_ladder_reads_a_fixed_number_of_queries(client, club, make_setup, django_assert_max_num_queries):
    """Club + the ladder's five (selectors.rating_pages.ladder_with_moves), whatever the players."""
    first = make_setup("jie_long")
    _play(first, JIE_LONG, 2)
    ratings_follow(club=club)
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    with django_assert_max_num_queries(6):
        assert client.get(f"/clubs/{club.pk}/ratings/").status_code == 200
    second = make_setup("jie_long", names=["Eve", "Fay", "Gus", "Hal"])
    _play(second, BOB_FIRST, 3)
    ratings_follow(club=club)
    with django_assert_max_num_queries(6):
        r = client.get(f"/clubs/{club.pk}/ratings/")
    assert len(_rows(r.content.decode())) == 8


def test_the_players_page_shows_the_rating_chart_and_why_it_moved(client, club, two_tournaments):
    anna = club.players.get(name="Anna")
    html = client.get(f"/players/{anna.pk}/").content.decode()
    path = rating_path(anna)
    assert f"<strong>{path[-1]['rating']}</strong> ± {path[-1]['uncertainty']}" in html
    svg = html.split('<div class="chart-box">', 1)[1].split("</svg>", 1)[0] + "</svg>"
    root = ET.fromstring(svg)
    line = root.find(f"{SVG}polyline").get("points").split()
    assert len(line) == 9 == len(path)
    history = html.split('<table id="rating-history" class="fold">', 1)[1].split("</table>", 1)[0]
    rows = history.split("<tr data-deal=")[1:]
    assert len(rows) == 9
    newest = rows[0]
    assert f"<td class=\"num wide\">{path[-2]['rating']}</td><td class=\"num\">{path[-1]['rating']}" in newest
    assert '<td class="num wide">2</td>' in newest                      # Anna's place in Bob's deals
    assert "Bob " in newest and "Celine " in newest and "Dominic " in newest
    assert "Session 1 · Table 1, deal 6" in newest


def test_the_players_page_lists_no_private_tournament_but_charts_every_result(client, club, two_tournaments):
    first, second = two_tournaments
    Tournament.objects.filter(pk=first.tournament.pk).update(public=False, name="Secret cup")
    anna = club.players.get(name="Anna")
    html = client.get(f"/players/{anna.pk}/").content.decode()
    assert "Secret cup" not in html
    history = html.split('<table id="rating-history" class="fold">', 1)[1].split("</table>", 1)[0]
    assert history.count("<tr data-deal=") == 6
    svg = html.split('<div class="chart-box">', 1)[1].split("</svg>", 1)[0] + "</svg>"
    assert len(ET.fromstring(svg).find(f"{SVG}polyline").get("points").split()) == 9


def test_the_history_comes_a_page_at_a_time(client, club, make_setup):
    s = make_setup("jie_long")
    _play(s, JIE_LONG, 23)
    ratings_follow(club=club)
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    anna = club.players.get(name="Anna")
    first = client.get(f"/players/{anna.pk}/").content.decode()
    assert first.count("<tr data-deal=") == 20 and "?history_page=2#rating-history-heading" in first
    second = client.get(f"/players/{anna.pk}/?history_page=2").content.decode()
    assert second.count("<tr data-deal=") == 3


def test_no_rating_on_the_players_page_when_the_ladder_is_not_public(client, club, two_tournaments):
    Club.objects.filter(pk=club.pk).update(ladder_public=False)
    anna = club.players.get(name="Anna")
    html = client.get(f"/players/{anna.pk}/").content.decode()
    assert 'id="rating"' not in html and "<svg" not in html.split("<h2>", 2)[1]


def test_a_rated_player_of_private_tournaments_only_has_a_page_when_the_ladder_is_public(client, club, jie_long):
    Tournament.objects.filter(pk=jie_long.tournament.pk).update(public=False)
    _play(jie_long, JIE_LONG, 1)
    ratings_follow(club=club)
    anna = club.players.get(name="Anna")
    assert client.get(f"/players/{anna.pk}/").status_code == 404
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    html = client.get(f"/players/{anna.pk}/").content.decode()
    assert 'id="rating-chart-title"' in html and "No rated results of public tournaments." in html


def test_the_ladder_and_the_rating_speak_chinese(club, two_tournaments):
    from django.test import Client
    from django.utils import translation

    anna = club.players.get(name="Anna")
    for language, words in (("zh-hans", ("升降", "变化原因", "第1轮 · 第1桌，第 6 局")),
                            ("zh-hant", ("升降", "變化原因", "第1輪 · 第1桌，第 6 局"))):
        with translation.override(language):
            c = Client(headers={"accept-language": language})
            page = c.get(f"/clubs/{club.pk}/ratings/").content.decode() + c.get(f"/players/{anna.pk}/").content.decode()
        for word in words:
            assert word in page, (language, word)


def test_the_players_page_reads_as_many_queries_whatever_the_results(client, club, make_setup, django_assert_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    s = make_setup("jie_long")
    _play(s, JIE_LONG, 2)
    ratings_follow(club=club)
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    anna = club.players.get(name="Anna")
    with CaptureQueriesContext(connection) as few:
        assert client.get(f"/players/{anna.pk}/").status_code == 200
    _play(s, JIE_LONG, 30)
    ratings_follow(club=club)
    with django_assert_num_queries(len(few.captured_queries)):
        assert client.get(f"/players/{anna.pk}/").status_code == 200


def test_the_public_ladder_shows_100_players_a_page(client, club, director_actor, make_setup):
    from django.utils import timezone

    from scoring.models import PlayerRating
    from scoring.services.clubs import player_create

    # The ladder reads the kept ratings: 130 players rated alike but for their mu.
    now = timezone.now()
    PlayerRating.objects.bulk_create([
        PlayerRating(club=club, player=player_create(actor=director_actor, club=club, name=f"P{i:03d}"),
                     mu=25.0 + i / 10, sigma=8.0, deals=12, updated_at=now) for i in range(130)])
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    first = client.get(f"/clubs/{club.pk}/ratings/").content.decode()
    assert len(_rows(first)) == 100 and ">P129</a>" in _rows(first)[0]
    assert "?page=2#ladder-heading" in first
    second = client.get(f"/clubs/{club.pk}/ratings/?page=2").content.decode()
    rows = _rows(second)
    assert len(rows) == 30 and ">P000</a>" in rows[-1] and '<td class="num">130</td>' in rows[-1]
