"""The director's console in a real browser, on a phone (390×844) and a laptop (1280×800): the
disputes come above the table grid; Finish first opens the count of what it leaves unsettled;
settling a dispute asks for the director's note."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import ActionLog, Round
from scoring.services.rounds import round_dispute, round_record

from .conftest import assert_no_horizontal_scroll
from .test_director_pages import DING_NIU_BODY, log_in, open_dashboard, second_table

pytestmark = pytest.mark.django_db(transaction=True)


def _evening(make_setup):
    """Two tables, three deals, the last one disputed."""
    s = make_setup("ding_niu")
    table2, _token = second_table(s, ["Eve", "Frank", "Grace", "Heidi"])
    round_record(actor=s.scorer_actor, table=s.table, body=DING_NIU_BODY)
    round_record(actor=s.scorer_actor, table=s.table, body=DING_NIU_BODY)
    disputed = round_record(actor=s.director_actor, table=table2, body=DING_NIU_BODY)
    round_dispute(actor=s.director_actor, round=disputed, message="Frank counted 16, not 6")
    return s, disputed


@pytest.mark.parametrize("kind", ["phone390", "desktop"])
def test_disputes_come_above_the_tables_and_finish_opens_the_count(live_server, make_page, make_setup, kind):
    s, _disputed = _evening(make_setup)
    page = make_page(kind)
    log_in(page, live_server)
    open_dashboard(page, s.tournament)

    dispute = page.locator("#disputed article.disputed-deal")
    expect(dispute).to_have_count(1)
    expect(dispute).to_contain_text("Frank counted 16, not 6")
    grid = page.locator("#tables .table-grid")
    expect(grid.locator("article.table-card")).to_have_count(2)
    dispute_box, grid_box = dispute.bounding_box(), grid.bounding_box()
    assert dispute_box["y"] + dispute_box["height"] <= grid_box["y"]
    expect(grid.locator("article.table-card").filter(has_text="Table 1")).to_contain_text("2 deals")
    expect(grid.locator("article.table-card").filter(has_text="Table 2").locator(".badge.disputed")).to_have_text(
        "1 disputed")

    # The count is folded away until Finish is pressed; pressing it sends nothing.
    posts: list[str] = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    count = page.locator("#finish [data-live-part=finish-count]")
    expect(count).to_be_hidden()
    page.locator("#finish summary").click()
    expect(count).to_be_visible()
    # what the finish leaves (no confirmation required here: no unconfirmed deal is told)
    expect(count.locator("#finish-leaves li")).to_have_text([
        "1 dispute stays open: a finished tournament cannot settle it.", "Session 1 is open: finishing closes it."])
    expect(page.get_by_label("Finish anyway: open disputes stay as they are")).to_be_visible()
    expect(page.locator("#finish").get_by_role("button", name="Finish the tournament")).to_be_visible()
    assert posts == []
    assert_no_horizontal_scroll(page)


def test_settling_a_dispute_asks_for_the_note(live_server, make_page, make_setup):
    s, disputed = _evening(make_setup)
    page = make_page("phone390")
    log_in(page, live_server)
    open_dashboard(page, s.tournament)
    card = page.locator("#disputed article.disputed-deal")
    note = card.get_by_label("Your note (required): what you decided and why")

    # Empty: the browser does not send the form.
    card.get_by_role("button", name="Settle the dispute").click()
    assert note.evaluate("el => !el.validity.valid")
    # Spaces only: sent, and refused on the page, the error under the field.
    note.fill("   ")
    with page.expect_navigation():
        card.get_by_role("button", name="Settle the dispute").click()
    card = page.locator("#disputed article.disputed-deal")
    expect(card.locator(".field-error")).to_have_text("Write a note: what you decided and why.")
    expect(card.get_by_label("Your note (required): what you decided and why")).to_have_attribute(
        "aria-invalid", "true")
    disputed.refresh_from_db()
    assert disputed.disputed

    card.get_by_label("Your note (required): what you decided and why").fill("Frank recounted: 6")
    with page.expect_navigation():
        card.get_by_role("button", name="Settle the dispute").click()
    expect(page.locator(".messages")).to_contain_text("is settled")
    expect(page.locator("#disputed")).to_contain_text("No disputes.")
    assert not Round.objects.get(pk=disputed.pk).disputed
    assert_no_horizontal_scroll(page)


def test_a_note_being_written_survives_the_consoles_live_update(live_server, make_page, make_setup):
    """A deal recorded at another table while the director writes a dispute's note: the console's
    other parts follow it, the card being written in is kept as it is (swapped, the note would be
    lost), and the note is sent with the settle."""
    s, disputed = _evening(make_setup)
    page = make_page("desktop")
    log_in(page, live_server)
    open_dashboard(page, s.tournament)
    table1 = page.locator("#tables article.table-card").filter(has_text="Table 1")
    expect(table1).to_contain_text("2 deals")
    page.locator("#disputed").get_by_label("Your note (required): what you decided and why").fill("Frank rec")

    round_record(actor=s.scorer_actor, table=s.table, body=DING_NIU_BODY)   # the live event
    expect(table1).to_contain_text("3 deals")   # the tables' part came in
    note = page.locator("#disputed").get_by_label("Your note (required): what you decided and why")
    expect(note).to_have_value("Frank rec")
    note.press_sequentially("ounted: 6")
    with page.expect_navigation():
        page.locator("#disputed").get_by_role("button", name="Settle the dispute").click()
    expect(page.locator(".messages")).to_contain_text("is settled")
    disputed.refresh_from_db()
    assert not disputed.disputed
    settled = ActionLog.objects.get(action=ActionLog.Action.ROUND_DISPUTE_RESOLVE, target_id=str(disputed.pk))
    assert settled.data["note"] == "Frank recounted: 6"
