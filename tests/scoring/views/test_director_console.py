"""The director's console (the tournament page): the same size at 30 deals and at 3,000; disputes
first, each with its settle form, which asks for a note; the shown session's tables as a grid,
a switcher to the others; the finish warning as a count; long lists a page at a time."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.domain.actors import Actor
from scoring.models import ActionLog, Round, Session
from scoring.services.rounds import round_dispute, round_record
from scoring.services.seating import session_seat
from scoring.services.sessions import session_clock_start, session_close

from ..bodies import JIE_LONG
from ..many_deals import add_deals

pytestmark = pytest.mark.django_db


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def url(setup, query: str = "") -> str:
    return f"/director/tournaments/{setup.tournament.pk}/{query}"


def text(response) -> str:
    """The page's text, tags dropped and spaces collapsed."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def section(page: str, name: str) -> str:
    start = page.index(f'<section id="{name}">')
    return page[start:page.index("</section>", start)]


def dispute(pk: int, message: str = "check") -> Round:
    """The deal ``pk`` disputed by its table's scorer."""
    rnd = Round.objects.get(pk=pk)
    return round_dispute(actor=Actor(table=rnd.table, ip="10.0.0.9"), round=rnd, message=message)


# --- the size ------------------------------------------------------------------------------------

def test_the_console_is_the_same_size_at_30_and_3000_deals(make_setup, dclient):
    sizes, live = {}, {}
    for n in (30, 3000):
        s = make_setup("jie_long", require_confirmation=True)   # unconfirmed deals are told
        ids = add_deals(s, n)
        for pk in ids[:2]:
            dispute(pk)
        response = dclient.get(url(s))
        assert response.status_code == 200
        sizes[n] = len(response.content)
        live[n] = len(dclient.get(url(s, "live/")).content)
        page = response.content.decode()
        assert f"{n} deals are not confirmed" in page and "2 disputes stay open" in page
        assert page.count("#deal-") <= 20 + 2 * 2   # a page of unsettled deals, the disputes' links
    assert sizes[3000] <= 1.5 * sizes[30], sizes
    assert live[3000] <= 1.5 * live[30], live


# --- disputes first, the settle form ----------------------------------------------------------------

def test_disputes_come_first_each_with_its_deal_and_settle_form(dclient, jie_long):
    first = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    dispute(first.pk, "Bob had 6:6")
    page = dclient.get(url(jie_long)).content.decode()
    disputes = section(page, "disputed")
    assert page.index('id="disputed"') < page.index('id="tables"') < page.index('id="unsettled"')
    assert f'href="/director/tables/{jie_long.table.pk}/#deal-1"' in disputes
    assert f'action="/director/deals/{first.pk}/resolve/"' in disputes
    assert re.search(r'<input id="settle-\d+" name="note" type="text" maxlength="\d+" required>', disputes)
    assert '<input type="hidden" name="from" value="console">' in disputes


def test_settling_refuses_an_empty_note_under_the_field(dclient, jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    dispute(rnd.pk)
    resolve = f"/director/deals/{rnd.pk}/resolve/"
    for note in ("", "   "):
        response = dclient.post(f"{resolve}?deals_page=2", {"note": note, "from": "console"})
        assert response.status_code == 400
        card = section(response.content.decode(), "disputed")   # the console again
        assert re.search(rf'id="settle-{rnd.pk}"[^>]*aria-invalid="true" aria-describedby="settle-{rnd.pk}-error"',
                         card)
        assert f'<p class="field-error" id="settle-{rnd.pk}-error" role="alert">Write a note: what you decided and why.' \
               in card
        rnd.refresh_from_db()
        assert rnd.disputed
    # The console answered at the form's address: its links and live parts still ask for the console.
    assert f'data-live-src="{url(jie_long, "live/?deals_page=2")}"' in response.content.decode()
    # The table page's form asks for it too.
    response = dclient.post(resolve, {"note": ""})
    assert response.status_code == 400 and "Write a note: what you decided and why." in response.content.decode()
    assert not ActionLog.objects.filter(action="round_dispute_resolve").exists()
    # Written: settled, back to the console as it was shown.
    response = dclient.post(f"{resolve}?deals_page=2", {"note": "Bob recounted", "from": "console"})
    assert response.status_code == 302 and response["Location"] == url(jie_long, "?deals_page=2#disputed")
    rnd.refresh_from_db()
    assert not rnd.disputed
    assert ActionLog.objects.get(action="round_dispute_resolve").data["note"] == "Bob recounted"
    # The same form again (another tab): refused, said on top of the console.
    again = dclient.post(resolve, {"note": "Bob recounted", "from": "console"})
    assert again.status_code == 409 and "This deal is not disputed." in again.content.decode()


def test_the_api_keeps_the_note_optional(director_client, jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    dispute(rnd.pk)
    response = director_client.post(f"/api/v1/rounds/{rnd.pk}/resolve/", {}, format="json")
    assert response.status_code == 200 and response.json()["disputed"] is False


# --- the finish warning and the long lists -----------------------------------------------------------

def test_the_finish_warning_is_a_count_and_the_deals_a_page_at_a_time(dclient, make_setup):
    jie_long = make_setup("jie_long", require_confirmation=True)   # unconfirmed deals are told
    add_deals(jie_long, 45)
    page = dclient.get(url(jie_long)).content.decode()
    finish = section(page, "finish")
    assert "<details" in finish and "<summary" in finish and "45 deals are not confirmed" in finish
    assert "dispute" not in finish.split("<form")[0]
    assert "#deal-" not in finish   # no list there
    listed = section(page, "unsettled")
    assert "Deals not confirmed or disputed (45)" in listed
    assert re.findall(r"Table 1, deal (\d+)</a>", listed) == [str(n) for n in range(1, 21)]
    assert "1–20 of 45" in listed and f'href="{url(jie_long)}?deals_page=2#unsettled"' in listed
    second = section(dclient.get(url(jie_long, "?deals_page=2")).content.decode(), "unsettled")
    assert re.findall(r"Table 1, deal (\d+)</a>", second) == [str(n) for n in range(21, 41)]
    assert f'href="{url(jie_long)}?deals_page=1#unsettled"' in second
    assert f'href="{url(jie_long)}?deals_page=3#unsettled"' in second
    # Beyond the last page: the last; anything but a page number: the first.
    for asked, shown in [("3", "41"), ("4", "41"), ("999999999999999999999999", "41"), ("0", "1"), ("-2", "1"),
                         ("abc", "1"), ("", "1"), ("²", "1")]:
        response = dclient.get(url(jie_long, f"?deals_page={asked}"))
        assert response.status_code == 200
        assert re.findall(r"Table 1, deal (\d+)</a>", section(response.content.decode(), "unsettled"))[0] == shown


def test_recent_actions_and_disputes_come_a_page_at_a_time(dclient, jie_long):
    ids = add_deals(jie_long, 30)
    for pk in ids[:12]:
        dispute(pk)
    page = dclient.get(url(jie_long)).content.decode()
    assert page.count('class="card errors disputed-deal"') == 10 and "Disputed deals (12)" in page
    log = section(page, "log")
    assert log.split("<tbody>")[1].count("<tr>") == 20
    total = ActionLog.objects.filter(tournament=jie_long.tournament).count()
    assert f"1–20 of {total}" in log
    page = dclient.get(url(jie_long, "?disputes_page=2&actions_page=99")).content.decode()
    assert page.count('class="card errors disputed-deal"') == 2
    assert f"{20 * (total // 20) + 1}–{total} of {total}" in section(page, "log")
    # Each pager keeps the other lists' pages.
    assert f'href="{url(jie_long)}?disputes_page=1&amp;actions_page=99#disputed"' in page


# --- the tables ------------------------------------------------------------------------------------

def test_the_grid_shows_the_newest_open_session_and_switches_to_the_others(dclient, jie_long, club, director_actor):
    from scoring.services.clubs import player_create
    from scoring.services.tournaments import entry_create

    s = jie_long
    for name in ["Eve", "Fay", "Gil", "Hal"]:
        entry_create(actor=director_actor, tournament=s.tournament, player=player_create(actor=director_actor,
                                                                                         club=club, name=name))
    session_seat(actor=director_actor, tournament=s.tournament, method="random", table_size=4, leftovers="sit_out",
                 seed="7", keep_open=True)
    grid = section(dclient.get(url(s)).content.decode(), "tables")
    assert "Session 2 · Table 1" in grid and "Session 2 · Table 2" in grid and "Session 1 · Table 1" not in grid
    assert f'href="{url(s)}?session=1#tables"' in grid and f'href="{url(s)}?session=2#tables" aria-current="page"' in grid
    grid = section(dclient.get(url(s, "?session=1")).content.decode(), "tables")
    assert "Session 1 · Table 1" in grid and "Session 2 · Table 1" not in grid
    live = dclient.get(url(s, "live/?session=1")).content.decode()
    assert "Session 1 · Table 1" in live and "Session 2 · Table" not in live
    assert f'data-live-src="{url(s, "live/?session=1")}"' in dclient.get(url(s, "?session=1")).content.decode()
    # The newest closed: the newest open one is shown.
    session_close(actor=director_actor, session=Session.objects.get(tournament=s.tournament, number=2))
    grid = section(dclient.get(url(s)).content.decode(), "tables")
    assert "Session 1 · Table 1" in grid and "Session 2 · Table 1" not in grid
    for wrong in ("3", "0", "abc", ""):
        assert dclient.get(url(s, f"?session={wrong}")).status_code == 404
        assert dclient.get(url(s, f"live/?session={wrong}")).status_code == 404


def test_a_table_says_how_long_since_its_last_deal_and_whether_it_is_still_playing(dclient, jie_long):
    s = jie_long
    assert "No deal yet" in text(dclient.get(url(s)))
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    assert "Last deal under a minute ago" in text(dclient.get(url(s)))
    Round.objects.filter(pk=rnd.pk).update(created_at=timezone.now() - timedelta(minutes=7, seconds=5))
    assert "Last deal 7 minutes ago" in text(dclient.get(url(s)))
    session_clock_start(actor=s.director_actor, session=s.table.session, minutes=5)
    assert 'class="badge still-playing"' not in dclient.get(url(s)).content.decode()
    Session.objects.filter(pk=s.table.session_id).update(clock_started_at=timezone.now() - timedelta(minutes=6),
                                                         clock_ends_at=timezone.now() - timedelta(minutes=1))
    card = section(dclient.get(url(s)).content.decode(), "tables")
    assert '<span class="badge still-playing">still playing</span>' in card


def test_the_live_parts_are_new_each_minute_and_not_between(dclient, jie_long, monkeypatch):
    live = url(jie_long, "live/")
    moment = timezone.now().replace(second=10)
    monkeypatch.setattr(timezone, "now", lambda: moment)
    first = dclient.get(live)
    assert 'data-live-part="tables"' in first.content.decode()
    assert dclient.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    monkeypatch.setattr(timezone, "now", lambda: moment + timedelta(seconds=40))
    assert dclient.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    monkeypatch.setattr(timezone, "now", lambda: moment + timedelta(seconds=60))
    assert dclient.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


# --- a disputed deal changed after the referee was called ------------------------------------------

def test_a_dispute_card_shows_the_deal_as_disputed_and_what_changed_since(dclient, jie_long):
    from scoring.services.rounds import round_correct

    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={**JIE_LONG, "entered_by": 1})
    dispute(rnd.pk, "Bob had 6:6")
    card = section(dclient.get(url(jie_long)).content.decode(), "disputed")
    assert "changed after the dispute was raised" not in card and "As it was when" not in card

    round_correct(actor=jie_long.director_actor, round=rnd, body={**JIE_LONG, "points": [2, 12, 30, 22]},
                  reason="Celine recounted", expected_revision=1)
    card = section(dclient.get(url(jie_long)).content.decode(), "disputed")
    assert "revision 2" in card and "changed after the dispute was raised" in card
    shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", card))
    assert "As it was when the referee was called (revision 1)" in shown
    assert "Now (revision 2)" in shown
    assert re.search(r"revision 2 at \d\d:\d\d:\d\d by [^:]+: Celine recounted", shown)
    # the deal as disputed comes before the deal as it is now
    assert shown.index("As it was when") < shown.index("Now (revision 2)")
    # the live part says the same
    live = dclient.get(f"/director/tournaments/{jie_long.tournament.pk}/live/").content.decode()
    assert "changed after the dispute was raised" in live

    # the deal's revisions (the table page's, when asked) mark the one made after the dispute,
    # not the one disputed
    page = dclient.get(f"/director/deals/{rnd.pk}/revisions/").content.decode()
    summaries = re.findall(r"<summary>Revision (\d)(.*?)</summary>", page, flags=re.S)
    assert [(n, "changed after the dispute was raised" in rest) for n, rest in summaries] == [("2", True),
                                                                                              ("1", False)]
