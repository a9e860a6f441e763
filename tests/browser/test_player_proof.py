"""Players' proof in a real browser, two phones (two browser contexts, 390 × 844) at one table of
a tournament that requires it: Chen proves who he is on phone A (a new code, typed twice) and
enters a deal; confirming it there as Chen is refused; Li proves who she is on phone B with her
code and confirms it in one tap."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from scoring.services.players import entry_code_set

from .conftest import assert_no_horizontal_scroll

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Chen", "Li", "Wang", "Zhao"]
POINTS = [2, 12, 34, 18]


def who_are_you(page, name: str, code: str, *, new: bool = False) -> None:
    page.get_by_label("Your name").select_option(label=f"{NAMES.index(name) + 1}. {name}" + (" (new code)" if new else ""))
    page.get_by_label("Your code (4 to 6 digits)").fill(code)
    if new:
        page.get_by_label("The same code again (only to set a new code)").fill(code)
    with page.expect_navigation():
        page.get_by_role("button", name="That's me").click()
    expect(page.locator("#who")).to_contain_text(f"Entering as {name}")


def test_entered_on_one_phone_confirmed_on_another_never_by_the_enterer(live_server, make_page, make_setup):
    s = make_setup("jie_long", names=NAMES, require_confirmation=True, require_proof=True)
    entry_code_set(actor=s.director_actor, entry=s.entries[1], code="2468")   # Li's card
    link = f"{live_server.url}/s/{s.token}/"

    phone_a = make_page("phone390")
    phone_a.goto(link)
    expect(phone_a.get_by_role("heading", name="Who are you?")).to_be_visible()
    expect(phone_a.get_by_label("Entered by")).to_have_count(0)
    who_are_you(phone_a, "Chen", "1357", new=True)
    for i, (name, points) in enumerate(zip(NAMES, POINTS)):
        phone_a.get_by_role("group", name=f"{i + 1}. {name}", exact=True).get_by_label("Points", exact=True).fill(
            str(points))
    phone_a.get_by_label("Led by").select_option(label="1. Chen")
    with phone_a.expect_navigation():
        phone_a.get_by_role("button", name="Submit", exact=True).click()
    deal = phone_a.locator("#deal-1")
    expect(deal).to_contain_text("Entered by Chen.")
    assert_no_horizontal_scroll(phone_a)

    # Chen is never offered as the confirmer of his own deal (the server refuses it too:
    # tests/scoring/views/test_scorer_proof.py).
    expect(deal.get_by_role("button", name="Confirm as Chen")).to_have_count(0)
    deal.get_by_text("Confirm as another player").click()
    options = deal.get_by_label("Confirm as", exact=True).locator("option").all_inner_texts()
    assert "1. Chen" not in options and "2. Li" in options
    assert Round.objects.get().status == "recorded"

    phone_b = make_page("phone390")
    phone_b.goto(link)
    who_are_you(phone_b, "Li", "2468")
    with phone_b.expect_navigation():
        phone_b.locator("#deal-1").get_by_role("button", name="Confirm as Li").click()
    expect(phone_b.locator("#deal-1")).to_contain_text("Confirmed by Li.")
    assert_no_horizontal_scroll(phone_b)
    rnd = Round.objects.get()
    assert (rnd.status, rnd.entered_by_entry_id, rnd.confirmed_by_entry_id) == (
        "confirmed", s.entries[0].pk, s.entries[1].pk)
