"""Check-in in a real browser: the director opens session 1 for check-in and prints the room's QR
sheet; players open its link on their phones (390 × 844), pick their name and type their code (a
wrong one is refused at the field, nothing changes); the director ticks one more in on the
check-in page, then seats "Only the players checked in": the player who did not come is not
seated. The pages pass axe (WCAG 2 A/AA) and keep their touch targets."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Seat, SessionCheckIn
from scoring.services.clubs import player_create
from scoring.services.players import entry_code_set
from scoring.services.tournaments import entry_create, tournament_create, tournament_start

from .conftest import assert_no_horizontal_scroll
from .test_accessibility import SMALL_TARGETS, _readable, _violations
from .test_director_pages import log_in

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ah", "Bo", "Chi", "Di", "En"]
CODES = {"Ah": "1111", "Bo": "2222", "Chi": "3333"}


def accessible(page, name: str) -> None:
    violations = _violations(page)
    small = page.evaluate(SMALL_TARGETS)
    if small:
        violations.append({"id": "touch-target-44", "impact": "serious", "nodes": small,
                           "help": "Touch targets must be at least 44 px high"})
    assert not violations, _readable({name: violations})


def test_players_check_in_by_the_qr_page_and_only_they_are_seated(live_server, make_page, club, director_actor):
    t = tournament_create(actor=director_actor, club=club, name="Da Ling night", game="da_ling", public=True)
    entries = {n: entry_create(actor=director_actor, tournament=t,
                               player=player_create(actor=director_actor, club=club, name=n)) for n in NAMES}
    for name, code in CODES.items():
        entry_code_set(actor=director_actor, entry=entries[name], code=code)
    tournament_start(actor=director_actor, tournament=t)

    director = make_page("desktop", bypass_csp=True)   # axe is injected as a script
    log_in(director, live_server)
    director.goto(f"{live_server.url}/director/tournaments/{t.pk}/check-in/")
    with director.expect_navigation():
        director.get_by_role("button", name="Open session 1 for check-in").click()
    expect(director.locator("#missing")).to_contain_text("Missing (5)")
    accessible(director, "director check-in")
    with director.expect_navigation():
        director.get_by_role("link", name="The room's QR code (a sheet to print)").click()
    expect(director.locator("#check-in-sheet svg")).to_be_visible()
    link = director.locator("#check-in-sheet code").inner_text()
    assert link == f"{live_server.url}/t/{t.slug}/check-in/"

    phone = make_page("phone390", bypass_csp=True)
    for name, code in CODES.items():
        phone.goto(link)
        expect(phone.get_by_role("heading", name="Check in for session 1")).to_be_visible()
        phone.get_by_label("Your name").select_option(label=name)
        if name == "Ah":   # a wrong code first: refused at the field, nothing changes
            phone.get_by_label("Your code (4 to 6 digits)").fill("9999")
            with phone.expect_navigation():
                phone.get_by_role("button", name="Check in", exact=True).click()
            expect(phone.locator("#check-in-code-errors")).to_have_text("Wrong code for Ah.")
            expect(phone.get_by_label("Your code (4 to 6 digits)")).to_have_attribute("aria-invalid", "true")
            assert not SessionCheckIn.objects.exists()
            accessible(phone, "check-in refused")
        phone.get_by_label("Your code (4 to 6 digits)").fill(code)
        with phone.expect_navigation():
            phone.get_by_role("button", name="Check in", exact=True).click()
        expect(phone.locator("#checked-in")).to_contain_text(f"{name}, you are checked in for session 1.")
    assert_no_horizontal_scroll(phone)
    accessible(phone, "check-in page")
    assert set(SessionCheckIn.objects.values_list("how", flat=True)) == {"self"}

    # Di has no code: the director ticks her in. En never comes.
    director.goto(f"{live_server.url}/director/tournaments/{t.pk}/check-in/")
    expect(director.locator("#missing")).to_contain_text("Di, En")
    director.get_by_label("Di", exact=True).check()
    with director.expect_navigation():
        director.get_by_role("button", name="Save check-ins").click()
    expect(director.locator("#missing")).to_contain_text("Missing (1)")

    director.goto(f"{live_server.url}/director/tournaments/{t.pk}/")
    expect(director.locator("#check-in-missing")).to_contain_text("Missing (1): En")
    form = director.locator("#seat-session")
    expect(form.get_by_label("Players")).to_have_value("checked_in")
    form.get_by_label("Table size").select_option(label="4 players")
    with director.expect_navigation():
        form.get_by_role("button", name="Seat session 1").click()
    expect(director.locator("h1#sheet")).to_contain_text("session 1")
    expect(director.locator("#sit-outs")).to_have_count(0)
    seated = set(Seat.objects.filter(table__session__tournament=t).values_list("entry__player__name", flat=True))
    assert seated == {"Ah", "Bo", "Chi", "Di"}
    assert not re.search(r"\bEn\b", director.locator(".sheet").inner_text())
