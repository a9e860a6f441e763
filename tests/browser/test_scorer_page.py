"""The scorer's table page /s/<token>/ in a real browser on a 360-px phone: preview, submit,
no double deals (reload, double tap), the tile level, an error at its seat,
confirm by another seat, dispute. The page must never scroll sideways."""

from __future__ import annotations

import re
import threading
import time

import pytest
from django.core.signals import request_finished, request_started
from playwright.sync_api import expect

from scoring.models import Round

from .conftest import assert_no_horizontal_scroll

pytestmark = pytest.mark.django_db(transaction=True)

#: Ding Niu points of the deal used below (seats Adam, Boris, Valentine, George, Adam led).
DING_NIU_POINTS = [0, 6, 6, 10]
DING_NIU_PAYMENTS = ["Boris pays Adam 2", "Valentine pays Adam 1", "George pays Adam 3"]
DING_NIU_TOTALS = {"1. Adam": "6", "2. Boris": "-2", "3. Valentine": "-1", "4. George": "-3"}


def scorer_url(live_server, setup) -> str:
    return f"{live_server.url}/s/{setup.token}/"


def seat(page, position: int, name: str):
    """A seat's box of the deal form (a fieldset: its legend is "<n>. <name>")."""
    return page.get_by_role("group", name=f"{position + 1}. {name}", exact=True)


def fill_points_deal(page, names, points, *, entered_by: str) -> None:
    for i, (name, p) in enumerate(zip(names, points)):
        seat(page, i, name).get_by_label("Points", exact=True).fill(str(p))
    page.get_by_label("Led by").select_option(label=f"1. {names[0]}")
    page.get_by_label("Entered by").select_option(label=entered_by)


def fill_tiles_deal(page, names, tiles, *, entered_by: str) -> None:
    page.get_by_role("radio", name="Unplayed tiles").check()
    for i, (name, text) in enumerate(zip(names, tiles)):
        seat(page, i, name).get_by_label("Unplayed tiles", exact=True).fill(text)
    page.get_by_label("Entered by").select_option(label=entered_by)


def press(page, button: str) -> None:
    """Press a form button and wait for its answer: Preview shows the preview in the page (fetch,
    no new page), a Submit that records loads the page of the next deal."""
    if button == "Preview":
        page.get_by_role("button", name=button, exact=True).click()
        expect(page.locator("#preview")).to_be_visible()
        return
    with page.expect_navigation():
        page.get_by_role("button", name=button, exact=True).click()


def tap(page, button: str) -> None:
    """Press a form button whose answer stays on the page (a refusal)."""
    page.get_by_role("button", name=button, exact=True).click()


def totals(page) -> dict[str, str]:
    rows = page.locator("#totals tbody tr")
    return {r.locator("td").nth(0).inner_text(): r.locator("td").nth(1).inner_text() for r in rows.all()}


def recorded_deal(page, live_server, setup, names, points=DING_NIU_POINTS, *, entered_by=None) -> None:
    """Open the scorer page and submit one points deal through it."""
    page.goto(scorer_url(live_server, setup))
    fill_points_deal(page, names, points, entered_by=entered_by or f"1. {names[0]}")
    press(page, "Submit")
    expect(page.locator("#deal-1")).to_be_visible()


class SlowPosts:
    """The live server answers every POST ``delay`` seconds late (a phone on poor Wi-Fi), so that
    a second click lands while the first request is still being answered. Counts the POSTs."""

    def __init__(self, delay: float):
        self.delay = delay
        self.lock = threading.Lock()
        self.posts: list[str] = []
        self.answered = 0
        self._local = threading.local()

    def started(self, sender, environ=None, **kwargs):
        self._local.post = (environ or {}).get("REQUEST_METHOD") == "POST"
        if self._local.post:
            with self.lock:
                self.posts.append(environ.get("PATH_INFO", ""))
            time.sleep(self.delay)

    def finished(self, sender, **kwargs):
        if getattr(self._local, "post", False):
            self._local.post = False
            with self.lock:
                self.answered += 1

    def wait_answered(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if self.answered >= len(self.posts):
                    return
            time.sleep(0.02)
        raise AssertionError(f"the server answered {self.answered} of {len(self.posts)} POSTs")


@pytest.fixture
def slow_posts():
    slow = SlowPosts(delay=0.5)
    request_started.connect(slow.started)
    request_finished.connect(slow.finished)
    yield slow
    request_started.disconnect(slow.started)
    request_finished.disconnect(slow.finished)


# --- preview, submit, no second deal ------------------------------------------------------------

def test_preview_shows_the_payments_and_stores_nothing_then_submit_records_once(live_server, phone, make_setup):
    s = make_setup("ding_niu")
    names = s.names
    phone.goto(scorer_url(live_server, s))
    expect(phone.get_by_role("heading", name="Deal 1")).to_be_visible()
    assert_no_horizontal_scroll(phone)

    fill_points_deal(phone, names, DING_NIU_POINTS, entered_by="1. Adam")
    press(phone, "Preview")
    preview = phone.locator("#preview")
    expect(preview).to_contain_text("nothing is stored yet")
    for line in DING_NIU_PAYMENTS:
        expect(preview.get_by_role("listitem").filter(has_text=line)).to_have_count(1)
    expect(phone.locator("#deals")).to_contain_text("No deals yet.")
    assert Round.objects.count() == 0
    assert totals(phone) == {k: "0" for k in DING_NIU_TOTALS}
    # the form keeps what was typed
    assert seat(phone, 3, "George").get_by_label("Points", exact=True).input_value() == "10"
    assert_no_horizontal_scroll(phone)
    entries = phone.evaluate("history.length")

    press(phone, "Submit")
    expect(phone.get_by_role("listitem").filter(has_text="Deal 1 recorded.")).to_be_visible()
    deal = phone.locator("#deal-1")
    for line in DING_NIU_PAYMENTS:
        expect(deal).to_contain_text(line)
    expect(deal).to_contain_text("Entered by Adam.")
    assert totals(phone) == DING_NIU_TOTALS
    expect(phone.locator("#totals")).to_contain_text("1 deal counted.")
    expect(phone.get_by_role("heading", name="Deal 2")).to_be_visible()  # the next deal's form
    assert Round.objects.count() == 1
    assert Round.objects.get().current_revision.body["points"] == DING_NIU_POINTS
    assert_no_horizontal_scroll(phone)

    # The saved deal is in view above the next deal's form; reloading posts nothing again (preview
    # and submit were sent with fetch, and the saved page replaced the form's in the history).
    expect(phone.locator("#saved")).to_contain_text("Deal 1 is saved")
    assert phone.evaluate("history.length") == entries  # no page of a POST to go Back to
    phone.reload()
    expect(phone.get_by_role("heading", name="Deal 2")).to_be_visible()
    expect(phone.locator("#deals article.deal")).to_have_count(1)
    assert totals(phone) == DING_NIU_TOTALS
    assert Round.objects.count() == 1
    assert_no_horizontal_scroll(phone)


def test_a_double_tap_on_submit_records_one_deal(live_server, phone, make_setup, slow_posts):
    s = make_setup("ding_niu")
    phone.goto(scorer_url(live_server, s))
    fill_points_deal(phone, s.names, DING_NIU_POINTS, entered_by="1. Adam")
    submit = phone.get_by_role("button", name="Submit", exact=True)
    submit.scroll_into_view_if_needed()
    box = submit.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # Two taps 40 ms apart at the button, while the first answer is still on its way. (Taps at
    # a point, not on the locator: Playwright would wait for the next page and tap its form.)
    phone.touchscreen.tap(x, y)
    phone.wait_for_timeout(40)
    phone.touchscreen.tap(x, y)
    expect(phone.locator(".messages")).to_have_text(
        re.compile(r"Deal 1 (recorded\.|was already recorded from this form; it was not recorded twice\.)"))
    slow_posts.wait_answered()
    # The page sends a deal once while it is on its way (deal-drafts.js); were it sent twice, its
    # one Idempotency-Key would still make it one deal (tests/scoring/views/test_scorer.py).
    assert len(slow_posts.posts) == 1, f"the server got {len(slow_posts.posts)} POST(s)"
    assert Round.objects.count() == 1
    expect(phone.locator("#deals article.deal")).to_have_count(1)
    assert totals(phone) == DING_NIU_TOTALS
    assert_no_horizontal_scroll(phone)


# --- the tile level and errors at their seat ----------------------------------------------------

def test_a_jie_long_deal_typed_as_unplayed_tiles_is_recorded(live_server, phone, make_setup):
    s = make_setup("jie_long")  # Anna, Bob, Celine, Dominic
    phone.goto(scorer_url(live_server, s))
    fill_tiles_deal(phone, s.names, ["6:4 3:1", "", "[5:5]", "12"], entered_by="2. Bob")
    # the points inputs give way to the tile inputs
    expect(seat(phone, 0, "Anna").get_by_label("Points", exact=True)).to_be_hidden()
    assert_no_horizontal_scroll(phone)
    press(phone, "Submit")
    expect(phone.get_by_role("listitem").filter(has_text="Deal 1 recorded.")).to_be_visible()
    deal = phone.locator("#deal-1")
    for line in ("Anna pays Bob 14", "Celine pays Bob 10", "Dominic pays Bob 3", "Anna pays Dominic 11"):
        expect(deal).to_contain_text(line)
    assert totals(phone) == {"1. Anna": "-29", "2. Bob": "27", "3. Celine": "-13", "4. Dominic": "15"}
    rnd = Round.objects.get()
    assert rnd.current_revision.body["unplayed_tiles"] == [["6:4", "3:1"], [], ["5:5"], ["2:1"]]
    assert rnd.entered_by == 1
    assert_no_horizontal_scroll(phone)


def test_a_bad_tile_is_shown_at_its_seat_and_nothing_is_stored(live_server, phone, make_setup):
    s = make_setup("jie_long")
    phone.goto(scorer_url(live_server, s))
    fill_tiles_deal(phone, s.names, ["6:4 3:1", "7:1", "5:5", "2:1"], entered_by="1. Anna")
    tap(phone, "Submit")
    expect(phone.locator("#form-problems")).to_contain_text("Nothing was stored")
    assert Round.objects.count() == 0

    bob = seat(phone, 1, "Bob").get_by_label("Unplayed tiles", exact=True)
    expect(bob).to_have_value("7:1")  # what was typed stays, to be fixed
    expect(bob).to_have_attribute("aria-invalid", "true")
    expect(bob).to_have_accessible_description(re.compile(r"'7:1' is not a tile"))
    error = seat(phone, 1, "Bob").get_by_role("alert")
    expect(error).to_contain_text("'7:1' is not a tile")
    # right under Bob's input, not somewhere else on the page
    box, err = bob.bounding_box(), error.bounding_box()
    assert box and err and 0 <= err["y"] - (box["y"] + box["height"]) < 40
    assert err["x"] < box["x"] + box["width"] and box["x"] < err["x"] + err["width"]
    for i, name in ((0, "Anna"), (2, "Celine"), (3, "Dominic")):
        expect(seat(phone, i, name).get_by_role("alert")).to_have_count(0)
        expect(seat(phone, i, name).get_by_label("Unplayed tiles", exact=True)).not_to_have_attribute(
            "aria-invalid", "true")
    assert_no_horizontal_scroll(phone)

    bob.fill("")  # Bob played out: now it is a deal
    press(phone, "Submit")
    expect(phone.get_by_role("listitem").filter(has_text="Deal 1 recorded.")).to_be_visible()
    assert Round.objects.count() == 1
    assert_no_horizontal_scroll(phone)


# --- confirm, dispute ---------------------------------------------------------------------------

def test_another_seat_confirms_the_deal(live_server, phone, make_setup):
    s = make_setup("ding_niu")
    recorded_deal(phone, live_server, s, s.names, entered_by="1. Adam")
    deal = phone.locator("#deal-1")
    confirmed_by = deal.get_by_label("Confirmed by")
    # the one who entered it cannot confirm it
    options = confirmed_by.locator("option").all_inner_texts()
    assert options == ["2. Boris", "3. Valentine", "4. George"]
    assert_no_horizontal_scroll(phone)
    confirmed_by.select_option(label="3. Valentine")
    with phone.expect_navigation():
        deal.get_by_role("button", name="Confirm").click()
    expect(phone.get_by_role("listitem").filter(has_text="Deal 1 confirmed.")).to_be_visible()
    deal = phone.locator("#deal-1")
    expect(deal.locator(".badge.confirmed")).to_have_text("confirmed")
    expect(deal).to_contain_text("Confirmed by Valentine.")
    expect(deal.get_by_role("button", name="Confirm")).to_have_count(0)
    expect(deal.get_by_role("link", name="Correct")).to_have_count(0)  # confirmed: the director's now
    rnd = Round.objects.get()
    assert (rnd.status, rnd.confirmed_by) == (Round.Status.CONFIRMED, 2)
    assert_no_horizontal_scroll(phone)


def test_the_scorer_calls_the_referee(live_server, phone, make_setup):
    s = make_setup("ding_niu")
    recorded_deal(phone, live_server, s, s.names)
    deal = phone.locator("#deal-1")
    message = deal.get_by_label("What is wrong?")
    expect(message).to_be_hidden()  # folded away until asked for
    deal.get_by_text("Call the referee").click()
    message.fill("George says he had 8 points, not 10")
    assert_no_horizontal_scroll(phone)
    with phone.expect_navigation():
        deal.get_by_role("button", name="Dispute").click()
    expect(phone.get_by_role("listitem").filter(has_text="Deal 1 is flagged for the referee.")).to_be_visible()
    deal = phone.locator("#deal-1")
    expect(deal.locator(".badge.disputed")).to_have_text("disputed")
    expect(deal).to_contain_text("Referee called: George says he had 8 points, not 10")
    # a disputed deal waits for the director: no confirming or disputing again at the table
    expect(deal.get_by_role("button", name="Confirm")).to_have_count(0)
    expect(deal.get_by_text("Call the referee")).to_have_count(0)
    rnd = Round.objects.get()
    assert rnd.disputed and rnd.dispute_message == "George says he had 8 points, not 10"
    assert Round.objects.count() == 1
    assert_no_horizontal_scroll(phone)


def test_da_lings_absolute_winner_and_group_winners_exclude_each_other_before_submit(live_server, phone, make_setup):
    """Tapping a group winner sets the absolute winner back to none, and the other way round
    (the game's ``Winner.excludes``, followed by static/js/deal-form.js)."""
    s = make_setup("da_ling", names=["P1", "P2", "P3"])
    phone.goto(scorer_url(live_server, s))
    phone.locator('input[name="level"][value="winners"]').check(force=True)
    absolute = phone.get_by_role("group", name="Absolute winner")
    group2 = phone.get_by_role("group", name="Winner of the 2-tile group")
    absolute.get_by_label("2. P2").check()
    expect(absolute.locator('input[value="1"]')).to_be_checked()
    group2.get_by_label("3. P3").check()
    expect(absolute.locator('input[value=""]')).to_be_checked()
    expect(group2.locator('input[value="2"]')).to_be_checked()
    absolute.get_by_label("1. P1").check()
    expect(group2.locator('input[value=""]')).to_be_checked()
    assert Round.objects.count() == 0
