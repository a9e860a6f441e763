"""A long public table in a real browser at 390×844: a new deal comes in on top of the first
page (the list keeps one page), a corrected deal is replaced and a voided one taken away, by
their keys, without a reload; older pages keep their deals."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Round
from scoring.selectors.public import TABLE_PAGE_SIZE
from scoring.services.rounds import round_correct, round_record, round_void

from ..scoring.bodies import DING_NIU_FULL_LOG, DING_NIU_LED_BY_1
from ..scoring.bulk import bulk_deals
from .conftest import assert_no_horizontal_scroll
from .test_public_live import LIVE_WAIT

pytestmark = pytest.mark.django_db(transaction=True)

DEALS = 45


def _shown(page) -> list[int]:
    return [int(k.removeprefix("deal-")) for k in
            page.locator("[data-live-list] > [data-live-key]").evaluate_all("els => els.map(e => e.dataset.liveKey)")]


def test_new_corrected_and_voided_deals_come_in_by_key(live_server, make_page, ding_niu, director_actor):
    bulk_deals(ding_niu, DING_NIU_FULL_LOG, DEALS)
    url = f"{live_server.url}/t/{ding_niu.tournament.slug}/tables/{ding_niu.table.pk}/"
    page, older = make_page("phone390"), make_page("phone390")
    page.goto(url)
    older.goto(url + "?page=2")
    assert _shown(page) == list(range(DEALS, DEALS - TABLE_PAGE_SIZE, -1))
    assert _shown(older) == list(range(DEALS - TABLE_PAGE_SIZE, DEALS - 2 * TABLE_PAGE_SIZE, -1))
    expect(page.get_by_text("Page 1 of 3").first).to_be_visible()
    older_link = page.get_by_role("navigation", name="Pages of deals", exact=True).get_by_role("link", name="Older deals")
    expect(older_link).to_be_visible()
    assert older_link.bounding_box()["height"] >= 44
    page.evaluate("window.notReloaded = true")

    round_record(actor=ding_niu.scorer_actor, table=ding_niu.table, body=DING_NIU_FULL_LOG)
    expect(page.locator("[data-live-list] > article").first).to_have_id(f"deal-{DEALS + 1}", timeout=LIVE_WAIT)
    assert _shown(page) == list(range(DEALS + 1, DEALS + 1 - TABLE_PAGE_SIZE, -1))  # still one page
    expect(page.locator("#table-seats tr", has_text="Adam").locator("td.total")).to_have_text(str(12 * (DEALS + 1)))
    expect(page.get_by_text(f"{DEALS + 1} deals recorded.")).to_be_visible()
    # The new deal replays like the others.
    new = page.locator(f"#deal-{DEALS + 1}")
    new.get_by_role("button", name="Start").click()
    expect(new.locator("[data-replay-status]")).to_have_text("Before the lead")

    rounds = {r.number: r for r in Round.objects.filter(table=ding_niu.table, number__in=[40, 38])}
    round_correct(actor=director_actor, round=rounds[40], body=DING_NIU_LED_BY_1, reason="points only",
                  expected_revision=1)
    round_void(actor=director_actor, round=rounds[38], reason="dealt twice")
    expect(page.locator("#deal-38")).to_have_count(0, timeout=LIVE_WAIT)
    expect(page.locator("#deal-40 [data-replay]")).to_have_count(0)  # points now: nothing to replay
    expect(page.locator("#deal-40")).to_contain_text("Boris pays")
    # The new deal, sent again with these changes (they came within seconds), was left as it was.
    expect(new.locator("[data-replay-status]")).to_have_text("Before the lead")
    assert page.evaluate("window.notReloaded") is True
    assert_no_horizontal_scroll(page)

    # The second page took the correction but no new deal: new deals belong on the first page.
    expect(older.locator("[data-live-list] > article").first).to_have_id(f"deal-{DEALS - TABLE_PAGE_SIZE}")
    expect(older.get_by_text(f"{DEALS} deals recorded.")).to_be_visible(timeout=LIVE_WAIT)


def test_the_replay_lays_the_tiles_flat_and_marks_the_move(live_server, make_page, ding_niu):
    round_record(actor=ding_niu.scorer_actor, table=ding_niu.table, body=DING_NIU_FULL_LOG)
    page = make_page("phone390")
    page.goto(f"{live_server.url}/t/{ding_niu.tournament.slug}/tables/{ding_niu.table.pk}/")
    replay = page.locator("[data-replay]")
    tiles = replay.locator(".replay-tile")
    # Laid end to end on one line: 4:6, the lead 6:4 (both along it), then two 4:4 across it.
    boxes = [tiles.nth(i).locator("> svg").bounding_box() for i in range(4)]
    assert [b["width"] > b["height"] for b in boxes] == [True, True, False, False]
    assert all(abs(b["y"] + b["height"] / 2 - boxes[0]["y"] - boxes[0]["height"] / 2) < 2 for b in boxes)
    assert all(abs(a["x"] + a["width"] - b["x"]) < 2 for a, b in zip(boxes, boxes[1:]))
    expect(tiles.nth(0).locator("> svg")).to_have_attribute("aria-label", "tile 4:6")
    # The current move's tile is marked; the buttons work from the keyboard.
    replay.get_by_role("button", name="Start").click()
    next_button = replay.get_by_role("button", name="Next")
    next_button.focus()
    page.keyboard.press("Enter")
    expect(replay.locator(".replay-tile.current")).to_have_attribute("data-step", "1")
    page.keyboard.press("Enter")
    expect(replay.locator(".replay-tile.current")).to_have_attribute("data-step", "2")
    expect(replay.locator("[data-replay-status]")).to_have_text("Move 2 of 10: Boris plays 6:4")
    outline = tiles.nth(0).evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline == "solid"
