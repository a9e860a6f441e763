"""The director's table page: the same size and the same queries at 20 deals and at 5,000 (a page
of the newest deals, older ones by ``?page=``); a deal's revisions when asked; "Confirm all shown"
for the paper-sheet and late deals shown, refused when one changed since the page was drawn."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import ActionLog, Round
from scoring.selectors.rounds import TABLE_PAGE_SIZE
from scoring.services.paper_sheet_entry import paper_sheet_record
from scoring.services.rounds import round_correct

from ..bodies import JIE_LONG
from ..many_deals import add_deals

pytestmark = pytest.mark.django_db


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def table_url(setup, query: str = "") -> str:
    return f"/director/tables/{setup.table.pk}/{query}"


def numbers(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'<article class="card deal[^"]*" id="deal-(\d+)"', page)]


def shown_deals(page: str) -> list[str]:
    return re.findall(r'<input type="hidden" name="deal" value="([^"]+)">', page)


# --- the size ------------------------------------------------------------------------------------

def test_the_table_page_is_the_same_size_and_the_same_queries_at_20_and_5000_deals(make_setup, dclient):
    sizes, queries = {}, {}
    for n in (20, 5000):
        s = make_setup("jie_long")
        add_deals(s, n)
        Round.objects.filter(table=s.table).update(paper_sheet=True)   # the button's form at its fullest
        dclient.get(table_url(s))                                    # caches warmed (the session, translations)
        with CaptureQueriesContext(connection) as read:
            response = dclient.get(table_url(s))
        assert response.status_code == 200
        page = response.content.decode()
        assert numbers(page) == list(range(n, n - TABLE_PAGE_SIZE, -1))
        assert len(shown_deals(page)) == TABLE_PAGE_SIZE
        sizes[n], queries[n] = len(response.content), len(read.captured_queries)
    assert queries[5000] == queries[20], queries
    assert sizes[5000] <= sizes[20] + 1000, sizes     # only the pager and the numbers' digits more


# --- paging --------------------------------------------------------------------------------------

def test_older_deals_come_a_page_at_a_time(jie_long, dclient):
    add_deals(jie_long, 45)
    first = dclient.get(table_url(jie_long)).content.decode()
    assert numbers(first) == list(range(45, 25, -1))
    assert 'href="?page=2#deals" rel="next"' in first and "1–20 of 45" in first
    last = dclient.get(table_url(jie_long, "?page=3")).content.decode()
    assert numbers(last) == list(range(5, 0, -1)) and 'href="?page=2#deals" rel="prev"' in last
    # A page beyond the last is the last; what is no page number, the first.
    assert numbers(dclient.get(table_url(jie_long, "?page=99")).content.decode()) == numbers(last)
    for bad in ("?page=abc", "?page=-1", "?page=%EF%BC%92", "?page=" + "9" * 5000, "?deal=x", "?deal=99"):
        assert numbers(dclient.get(table_url(jie_long, bad)).content.decode()) == numbers(first)
    # Other pages link to a deal by its number: the page that shows it.
    assert numbers(dclient.get(table_url(jie_long, "?deal=3")).content.decode()) == numbers(last)


def test_a_move_returns_to_the_page_that_shows_its_deal(jie_long, dclient):
    add_deals(jie_long, 45)
    deal = Round.objects.get(table=jie_long.table, number=3)      # on the third page
    response = dclient.post(f"/director/deals/{deal.pk}/confirm/", {})
    assert response.status_code == 302 and response["Location"] == table_url(jie_long, "?page=3#deal-3")
    refused = dclient.post(f"/director/deals/{deal.pk}/confirm/", {})   # again: already confirmed
    assert refused.status_code == 409 and 3 in numbers(refused.content.decode())


# --- revisions on demand -------------------------------------------------------------------------

def test_a_deals_revisions_are_read_when_asked(jie_long, dclient):
    rnd = paper_sheet_record(actor=jie_long.director_actor, table=jie_long.table, bodies=[JIE_LONG], key="k",
                             first_number=1).rounds[0]
    round_correct(actor=jie_long.director_actor, round=Round.objects.get(pk=rnd),
                  body={**JIE_LONG, "points": [2, 12, 30, 18]}, reason="Celine recounted", expected_revision=1)
    page = dclient.get(table_url(jie_long)).content.decode()
    assert "Revision 1" not in page and "Celine recounted" not in page and "chain ok" not in page
    assert f'data-revisions-src="/director/deals/{rnd}/revisions/part/"' in page and "2 revisions" in page
    assert f'href="/director/deals/{rnd}/revisions/"' in page      # without JavaScript
    part = dclient.get(f"/director/deals/{rnd}/revisions/part/").content.decode()
    assert "<html" not in part and "Revision 2 (current)" in part and "Revision 1" in part
    assert "Celine recounted" in part and "chain ok (2)" in part
    whole = dclient.get(f"/director/deals/{rnd}/revisions/").content.decode()
    assert "<html" in whole and "chain ok (2)" in whole and f'href="{table_url(jie_long)}#deal-1"' in whole


def test_another_clubs_deal_has_no_revisions_page(jie_long, client, django_user_model):
    other = django_user_model.objects.create_user("bob", password="pw-secret-1", is_staff=True)
    client.force_login(other)
    rnd = paper_sheet_record(actor=jie_long.director_actor, table=jie_long.table, bodies=[JIE_LONG], key="k",
                             first_number=1).rounds[0]
    assert client.get(f"/director/deals/{rnd}/revisions/").status_code == 404
    assert client.get(f"/director/deals/{rnd}/revisions/part/").status_code == 404


# --- confirm all shown ---------------------------------------------------------------------------

def test_confirm_all_shown_confirms_the_paper_sheet_deals_shown_and_returns_to_the_page(jie_long, dclient):
    s = jie_long
    add_deals(s, 20)                                       # typed by the director, not from a sheet
    sheet = paper_sheet_record(actor=s.director_actor, table=s.table, bodies=[JIE_LONG] * 3, key="k")
    add_deals(s, 20)                                       # the sheet's deals are on page 2 now
    page = dclient.get(table_url(s, "?page=2")).content.decode()
    assert sorted(shown_deals(page)) == sorted(f"{pk}:1" for pk in sheet.rounds)
    assert 'action="/director/tables/%d/confirm-shown/"' % s.table.pk in page
    response = dclient.post(f"/director/tables/{s.table.pk}/confirm-shown/",
                            {"page": "2", "deal": shown_deals(page)})
    assert response.status_code == 302 and response["Location"] == table_url(s, "?page=2#deals")
    assert set(Round.objects.filter(status=Round.Status.CONFIRMED).values_list("pk", flat=True)) == set(sheet.rounds)
    assert ActionLog.objects.filter(action=ActionLog.Action.ROUND_CONFIRM).count() == 3
    after = dclient.get(response["Location"]).content.decode()
    assert "3 deals of" in after and "confirmed." in after and not shown_deals(after)


def test_confirm_all_shown_refuses_a_deal_changed_since_the_page_was_drawn(jie_long, dclient):
    s = jie_long
    sheet = paper_sheet_record(actor=s.director_actor, table=s.table, bodies=[JIE_LONG] * 2, key="k")
    page = dclient.get(table_url(s)).content.decode()
    round_correct(actor=s.director_actor, round=Round.objects.get(pk=sheet.rounds[0]),
                  body={**JIE_LONG, "points": [2, 12, 30, 18]}, reason="recounted", expected_revision=1)
    response = dclient.post(f"/director/tables/{s.table.pk}/confirm-shown/", {"page": "1", "deal": shown_deals(page)})
    assert response.status_code == 412
    again = response.content.decode()
    assert "Nothing was confirmed" in again
    assert sorted(shown_deals(again)) == sorted([f"{sheet.rounds[0]}:2", f"{sheet.rounds[1]}:1"])   # drawn afresh
    assert not Round.objects.filter(status=Round.Status.CONFIRMED).exists()
    bad = dclient.post(f"/director/tables/{s.table.pk}/confirm-shown/", {"deal": ["x:1"]})
    assert bad.status_code == 400
    assert dclient.get(f"/director/tables/{s.table.pk}/confirm-shown/?page=2").status_code == 302
