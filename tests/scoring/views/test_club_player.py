"""The club-wide public player page: statistics of the public tournaments and their list,
linked from a tournament's player page; a player with no public tournament is a 404."""

import pytest
from django.urls import reverse

from scoring.models import Tournament
from scoring.services.rounds import round_record
from tests.scoring.bodies import DING_NIU_LED_BY_1

pytestmark = pytest.mark.django_db


def test_page_shows_stats_and_tournaments(ding_niu, make_setup, client):
    round_record(actor=ding_niu.director_actor, table=ding_niu.table, body=DING_NIU_LED_BY_1)
    private = make_setup("ding_niu", table_name="Table 2")
    Tournament.objects.filter(pk=private.tournament.pk).update(public=False, name="Secret cup")
    boris = ding_niu.entries[1].player
    tournament_page = client.get(reverse("public-player", args=[ding_niu.tournament.slug, boris.pk]))
    url = reverse("public-club-player", args=[boris.pk])
    assert url.encode() in tournament_page.content
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert ding_niu.tournament.name in html and "Secret cup" not in html
    assert 'id="stats-ding_niu"' in html and 'class="suanzhang-suffered">1<' in html
    assert 'class="net">-4<' in html  # Boris's net in the deal (bodies.DING_NIU_LED_BY_1_NETS)


def test_chinese_page(ding_niu, client):
    round_record(actor=ding_niu.director_actor, table=ding_niu.table, body=DING_NIU_LED_BY_1)
    boris = ding_niu.entries[1].player
    page = client.get(reverse("public-club-player", args=[boris.pk]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert page.status_code == 200 and "算账" in page.content.decode()


def test_no_public_tournament_404(ding_niu, client):
    Tournament.objects.filter(pk=ding_niu.tournament.pk).update(public=False)
    assert client.get(reverse("public-club-player", args=[ding_niu.entries[0].player.pk])).status_code == 404
