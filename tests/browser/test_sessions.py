"""Sessions in a real browser at 390×844: the old link of a session the director closed by seating
the next one refuses the deal, says the session has ended and where everyone sits now, and keeps
the deal typed before on show (static/js/deal-drafts.js); the session clock shows the server's
time left on every phone, whatever the phone's own clock says (static/js/clock.js)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from scoring.services.seating import session_seat
from scoring.services.sessions import session_clock_start

from .test_scorer_page import DING_NIU_POINTS, fill_points_deal, scorer_url, seat

pytestmark = pytest.mark.django_db(transaction=True)

#: A phone whose clock is seven minutes fast: every Date it makes, and Date.now().
FAST_CLOCK = """
(() => {
  const shift = 7 * 60 * 1000;
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  class FastDate extends RealDate {
    constructor(...args) { if (args.length) { super(...args); } else { super(realNow() + shift); } }
    static now() { return realNow() + shift; }
  }
  window.Date = FastDate;
})();
"""


def test_the_old_link_refuses_the_deal_and_keeps_it_on_show(live_server, make_page, make_setup):
    s = make_setup("ding_niu")
    phone = make_page("phone390")
    phone.goto(scorer_url(live_server, s))
    fill_points_deal(phone, s.names, DING_NIU_POINTS, entered_by="1. Adam")
    # Meanwhile the director seats session 2: session 1 is closed.
    seated = session_seat(actor=s.director_actor, tournament=s.tournament, method="random", table_size=4,
                          leftovers="sit_out", seed="5")
    assert seated.closed == [1]
    with phone.expect_navigation():
        phone.get_by_role("button", name="Submit", exact=True).click()
    ended = phone.locator("#session-ended")
    expect(ended).to_contain_text("This table's session has ended")
    expect(ended).to_contain_text("Adam → Session 2 · Table 1, seat ")
    expect(ended).to_contain_text("George → Session 2 · Table 1, seat ")
    expect(phone.get_by_role("button", name="Submit", exact=True)).to_have_count(0)
    # The deal typed before is on show, read-only, and still on the phone.
    draft = phone.locator("#unsent-draft")
    expect(draft).to_be_visible()
    expect(draft).to_contain_text("ask the director to record it")
    george = seat(phone, 3, "George").get_by_label("Points", exact=True)
    expect(george).to_have_value("10")
    expect(george).to_be_disabled()
    assert phone.evaluate("Object.keys(localStorage).filter(k => k.startsWith('gupai-draft:')).length") == 1
    assert Round.objects.count() == 0
    # Opened again later: the same.
    phone.reload()
    expect(seat(phone, 3, "George").get_by_label("Points", exact=True)).to_have_value("10")


def seconds_shown(page) -> int:
    text = page.locator("[data-clock-text]").first.inner_text()
    m = re.search(r"(?:(\d+):)?(\d+):(\d\d)", text)
    assert m, text
    hours, minutes, seconds = (int(g or 0) for g in m.groups())
    return hours * 3600 + minutes * 60 + seconds


def test_two_phones_show_the_same_time_left(live_server, make_page, make_setup):
    s = make_setup("ding_niu")
    session_clock_start(actor=s.director_actor, session=s.table.session, minutes=30)
    first = make_page("phone390")
    first.goto(scorer_url(live_server, s))
    expect(first.locator("[data-clock-text]")).to_contain_text("Time left: ")
    first.wait_for_timeout(3000)
    # A few seconds later, on another phone whose clock is seven minutes fast: the public table page.
    second = make_page("phone390")
    second.add_init_script(FAST_CLOCK)
    second.goto(f"{live_server.url}/t/{s.tournament.slug}/tables/{s.table.pk}/")
    expect(second.locator("[data-clock-text]")).to_contain_text("Time left: ")
    second.wait_for_timeout(1200)   # the count has ticked on both
    a, b = seconds_shown(first), seconds_shown(second)
    assert abs(a - b) <= 1, (a, b)
    assert 29 * 60 - 10 < a < 30 * 60
