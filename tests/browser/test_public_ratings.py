"""The public rating ladder and a player's rating in a real browser (Debian's Chromium): the
ladder's moves, a name followed to the player's page with its chart; both pages checked by
axe-core (WCAG 2 A/AA) and for 44 px touch targets, as tests/browser/test_accessibility.py does;
the director's ratings and season pages too."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Club
from scoring.services.ratings import ratings_follow
from scoring.services.rounds import round_record
from scoring.services.seasons import season_create, season_tournament_add

from ..scoring.bodies import JIE_LONG
from .conftest import assert_no_horizontal_scroll
from .test_accessibility import AXE, SMALL_TARGETS, _readable, _violations

pytestmark = pytest.mark.django_db(transaction=True)


def _check(page, name: str, found: dict) -> None:
    violations = _violations(page)
    small = page.evaluate(SMALL_TARGETS)
    if small:
        violations.append({"id": "touch-target-44", "impact": "serious", "nodes": small,
                           "help": "Touch targets must be at least 44 px high"})
    if violations:
        found[name] = violations


def test_the_public_ladder_leads_to_the_players_chart(live_server, make_page, make_setup, club, director_actor):
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci --no-audit --no-fund` (Node.js and npm needed)")
    first = make_setup("jie_long")
    for _ in range(3):
        round_record(actor=first.scorer_actor, table=first.table, body=JIE_LONG)
    second = make_setup("jie_long")
    for _ in range(6):
        round_record(actor=second.scorer_actor, table=second.table, body={"points": [12, 2, 34, 18]})
    ratings_follow(club=club)
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    season = season_create(actor=director_actor, club=club, name="Spring")
    season_tournament_add(actor=director_actor, season=season, tournament=first.tournament, weight="2")

    page = make_page("phone390", bypass_csp=True)
    found: dict[str, list[dict]] = {}
    page.goto(f"{live_server.url}/clubs/{club.pk}/ratings/")
    rows = page.locator("#ladder tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_contain_text("Bob")
    expect(rows.nth(0).locator(".move")).to_have_text("+1")
    expect(rows.nth(1).locator(".move")).to_have_text("-1")
    assert_no_horizontal_scroll(page)
    _check(page, "public ladder", found)

    with page.expect_navigation():
        rows.nth(1).get_by_role("link", name="Anna").click()
    chart = page.get_by_role("img", name="Rating of Anna")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 100
    assert page.locator("#rating-chart-title ~ polyline").get_attribute("points").count(",") == 9
    expect(page.locator("#rating-history tbody tr")).to_have_count(9)
    assert_no_horizontal_scroll(page)
    _check(page, "player's rating", found)

    page.goto(f"{live_server.url}/director/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("alice-secret-1")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    for name, path in (("director ratings", f"/director/clubs/{club.pk}/ratings/"),
                       ("director seasons", f"/director/clubs/{club.pk}/seasons/"),
                       ("director season", f"/director/seasons/{season.pk}/")):
        page.goto(live_server.url + path)
        _check(page, name, found)
    assert not found, "axe-core found WCAG 2 A/AA violations:" + _readable(found)


#: The right edge of each table's last column, and the viewport's width.
LAST_COLUMN = """(id) => { const cells = document.querySelectorAll('#' + id + ' tr > :last-child');
  return {right: Math.max(...[...cells].map(c => c.getBoundingClientRect().right)), width: window.innerWidth}; }"""


def test_the_last_columns_of_the_ladder_and_why_it_moved_fit_a_390_px_phone(live_server, make_page, make_setup,
                                                                          club, tmp_path):
    setup = make_setup("jie_long", names=["Anastasia Konstantinopoulou", "Bartholomew", "Celine", "Dominic"])
    for _ in range(3):
        round_record(actor=setup.scorer_actor, table=setup.table, body=JIE_LONG)
    ratings_follow(club=club)
    Club.objects.filter(pk=club.pk).update(ladder_public=True)
    page = make_page("phone390")
    page.goto(f"{live_server.url}/clubs/{club.pk}/ratings/")
    page.screenshot(path=str(tmp_path / "ladder.png"), full_page=True)
    edge = page.evaluate(LAST_COLUMN, "ladder")
    assert edge["right"] <= edge["width"], edge
    with page.expect_navigation():
        page.locator("#ladder").get_by_role("link", name="Anastasia Konstantinopoulou").click()
    page.screenshot(path=str(tmp_path / "history.png"), full_page=True)
    edge = page.evaluate(LAST_COLUMN, "rating-history")
    assert edge["right"] <= edge["width"], edge
    assert_no_horizontal_scroll(page)
