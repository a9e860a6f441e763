"""The scorer page does not move after it is first painted (Lighthouse's Cumulative Layout Shift,
CLS), on a 390 × 844 phone. On a slow phone the page is painted before its deferred scripts run:
deal-form.js then hides the inputs of the levels not chosen and tile-picker.js puts a row of
picked tiles under every tiles input. static/css/site.css does the first and keeps the room of the
second from the start, so the scripts move nothing. The tests make the scripts late on purpose
(their answers held back), as a phone on a slow network would have them."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

#: The layout shifts not caused by the user, summed, as Lighthouse's CLS counts them (a buffered
#: PerformanceObserver also sees those from before it was made), once two frames have gone by.
CLS = """() => new Promise(resolve => {
    let total = 0;
    new PerformanceObserver(list => {
        for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value;
    }).observe({type: "layout-shift", buffered: true});
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(total), 200)));
})"""

#: When the page was first painted, and when the tile picker's script arrived (ms since navigation).
TIMES = """() => ({
    paint: performance.getEntriesByName("first-contentful-paint")[0].startTime,
    script: performance.getEntriesByType("resource").find(r => r.name.includes("/js/tile-picker")).responseEnd,
})"""


def open_with_late_scripts(page, url: str, delay: float = 0.6) -> None:
    """Open ``url`` with the site's scripts answered ``delay`` seconds late: the page is painted
    before they run."""

    def late(route):
        time.sleep(delay)
        route.continue_()

    page.route("**/static/js/*.js", late)
    page.goto(url, wait_until="load")
    expect(page.locator(".picked-box").first).to_be_attached()  # the picker has run


@pytest.mark.parametrize("game", ["ding_niu", "tau_ngau", "da_ling"])
def test_the_scorer_page_does_not_shift_when_its_scripts_run(live_server, make_page, make_setup, game):
    # Ding Niu: the points level shown, the tiles inputs hidden; Tau Ngau and Da Ling: tiles
    # inputs shown at every seat (each gets its row of picked tiles).
    s = make_setup(game)
    page = make_page("phone390")
    open_with_late_scripts(page, f"{live_server.url}/s/{s.token}/")
    times = page.evaluate(TIMES)
    assert times["paint"] < times["script"], times  # painted before the scripts came: a shift would count
    cls = page.evaluate(CLS)
    assert cls < 0.01, f"the scorer page shifted after its first paint: CLS {cls:.3f}"


def test_without_scripts_every_input_shows_and_no_room_is_kept(live_server, make_page, make_setup):
    """The room kept for the picker and the hidden levels are for pages whose scripts run."""
    s = make_setup("ding_niu")
    page = make_page("phone390", java_script_enabled=False)
    page.goto(f"{live_server.url}/s/{s.token}/")
    seat = page.locator("fieldset.seat").first
    expect(seat.get_by_label("Unplayed tiles", exact=True)).to_be_visible()  # every level's inputs
    expect(seat.get_by_label("Points", exact=True)).to_be_visible()
    field = seat.locator(".field:has(> input[data-tiles])").first
    room = field.evaluate("el => getComputedStyle(el, '::after').content")
    assert room in ("none", "normal"), room
