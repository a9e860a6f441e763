"""A referee in a real browser: the director adds them on the tournament page; they log in at the
director's login, find their tournament, settle a dispute (with a note) and are refused the
settings page (403). Their pages pass axe-core's WCAG 2 A/AA checks and 44 px touch targets, on
a phone and on a desktop."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from scoring.models import ActionLog, Round
from scoring.services.rounds import round_dispute, round_record

from .test_accessibility import AXE, SMALL_TARGETS, _readable, _violations
from .test_director_pages import DING_NIU_BODY, log_in, open_dashboard

pytestmark = pytest.mark.django_db(transaction=True)


def log_in_as_referee(page, live_server) -> None:
    page.goto(live_server.url + "/director/login/")
    page.get_by_label("Username").fill("rita")
    page.get_by_label("Password").fill("rita-secret-1")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Referee", exact=True)).to_be_visible()


def check_a11y(page, name: str, found: dict) -> None:
    if not AXE.exists():
        return
    violations = _violations(page)
    small = page.evaluate(SMALL_TARGETS)
    if small:
        violations.append({"id": "touch-target-44", "impact": "serious", "nodes": small,
                           "help": "Touch targets must be at least 44 px high"})
    if violations:
        found[name] = violations


@pytest.mark.parametrize("kind", ["phone390", "desktop"])
def test_a_referee_settles_a_dispute_and_is_refused_the_settings(live_server, make_page, make_setup, kind):
    s = make_setup("ding_niu")
    get_user_model().objects.create_user(username="rita", password="rita-secret-1")
    disputed = round_record(actor=s.scorer_actor, table=s.table, body=DING_NIU_BODY)
    round_dispute(actor=s.scorer_actor, round=disputed, message="Frank counted 16, not 6")
    found: dict = {}

    # The director adds the referee on the tournament page.
    director = make_page(kind, bypass_csp=True)
    log_in(director, live_server)
    open_dashboard(director, s.tournament)
    box = director.locator("#referees")
    box.get_by_label("Username of an existing user").fill("rita")
    with director.expect_navigation():
        box.get_by_role("button", name="Add the referee").click()
    expect(director.locator(".messages")).to_contain_text("rita is now a referee of this tournament.")
    expect(director.locator("#referees-list")).to_contain_text("rita")
    check_a11y(director, "tournament page with a referee", found)

    # The referee logs in, follows the tournament's link, settles the dispute.
    page = make_page(kind, bypass_csp=True)
    log_in_as_referee(page, live_server)
    check_a11y(page, "referee home", found)
    with page.expect_navigation():
        page.get_by_role("link", name=s.tournament.name, exact=True).click()
    card = page.locator("#disputed article.disputed-deal")
    expect(card).to_contain_text("Frank counted 16, not 6")
    check_a11y(page, "referee page", found)
    card.get_by_label("Your note (required): what you decided and why").fill("Frank recounted: 6")
    with page.expect_navigation():
        card.get_by_role("button", name="Settle the dispute").click()
    expect(page.locator(".messages")).to_contain_text("is settled")
    expect(page.locator("#disputed")).to_contain_text("No disputes.")
    disputed.refresh_from_db()
    assert not disputed.disputed
    log = ActionLog.objects.get(action="round_dispute_resolve")
    assert (log.actor_user.username, log.actor_label, log.data["note"]) == ("rita", "referee rita",
                                                                            "Frank recounted: 6")

    # The substitution page of a table opens from the referee's page.
    with page.expect_navigation():
        page.locator("#referee-tables a").first.click()
    expect(page.get_by_label("Player taking the seat")).to_be_visible()
    check_a11y(page, "referee table page", found)

    # The settings (and the director's console) are refused: 403, the "Not allowed" page.
    for path in (f"/director/tournaments/{s.tournament.pk}/settings/", f"/director/tournaments/{s.tournament.pk}/"):
        response = page.goto(live_server.url + path)
        assert response.status == 403
        expect(page.get_by_role("heading", name="Not allowed")).to_be_visible()
        expect(page.locator("main")).to_contain_text("A referee may settle disputes")
    assert Round.objects.filter(disputed=True).count() == 0
    assert not found, "axe-core found violations:" + _readable(found)
