"""The tile picker (static/js/tile-picker.js) on a 390 × 844 phone: a Ding Niu deal tapped in
move by move (the running layout, undo, a used-up tile greyed out), a Tau Ngau hand and its bull
by taps, a correction that keeps the move log, and the calculator building a deal by taps."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import games
from games.simulate import simulate
from scoring.models import Round
from scoring.services.rounds import round_record

from .conftest import assert_no_horizontal_scroll
from .test_scorer_page import press

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORT = {"width": 390, "height": 844}
DING_NIU = ["Adam", "Boris", "Valentine", "George"]
#: A simulated Ding Niu deal played to the end (every tile used), with a SuanZhang in its log.
SEED = 4


@pytest.fixture
def phone390(browser):
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def ding_niu_record() -> dict:
    record = next(simulate("ding_niu", deals=1, seed=SEED, level="moves"))
    assert not any(record.get("left_in_hand") or [])  # played to the end: nothing to type besides the moves
    record["seats"] = list(DING_NIU)
    return record


def seat(page, position: int, name: str):
    """A seat's fieldset, named by its legend ("1. Bank", followed by a role such as "banker")."""
    return page.get_by_role("group", name=re.compile(rf"^{position + 1}\. {re.escape(name)}\b"))


def move_tile(page, tile: str):
    return page.locator(f'.move-log .palette button[data-tile="{tile}"]')


def tap_move(page, move: dict) -> None:
    """Tap one move in: Pass or Play, the tile, and the pip when the picker asks which."""
    log = page.locator(".move-log")
    if "pass" in move:
        log.get_by_role("button", name="Pass (face down)", exact=True).click()
        move_tile(page, move["pass"]).click()
        return
    log.get_by_role("button", name="Play", exact=True).click()
    move_tile(page, move["play"]).click()
    choice = log.locator(".choice button")
    if choice.count():
        pip = move.get("open", move.get("to"))
        log.locator(".choice").get_by_role("button", name=f"the {pip}", exact=True).click()


def tap_moves_deal(page, record: dict) -> None:
    page.get_by_role("radio", name="Full move log").check()
    for move in record["moves"]:
        tap_move(page, move)


def test_a_ding_niu_deal_tapped_in_as_a_full_move_log(live_server, phone390, make_setup):
    s = make_setup("ding_niu", names=DING_NIU)
    record = ding_niu_record()
    expected = games.evaluate(record)
    assert expected["ok"]
    page = phone390
    page.goto(f"{live_server.url}/s/{s.token}/")
    page.get_by_label("Led by").select_option(label="1. Adam")
    page.get_by_role("radio", name="Full move log").check()
    log = page.locator(".move-log")
    expect(log.locator(".turn")).to_have_text("Move 1: 1. Adam")
    expect(log.locator(".layout svg")).to_have_count(0)

    # the first moves, then an undo, then the same move again
    tap_move(page, record["moves"][0])
    tap_move(page, record["moves"][1])
    expect(log.locator(".layout svg")).to_have_count(2)
    expect(log.locator(".turn")).to_have_text("Move 3: 3. Valentine")
    log.get_by_role("button", name="Undo", exact=True).click()
    expect(log.locator(".layout svg")).to_have_count(1)
    expect(log.locator(".turn")).to_have_text("Move 2: 2. Boris")
    for move in record["moves"][1:]:
        tap_move(page, move)
    expect(log.locator(".turn")).to_have_text("Every dealt tile is used: the log is complete.")
    # every tile of the deck is used up: all greyed out
    expect(log.locator(".palette button.used-up")).to_have_count(len(games.get_game("ding_niu").deals[4][0]))
    plays = sum("play" in m for m in record["moves"])
    expect(log.locator(".layout svg")).to_have_count(plays)
    assert_no_horizontal_scroll(page)

    page.get_by_label("Entered by").select_option(label="1. Adam")
    press(page, "Preview")
    expect(page.locator("#preview")).to_contain_text("nothing is stored yet")
    assert Round.objects.count() == 0
    press(page, "Submit")
    expect(page.get_by_role("listitem").filter(has_text="Deal 1 recorded.")).to_be_visible()
    rnd = Round.objects.get()
    body = rnd.current_revision.body
    assert body["moves"] == record["moves"]
    assert "points" not in body and "unplayed_tiles" not in body
    result = rnd.current_revision.result
    assert [seat_["net"] for seat_ in result["seats"]] == [seat_["net"] for seat_ in expected["seats"]]
    assert result["suanzhang"] == expected["suanzhang"]
    assert_no_horizontal_scroll(page)


def open_unplayed_palette(page, url: str):
    """The scorer page at the unplayed-tiles level with Adam's palette open: (his seat, the palette)."""
    page.goto(url)
    page.get_by_role("radio", name="Unplayed tiles").check()
    adam = seat(page, 0, "Adam")
    adam.get_by_role("button", name="Tap tiles").click()
    return adam, adam.locator(".palette")


def test_a_used_up_tile_is_greyed_out_everywhere(live_server, phone390, make_setup):
    s = make_setup("ding_niu", names=DING_NIU)
    page = phone390
    adam, palette = open_unplayed_palette(page, f"{live_server.url}/s/{s.token}/")
    six_three = palette.locator('button[data-tile="6:3"]')  # one copy in the Ding Niu deck
    expect(six_three).to_have_accessible_name("6-3: 1 left")
    six_three.click()
    expect(adam.get_by_label("Unplayed tiles", exact=True)).to_have_value("6:3")
    expect(six_three).to_be_disabled()
    expect(six_three).to_have_class("pal-tile used-up")
    # 5:5 twice: used up after the second tap, here and at another seat
    palette.locator('button[data-tile="5:5"]').click()
    boris = seat(page, 1, "Boris")
    boris.get_by_role("button", name="Tap tiles").click()
    expect(adam.locator(".palette")).to_have_count(0)  # one palette at a time
    boris.locator('.palette button[data-tile="5:5"]').click()
    expect(boris.locator('.palette button[data-tile="5:5"]')).to_be_disabled()
    expect(boris.locator('.palette button[data-tile="6:3"]')).to_be_disabled()
    # a tile tapped in is tapped out again
    adam.get_by_role("button", name="Remove 5-5").click()
    expect(adam.get_by_label("Unplayed tiles", exact=True)).to_have_value("6:3")
    expect(boris.locator('.palette button[data-tile="5:5"]')).to_be_enabled()
    # typed tiles count too
    seat(page, 2, "Valentine").get_by_label("Unplayed tiles", exact=True).fill("5:5")
    expect(boris.locator('.palette button[data-tile="5:5"]')).to_be_disabled()
    assert_no_horizontal_scroll(page)


def test_a_tau_ngau_hand_and_its_bull_by_taps(live_server, phone390, make_setup):
    s = make_setup("tau_ngau", names=["Bank", "Ann", "Bo"], variant={"settlement": "v1"})
    page = phone390
    page.goto(f"{live_server.url}/s/{s.token}/")
    hands = [["6:6", "4:4", "6:4", "5:5", "3:1"], ["2:2", "5:1", "5:5", "6:6", "3:1"],
             ["6:1", "4:1", "4:3", "6:5", "5:2"]]
    names = ["Bank", "Ann", "Bo"]
    seat(page, 0, "Bank").get_by_role("button", name="Tap tiles").first.click()
    for i, (name, hand) in enumerate(zip(names, hands)):
        box = seat(page, i, name)
        for tile in hand:
            box.locator(f'.palette button[data-tile="{tile}"]').click()
        expect(box.get_by_label("Hand (5 tiles)")).to_have_value(" ".join(hand))
        # A full hand hands the palette on to the next seat's hand; after the last one it closes.
        expect(box.locator(".palette")).to_have_count(0)
        expect(page.locator(".palette")).to_have_count(1 if i + 1 < len(names) else 0)
        if i + 1 < len(names):
            expect(seat(page, i + 1, names[i + 1]).locator(".palette")).to_be_in_viewport()
    # Opened again, a full hand takes no more tiles.
    bank = seat(page, 0, "Bank")
    bank.get_by_role("button", name="Tap tiles").first.click()
    expect(bank.locator(".palette-note")).to_have_text("All 5 tiles are in.")
    expect(bank.locator(".palette button.pal-tile:enabled")).to_have_count(0)
    bank.get_by_role("button", name="Done").click()
    # Ann sets aside her bull among her own tiles
    ann = seat(page, 1, "Ann")
    ann.get_by_role("button", name="Tap tiles").nth(1).click()
    bull_palette = ann.locator(".palette button.pal-tile")
    expect(bull_palette).to_have_count(5)  # her five tiles, nothing else
    for tile in ("2:2", "5:1", "5:5"):
        ann.locator(f'.palette button[data-tile="{tile}"]').click()
    expect(ann.get_by_label("Bull set aside (optional; - for none)")).to_have_value("2:2 5:1 5:5")
    expect(ann.locator(".palette")).to_have_count(0)  # the bull is set aside: the palette closes
    ann.get_by_role("button", name="Tap tiles").nth(1).click()
    expect(bull_palette).to_have_count(2)  # the two tiles not set aside, and the bull is full
    expect(ann.locator(".palette button.pal-tile:enabled")).to_have_count(0)
    page.get_by_label("Entered by").select_option(label="1. Bank")
    assert_no_horizontal_scroll(page)
    press(page, "Submit")
    expect(page.get_by_role("listitem").filter(has_text="Deal 1 recorded.")).to_be_visible()
    body = Round.objects.get().current_revision.body
    assert body["hands"] == hands
    assert body["declared"] == [None, {"bull": ["2:2", "5:1", "5:5"]}, None]


def test_a_correction_of_a_moves_deal_keeps_the_move_log(live_server, phone390, make_setup, director_actor):
    s = make_setup("ding_niu", names=DING_NIU)
    record = ding_niu_record()
    body = {"leader": 0, "entered_by": 0, "moves": record["moves"]}
    rnd = round_record(actor=director_actor, table=s.table, body=body)
    page = phone390
    page.goto(f"{live_server.url}/s/{s.token}/")
    with page.expect_navigation():
        page.locator("#deal-1").get_by_role("link", name="Correct").click()
    expect(page.get_by_role("radio", name="Full move log")).to_be_checked()
    log = page.locator(".move-log")
    expect(log.locator(".turn")).to_have_text("Every dealt tile is used: the log is complete.")
    # undo the last two moves and tap them in again
    log.get_by_role("button", name="Undo", exact=True).click()
    log.get_by_role("button", name="Undo", exact=True).click()
    for move in record["moves"][-2:]:
        tap_move(page, move)
    page.get_by_label("Why is it corrected?").fill("checked the log")
    press(page, "Save correction")
    rnd.refresh_from_db()
    revision = rnd.current_revision
    assert revision.number == 2
    assert revision.body["moves"] == record["moves"]
    assert "points" not in revision.body


def test_the_calculator_computes_a_deal_built_by_taps(live_server, phone390):
    page = phone390
    page.goto(f"{live_server.url}/calculator/")
    page.get_by_label("Game", exact=True).select_option(label="Jie Long")
    page.get_by_label("Players", exact=True).select_option("4")
    press(page, "Build a deal")
    page.get_by_role("radio", name="Unplayed tiles").check()
    for i, tiles in enumerate([["6:4", "3:1"], [], ["5:5"], ["2:1"]]):
        box = seat(page, i, f"Seat {i + 1}")
        if not tiles:
            continue
        box.get_by_role("button", name="Tap tiles").click()
        for tile in tiles:
            box.locator(f'.palette button[data-tile="{tile}"]').click()
    assert_no_horizontal_scroll(page)
    press(page, "Compute the deal")
    result = page.locator("#result")
    for line in ("Seat 1 pays Seat 2 14", "Seat 3 pays Seat 2 10", "Seat 4 pays Seat 2 3"):
        expect(result).to_contain_text(line)
    # the record it built is in the JSON box, for the curious
    assert '"unplayed_tiles"' in page.locator("#record").input_value()


def active(page) -> dict:
    """What has focus: its tile (or its words) and whether it sits in a palette."""
    return page.evaluate("""() => { const a = document.activeElement;
        return {tile: a.getAttribute("data-tile"), text: a.textContent.trim(), disabled: a.disabled,
                palette: !!a.closest(".palette"), seat: a.closest("fieldset.seat")?.dataset.position ?? null}; }""")


def test_focus_stays_on_the_tapped_tile_and_the_change_is_announced(live_server, phone390, make_setup):
    s = make_setup("ding_niu", names=DING_NIU)
    page = phone390
    adam, palette = open_unplayed_palette(page, f"{live_server.url}/s/{s.token}/")
    status = page.locator(".picker-status")
    expect(status).to_have_count(1)  # one per picker
    expect(status).to_have_attribute("aria-live", "polite")
    # 5:5 (two copies): focus stays on it after the palette redraws
    palette.locator('button[data-tile="5:5"]').click()
    expect(status).to_have_text("5-5 added, 1 left")
    assert active(page) == {"tile": "5:5", "text": "1", "disabled": False, "palette": True, "seat": "0"}
    # the keyboard goes on from there: Enter taps it again; now it is used up, focus moves on to the
    # next enabled tile of the same palette
    scrolled = page.evaluate("window.scrollY")
    page.keyboard.press("Enter")
    expect(adam.get_by_label("Unplayed tiles", exact=True)).to_have_value("5:5 5:5")
    assert page.evaluate("window.scrollY") == scrolled  # focus moved without scrolling the page
    expect(status).to_have_text("5-5 added, 0 left")
    expect(palette.locator('button[data-tile="5:5"]')).to_be_disabled()
    now = active(page)
    kinds = palette.locator("button.pal-tile").evaluate_all("bs => bs.map(b => b.dataset.tile)")
    assert now["palette"] and now["seat"] == "0" and not now["disabled"]
    assert now["tile"] == kinds[kinds.index("5:5") + 1]
    # a tile tapped out is announced too, and focus stays among that seat's tiles
    adam.get_by_role("button", name="Remove 5-5").first.click()
    expect(status).to_have_text("5-5 removed")
    expect(adam.get_by_label("Unplayed tiles", exact=True)).to_have_value("5:5")
    assert active(page)["seat"] == "0"


def test_focus_stays_in_the_move_palette(live_server, phone390, make_setup):
    s = make_setup("ding_niu", names=DING_NIU)
    record = ding_niu_record()
    page = phone390
    page.goto(f"{live_server.url}/s/{s.token}/")
    page.get_by_label("Led by").select_option(label="1. Adam")
    page.get_by_role("radio", name="Full move log").check()
    tap_move(page, record["moves"][0])
    # after a play (and any pip question), focus is back on a button of the move palette
    now = active(page)
    assert now["palette"] and not now["disabled"]
    page.locator(".move-log").get_by_role("button", name="Undo", exact=True).click()
    expect(page.locator(".move-log .layout svg")).to_have_count(0)
    # nothing left to undo: focus goes to Play rather than being lost
    assert active(page)["text"] == "Play"


def test_the_banker_badge_follows_the_banker_select(live_server, phone390, make_setup):
    s = make_setup("tau_ngau", names=["Bank", "Ann", "Bo"], variant={"settlement": "v1"})
    page = phone390
    page.goto(f"{live_server.url}/s/{s.token}/")
    # The seat's own legend (a row of choices inside the seat has one too).
    legends = [seat(page, i, name).locator(":scope > legend") for i, name in enumerate(["Bank", "Ann", "Bo"])]
    page.get_by_label("Banker", exact=True).select_option(label="1. Bank")
    expect(legends[0]).to_contain_text("banker")
    expect(legends[1]).not_to_contain_text("banker")
    page.get_by_label("Banker", exact=True).select_option(label="2. Ann")
    expect(legends[1]).to_contain_text("banker")
    expect(legends[0]).not_to_contain_text("banker")
    expect(legends[2]).not_to_contain_text("banker")
    expect(page.locator(".seats .badge.role")).to_have_count(1)
    page.get_by_label("Banker", exact=True).select_option(label="3. Bo")
    page.get_by_label("Banker", exact=True).select_option(label="2. Ann")
    expect(page.locator(".seats .badge.role")).to_have_count(1)
    expect(legends[1]).to_have_text(re.compile(r"^2\. Ann\s+banker$"))
