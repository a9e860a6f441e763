"""The player's page with proof, in a real browser on a 390 × 844 phone: Chen proves who he is at
his table of tonight's tournament; his page then shows his seats there and at the club's other
tournament running (the phone knows him across the club). On another phone the page asks "Is
this you?", his code shows his seats, "not you?" forgets him. Each state passes axe."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.services.players import entry_code_issue

from .conftest import assert_no_horizontal_scroll
from .test_accessibility import AXE, SMALL_TARGETS, _violations
from .test_player_proof import NAMES, who_are_you

pytestmark = pytest.mark.django_db(transaction=True)


def problems(page) -> list:
    if not AXE.exists():
        return []
    return _violations(page) + [{"id": "touch-target-44", "nodes": small}
                                for small in [page.evaluate(SMALL_TARGETS)] if small]


def test_his_page_shows_his_seats_once_a_phone_proves_him(live_server, make_page, make_setup):
    tonight = make_setup("jie_long", names=NAMES, require_proof=True, table_name="Table 3")
    make_setup("jie_long", names=NAMES, require_proof=True, table_name="Table 9")   # the club's other one
    code = entry_code_issue(actor=tonight.director_actor, entry=tonight.entries[0])   # Chen's card
    his_page = f"{live_server.url}/players/{tonight.entries[0].player_id}/"

    phone = make_page("phone390", bypass_csp=True)
    phone.goto(f"{live_server.url}/s/{tonight.token}/")
    who_are_you(phone, "Chen", code)
    phone.goto(his_page)
    seats = phone.locator("#my-seats")
    expect(seats.get_by_role("heading", name="Your seats")).to_be_visible()
    expect(seats).to_contain_text("This phone knows you as Chen.")
    expect(seats.locator("#my-seats-table")).to_contain_text("Table 3")
    expect(seats.locator("#my-seats-table")).to_contain_text("Table 9")
    expect(seats.locator("#my-seats-table")).to_contain_text("Li (seat South)")
    assert_no_horizontal_scroll(phone)
    assert problems(phone) == []

    other = make_page("phone390", bypass_csp=True)
    other.goto(his_page)
    expect(other.get_by_role("heading", name="Is this you?")).to_be_visible()
    expect(other.locator("#my-seats-table")).to_have_count(0)
    assert problems(other) == []
    other.get_by_label("Your code (4 to 6 digits)").fill("0000" if code != "0000" else "1111")
    with other.expect_navigation():
        other.get_by_role("button", name="That's me").click()
    expect(other.get_by_role("alert")).to_contain_text("Wrong code for Chen.")
    assert problems(other) == []
    other.get_by_label("Your code (4 to 6 digits)").fill(code)
    with other.expect_navigation():
        other.get_by_role("button", name="That's me").click()
    expect(other.locator("#my-seats-table")).to_contain_text("Table 9")
    with other.expect_navigation():
        other.get_by_role("button", name="(not you?)").click()
    expect(other.get_by_role("heading", name="Is this you?")).to_be_visible()
