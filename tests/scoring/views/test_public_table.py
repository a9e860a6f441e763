"""A public table's page stays light however long the table: the newest deals a page at a time,
and a live answer with only what changed since the viewer's cursor. Sizes are the bodies as
sent by the view, not compressed (gzip would make them smaller still)."""

from __future__ import annotations

import gzip
import re

import pytest

from scoring.models import Round
from scoring.selectors.public import TABLE_PAGE_SIZE
from scoring.services.rounds import round_correct, round_dispute, round_record, round_void

from ..bodies import DING_NIU_FULL_LOG, DING_NIU_LED_BY_1, JIE_LONG
from ..bulk import bulk_deals

pytestmark = pytest.mark.django_db

#: The issue's long evening: 1,500 deals at one table, each a full move log (the heaviest deal).
LONG = 1500
FIRST_LOAD_MOST = 300_000
LIVE_UPDATE_MOST = 50_000


def _url(setup) -> str:
    return f"/t/{setup.tournament.slug}/tables/{setup.table.pk}/"


def _numbers(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-live-key="deal-(\d+)"', page)]


def _cursor(page: str) -> str:
    return re.search(r'data-live-src="[^"]*"[^>]*data-live-after="(\d+)"', page).group(1)


@pytest.fixture
def long_table(ding_niu):
    bulk_deals(ding_niu, DING_NIU_FULL_LOG, LONG)
    return ding_niu


def test_the_first_load_of_a_long_table_is_bounded(client, long_table, capsys):
    response = client.get(_url(long_table))
    page = response.content.decode()
    with capsys.disabled():
        print(f"\n  table page at {LONG} deals: {len(response.content)} bytes ({len(gzip.compress(response.content))} gzipped)")
    assert len(response.content) < FIRST_LOAD_MOST
    assert _numbers(page) == list(range(LONG, LONG - TABLE_PAGE_SIZE, -1))
    assert f"{LONG} deals recorded." in page and "Page 1 of 75" in page
    assert 'href="?page=2" rel="next"' in page and 'rel="prev"' not in page


def test_a_live_update_after_one_more_deal_sends_that_deal_only(client, long_table, capsys):
    page = client.get(_url(long_table)).content.decode()
    live = f"{_url(long_table)}live/?after={_cursor(page)}"
    first = client.get(live)
    assert first.status_code == 200 and _numbers(first.content.decode()) == []  # nothing changed since the page
    assert client.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    round_record(actor=long_table.scorer_actor, table=long_table.table, body=DING_NIU_FULL_LOG)
    response = client.get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    body = response.content.decode()
    with capsys.disabled():
        print(f"\n  live update at {LONG + 1} deals: {len(response.content)} bytes "
              f"({len(gzip.compress(response.content))} gzipped)")
    assert response.status_code == 200 and len(response.content) < LIVE_UPDATE_MOST
    assert _numbers(body) == [LONG + 1]
    assert 'data-live-part="deals"' not in body  # merged in by key, not the whole list again
    assert f"{LONG + 1} deals recorded." in body and 'data-live-part="seats"' in body
    after = re.search(r'data-live-list="deals" data-live-after="(\d+)"', body).group(1)
    assert int(after) > int(_cursor(page))


def test_a_correction_or_a_void_of_an_older_deal_comes_in_by_its_key(client, long_table, director_actor):
    page = client.get(_url(long_table)).content.decode()
    live = f"{_url(long_table)}live/?after={_cursor(page)}"
    rounds = {r.number: r for r in Round.objects.filter(table=long_table.table, number__in=[7, 1490, 1495])}
    round_correct(actor=director_actor, round=rounds[1490], body=DING_NIU_LED_BY_1, reason="points, not moves",
                  expected_revision=1)
    round_void(actor=director_actor, round=rounds[1495], reason="dealt twice")
    round_dispute(actor=director_actor, round=rounds[7], message="secret referee note")
    body = client.get(live).content.decode()
    assert sorted(_numbers(body)) == [7, 1490, 1495]
    assert '<div data-live-key="deal-1495" data-live-gone hidden></div>' in body
    deal_7 = body[body.index('id="deal-7"'):]
    assert '<span class="badge disputed">disputed</span>' in deal_7[:deal_7.index("</h3>")]
    assert "secret referee note" not in body
    assert f"{LONG - 1} deals recorded." in body


def test_too_many_changes_or_no_cursor_send_the_pages_list_again(client, long_table):
    for query in ("", "?after=0", "?after=x", "?page=2&after=0"):
        body = client.get(f"{_url(long_table)}live/{query}").content.decode()
        assert 'data-live-part="deals"' in body, query
        assert len(_numbers(body)) == TABLE_PAGE_SIZE, query
    assert _numbers(body)[0] == LONG - TABLE_PAGE_SIZE  # page 2
    body = client.get(f"{_url(long_table)}live/?page=99").content.decode()  # shrunk under the viewer: the last
    assert _numbers(body) == list(range(TABLE_PAGE_SIZE, 0, -1))


def test_older_deals_are_a_page_away_and_a_page_past_the_end_is_404(client, long_table):
    page = client.get(_url(long_table), {"page": "2"}).content.decode()
    assert _numbers(page) == list(range(LONG - TABLE_PAGE_SIZE, LONG - 2 * TABLE_PAGE_SIZE, -1))
    assert 'href="?page=1" rel="prev"' in page and 'href="?page=3" rel="next"' in page
    assert "data-live-prepend" not in page  # new deals belong on the first page only
    assert f'data-live-src="{_url(long_table)}live/?page=2"' in page
    last = client.get(_url(long_table), {"page": "75"}).content.decode()
    assert _numbers(last)[-1] == 1 and 'rel="next"' not in last
    assert client.get(_url(long_table), {"page": "76"}).status_code == 404
    for bad in ("0", "-1", "x", "1e3", "２"):
        assert client.get(_url(long_table), {"page": bad}).status_code == 404, bad
        assert client.get(f"{_url(long_table)}live/", {"page": bad}).status_code == 404, bad


def test_a_table_without_deals_has_one_page(client, jie_long):
    page = client.get(_url(jie_long)).content.decode()
    assert "No deal yet." in page and "Page 1 of" not in page
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    assert _numbers(client.get(_url(jie_long)).content.decode()) == [1]


def test_a_disputed_deal_is_marked_on_the_public_page_in_the_pages_language(client, jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    assert "badge disputed" not in client.get(_url(jie_long)).content.decode()
    round_dispute(actor=jie_long.scorer_actor, round=rnd, message="Bob had 14")
    page = client.get(_url(jie_long)).content.decode()
    assert '<span class="badge disputed">disputed</span>' in page and "Bob had 14" not in page
    page = client.get(_url(jie_long), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'class="badge disputed">有争议</span>' in page
