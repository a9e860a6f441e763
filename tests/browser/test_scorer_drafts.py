"""The scorer's deal on flaky wifi, in a real browser at 390×844 (static/js/deal-drafts.js): the
network cut during Submit, two phones on one link recording the same deal number, a reload
mid-entry, a link replaced by the director."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from scoring.services.tables import table_scorer_token_rotate
from scoring.services.tournaments import tournament_update

from .test_scorer_page import DING_NIU_POINTS, fill_points_deal, seat

pytestmark = pytest.mark.django_db(transaction=True)



@pytest.fixture
def new_phone(make_page):
    """Another phone on the table (its own storage and cookies), 390×844."""
    return lambda: make_page("phone390")


def link(live_server, token) -> str:
    return f"{live_server.url}/s/{token}/"


def george(page):
    return seat(page, 3, "George").get_by_label("Points", exact=True)


def test_a_cut_network_during_submit_keeps_the_deal_and_saves_it_once(live_server, new_phone, make_setup):
    s = make_setup("ding_niu")
    phone = new_phone()
    phone.goto(link(live_server, s.token))
    fill_points_deal(phone, s.names, DING_NIU_POINTS, entered_by="1. Adam")
    phone.context.set_offline(True)
    phone.get_by_role("button", name="Submit", exact=True).click()
    # In the phone's outbox (static/js/outbox.js), listed, and the form on the next deal.
    expect(phone.locator("#draft-status")).to_contain_text("Deal 1 is kept on this phone")
    expect(phone.locator("#deals")).to_contain_text("Deal 1 — waiting to send")
    expect(phone.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    assert Round.objects.count() == 0
    with phone.expect_navigation(timeout=40_000):
        phone.context.set_offline(False)
    expect(phone.locator("#deal-1")).to_be_visible()
    expect(phone.get_by_role("heading", name="Deal 2", exact=True)).to_be_visible()
    assert Round.objects.count() == 1
    assert phone.evaluate("Object.keys(localStorage).filter(k => k.startsWith('gupai-draft:')).length") == 0


def test_two_phones_recording_the_same_deal_number(live_server, new_phone, make_setup):
    s = make_setup("ding_niu")
    first, second = new_phone(), new_phone()
    for page in (first, second):
        page.goto(link(live_server, s.token))
        fill_points_deal(page, s.names, DING_NIU_POINTS, entered_by="1. Adam")
    with first.expect_navigation():
        first.get_by_role("button", name="Submit", exact=True).click()
    expect(first.locator("#saved")).to_contain_text("Deal 1 is saved")

    george(second).fill("8")  # not quite the same deal
    second.get_by_role("button", name="Submit", exact=True).click()
    taken = second.locator("#taken")
    expect(taken).to_contain_text("Deal 1 was already recorded from another phone")
    expect(taken).to_contain_text("Recorded from another phone")
    expect(taken).to_contain_text("Yours (not saved)")
    assert Round.objects.count() == 1
    with second.expect_navigation():
        taken.get_by_role("button", name="Record mine as deal 2").click()
    expect(second.locator("#saved")).to_contain_text("Deal 2 is saved")
    assert list(Round.objects.order_by("number").values_list("number", flat=True)) == [1, 2]
    assert Round.objects.get(number=2).current_revision.body["points"][3] == 8


def test_a_reload_mid_entry_keeps_the_draft(live_server, new_phone, make_setup):
    s = make_setup("ding_niu")
    phone = new_phone()
    phone.goto(link(live_server, s.token))
    fill_points_deal(phone, s.names, DING_NIU_POINTS, entered_by="2. Boris")
    phone.reload()
    expect(george(phone)).to_have_value("10")
    expect(phone.get_by_label("Entered by")).to_have_value("1")
    expect(phone.locator("#draft-status")).to_contain_text("restored")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Submit", exact=True).click()
    assert Round.objects.get().entered_by == 1


def test_a_replaced_link_keeps_the_draft_and_offers_it_on_the_new_link(live_server, new_phone, make_setup):
    s = make_setup("ding_niu")
    phone = new_phone()
    phone.goto(link(live_server, s.token))
    fill_points_deal(phone, s.names, DING_NIU_POINTS, entered_by="1. Adam")
    new_token = table_scorer_token_rotate(actor=s.director_actor, table=s.table)
    phone.get_by_role("button", name="Submit", exact=True).click()
    expect(phone.locator("#draft-status")).to_contain_text("This link was replaced by the director")
    expect(george(phone)).to_have_value("10")
    assert Round.objects.count() == 0

    phone.goto(link(live_server, new_token))
    expect(phone.locator("#draft-status")).to_contain_text("restored")
    expect(george(phone)).to_have_value("10")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Submit", exact=True).click()
    expect(phone.locator("#saved")).to_contain_text("Deal 1 is saved")
    assert Round.objects.count() == 1


def test_the_next_deal_starts_from_the_level_and_stakes_of_the_last_one(live_server, new_phone, make_setup):
    """Kept on the phone per tournament and table; a draft of the deal, when there is one, wins."""
    s = make_setup("tau_ngau")  # v2
    phone = new_phone()
    phone.goto(link(live_server, s.token))
    expect(phone.get_by_role("radio", name="Hands")).to_be_checked()
    phone.get_by_role("radio", name="Values only").check()
    def box(page, i):  # a seat's fieldset (the banker's legend says "banker" too)
        return page.locator(f'fieldset.seat[data-position="{i}"]')

    for i, value in enumerate(["no bull", "3", "5", "7"]):
        box(phone, i).locator("label.choice").filter(has=phone.get_by_text(value, exact=True)).click()
    stakes = [box(phone, i).get_by_label("Stake (not the banker)") for i in range(4)]
    for field, stake in zip(stakes[1:], "251"):
        field.fill(stake)
    phone.get_by_label("Entered by").select_option(label="1. Bank")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Submit", exact=True).click()
    expect(phone.locator("#saved")).to_contain_text("Deal 1 is saved")

    expect(phone.get_by_role("radio", name="Values only")).to_be_checked()
    assert [field.input_value() for field in stakes] == ["", "2", "5", "1"]
    expect(stakes[0]).to_be_hidden()  # the banker's seat
    expect(phone.locator("#draft-status")).to_be_hidden()  # remembered is not a draft
    stakes[2].fill("7")
    phone.reload()
    expect(phone.locator("#draft-status")).to_contain_text("restored")
    expect(stakes[2]).to_have_value("7")
    # another table on this phone starts afresh
    other = make_setup("tau_ngau", names=["Ann", "Bo", "Cy"], table_name="Table 2")
    phone.goto(link(live_server, other.token))
    expect(phone.get_by_role("radio", name="Hands")).to_be_checked()
    expect(box(phone, 1).get_by_label("Stake (not the banker)")).to_have_value("")


def test_the_stake_of_the_seat_the_bank_has_just_left_is_asked_for_before_submit(live_server, new_phone, make_setup):
    """The phone keeps the last deal's stakes, none for its banker: when the bank moves, that seat's
    stake is required before anything is sent, and follows the banker chosen in the form."""
    s = make_setup("tau_ngau")  # v2: every player stakes
    phone = new_phone()
    phone.goto(link(live_server, s.token))
    phone.get_by_role("radio", name="Values only").check()

    def box(i):
        return phone.locator(f'fieldset.seat[data-position="{i}"]')

    def values(*chosen):
        for i, value in enumerate(chosen):
            box(i).locator("label.choice").filter(has=phone.get_by_text(value, exact=True)).click()

    stakes = [box(i).get_by_label("Stake (not the banker)") for i in range(4)]
    hint = box(0).get_by_text("The bank has just left this seat")
    values("7", "3", "5", "no bull")  # the banker's bull: the bank passes to seat 2
    for field, stake in zip(stakes[1:], "251"):
        field.fill(stake)
    phone.get_by_label("Entered by").select_option(label="1. Bank")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Submit", exact=True).click()
    expect(phone.locator("#saved")).to_contain_text("Deal 1 is saved")

    expect(phone.get_by_label("Banker", exact=True)).to_have_value("1")
    expect(stakes[1]).to_be_hidden()
    expect(stakes[0]).to_have_value("")
    expect(stakes[0]).to_have_attribute("required", "")
    expect(hint).to_be_visible()
    values("7", "3", "5", "no bull")
    phone.get_by_role("button", name="Submit", exact=True).click()
    assert stakes[0].evaluate("e => e.validity.valueMissing && document.activeElement === e")
    assert Round.objects.count() == 1  # asked for on the phone, nothing sent

    phone.get_by_label("Banker", exact=True).select_option(label="1. Bank")  # the bank back where it was: no stake
    expect(stakes[0]).to_be_hidden()
    assert not stakes[0].evaluate("e => e.required")
    phone.get_by_label("Banker", exact=True).select_option(label="3. One")
    expect(stakes[0]).to_be_visible()
    expect(hint).to_be_visible()
    assert stakes[0].evaluate("e => e.required")
    phone.get_by_label("Banker", exact=True).select_option(label="2. Six")
    stakes[0].fill("4")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Submit", exact=True).click()
    expect(phone.locator("#saved")).to_contain_text("Deal 2 is saved")
    assert Round.objects.get(number=2).current_revision.body["stakes"] == [4, None, 5, 1]


def test_a_new_phone_starts_on_the_directors_level_and_a_phone_that_chose_keeps_its_own(live_server, new_phone,
                                                                                        make_setup):
    s = make_setup("tau_ngau")
    tournament_update(actor=s.director_actor, tournament=s.tournament, entry_level="values")
    phone = new_phone()
    phone.goto(link(live_server, s.token))
    expect(phone.get_by_role("radio", name="Values only")).to_be_checked()
    # the level this phone recorded its last deal at, kept by static/js/deal-memory.js
    scope = f"{s.tournament.pk}:{s.table.pk}"
    phone.evaluate("scope => localStorage.setItem('gupai-memory:' + scope, JSON.stringify({level: ['hands']}))", scope)
    phone.reload()
    expect(phone.get_by_role("radio", name="Hands")).to_be_checked()
    other = new_phone()  # another phone, nothing kept: the director's level
    other.goto(link(live_server, s.token))
    expect(other.get_by_role("radio", name="Values only")).to_be_checked()
