"""Every main page checked by axe-core (WCAG 2 A and AA rules), on a phone and on a desktop.

axe-core comes from the npm registry, pinned in package.json / package-lock.json (``make test``
runs ``npm ci`` when it is missing). It is injected into each page by Playwright: the browser
context bypasses our strict Content-Security-Policy for that one script, and only in this test.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.services.rounds import round_dispute, round_record

from .conftest import DESKTOP

pytestmark = pytest.mark.django_db(transaction=True)

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: The rule sets of WCAG 2.0, 2.1 and 2.2, levels A and AA.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
#: And axe's best practices on structure: landmarks, one h1, headings in order; and every data
#: cell of a table has a header (td-has-header: WCAG 1.3.1, but "experimental" in axe, so the tag
#: filter above leaves it out).
STRUCTURE_RULES = ["heading-order", "page-has-heading-one", "landmark-one-main", "region", "landmark-unique",
                   "landmark-no-duplicate-banner", "landmark-no-duplicate-main", "td-has-header"]
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": DESKTOP}

DING_NIU_DEALS = [[0, 6, 6, 10], [6, 0, 12, 8], [10, 4, 0, 6]]


def _violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    return page.evaluate("""async ([tags, rules]) => {
        const wcag = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
        const structure = await axe.run(document, {runOnly: {type: "rule", values: rules}, resultTypes: ["violations"]});
        return [...wcag.violations, ...structure.violations].map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(" ") + "  — " + (n.failureSummary || "").replace(/\\s+/g, " "))}));
    }""", [WCAG_TAGS, STRUCTURE_RULES])


#: Controls a thumb must hit, 44 px high at least (axe-core asks only for 24 px, WCAG 2.5.8):
#: buttons, selects, text boxes, the labels holding a checkbox or radio (or a choice's button), summaries, links on a
#: line of their own. Links inside a sentence are exempt (WCAG 2.5.5's "inline" exception).
SMALL_TARGETS = """() => {
    const own = a => { const p = a.parentElement; return p && (p.tagName === "LI" || p.tagName === "NAV" ||
        p.tagName === "HEADER" || p.tagName === "TD" || (p.tagName === "P" && p.children.length === 1 &&
        p.textContent.trim() === a.textContent.trim())); };
    const all = [...document.querySelectorAll("button, select, textarea, summary, " +
        "input:not([type=hidden]):not([type=checkbox]):not([type=radio]), label.check, label.radio, label.choice, " +
        "a[href]")];
    return all.filter(el => el.tagName !== "A" || own(el))
        .filter(el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
                        getComputedStyle(el).visibility !== "hidden" && r.height < 43.5; })
        .map(el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + " “" +
             (el.textContent || el.getAttribute("aria-label") || el.name || "").trim().slice(0, 40) + "” " +
             Math.round(el.getBoundingClientRect().height) + "px high");
}"""


def _readable(found: dict[str, list[dict]]) -> str:
    lines = []
    for page, violations in found.items():
        lines.append(f"\n{page}:")
        for v in violations:
            lines.append(f"  [{v['impact']}] {v['id']}: {v['help']}")
            lines.extend(f"      {n[:300]}" for n in v["nodes"][:8])
            if len(v["nodes"]) > 8:
                lines.append(f"      … and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


@pytest.fixture
def played(make_setup):
    """A public, running Ding Niu tournament with three deals, one of them disputed."""
    s = make_setup("ding_niu")
    rounds = [round_record(actor=s.scorer_actor, table=s.table,
                                    body={"points": points, "leader": 0, "entered_by": 0})
              for points in DING_NIU_DEALS]
    round_dispute(actor=s.scorer_actor, round=rounds[-1], message="George says he had 4 left")
    return s


@pytest.fixture
def draft(make_setup):
    """A tournament not started: its settings form offers every rule option (Da Ling has all kinds)."""
    return make_setup("da_ling", names=["Ann", "Bo", "Cy"], start=False).tournament


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_main_pages_have_no_axe_violations(live_server, browser, played, draft, viewport):
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci --no-audit --no-fund` (Node.js and npm needed)")
    s = played
    t = s.tournament
    player = s.entries[0].player
    context = browser.new_context(viewport=VIEWPORTS[viewport], bypass_csp=True,
                                  **({"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
                                     if viewport == "phone" else {}))
    page = context.new_page()
    page.set_default_timeout(15_000)
    found: dict[str, list[dict]] = {}

    def check(name: str, path: str | None = None) -> None:
        if path is not None:
            page.goto(live_server.url + path)
        violations = _violations(page)
        small = page.evaluate(SMALL_TARGETS)
        if small:
            violations.append({"id": "touch-target-44", "impact": "serious", "nodes": small,
                               "help": "Touch targets must be at least 44 px high"})
        lang = page.evaluate("document.documentElement.lang")
        if lang != "en":
            violations.append({"id": "html-lang", "impact": "serious", "nodes": [lang],
                               "help": "<html lang> must name the page's language (en)"})
        if violations:
            found[name] = violations

    try:
        check("home", "/")
        check("calculator", "/calculator/")
        check("public standings", f"/t/{t.slug}/")
        check("payouts", f"/t/{t.slug}/payouts/")
        check("player", f"/t/{t.slug}/players/{player.pk}/")
        check("public table", f"/t/{t.slug}/tables/{s.table.pk}/")
        check("room display", f"/t/{t.slug}/room/")
        check("scorer page", f"/s/{s.token}/")
        for i, points in enumerate(DING_NIU_DEALS[0]):
            page.get_by_role("group", name=f"{i + 1}. {s.names[i]}", exact=True).get_by_label(
                "Points", exact=True).fill(str(points))
        page.get_by_label("Led by").select_option(index=1)
        page.get_by_label("Entered by").select_option(index=1)
        page.get_by_role("button", name="Preview", exact=True).click()
        expect(page.locator("#preview")).to_be_visible()
        check("scorer page with a preview")
        check("director login", "/director/login/")
        page.get_by_label("Username").fill("alice")
        page.get_by_label("Password").fill("alice-secret-1")
        with page.expect_navigation():
            page.get_by_role("button", name="Log in").click()
        check("director home")
        check("club page", f"/director/clubs/{t.club_id}/")
        check("tournament dashboard", f"/director/tournaments/{t.pk}/")
        check("draft tournament's settings", f"/director/tournaments/{draft.pk}/")
        check("director table page", f"/director/tables/{s.table.pk}/")
        check("paper sheet entry", f"/director/tables/{s.table.pk}/paper-sheet/")
        for i, points in enumerate([10, 6, 5, 10]):  # 5 is no Ding Niu total: refused at its box
            page.get_by_label(f"Row 1, Points, {i + 1}. {s.names[i]}", exact=True).fill(str(points))
        with page.expect_navigation():
            page.get_by_role("button", name="Check and record the sheet").click()
        expect(page.locator("#sheet-errors")).to_be_visible()
        check("paper sheet entry with a wrong row")
    finally:
        context.close()
    assert not found, f"axe-core found WCAG 2 A/AA violations ({viewport}):" + _readable(found)


@pytest.mark.parametrize("game, level, chosen", [
    ("tau_ngau", "Values only", ["7", "no bull", "0", "9"]),
    ("da_ling", "Winners only", ["— none —", "3. P3", "— none —", "1. P1"]),
])
def test_the_quick_levels_have_no_axe_violations(live_server, make_page, make_setup, game, level, chosen):
    """The rows of buttons of a quick level (a seat's value, a group's winner), chosen and previewed."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci --no-audit --no-fund` (Node.js and npm needed)")
    s = make_setup(game)
    page = make_page("phone390", bypass_csp=True)
    page.goto(f"{live_server.url}/s/{s.token}/")
    page.get_by_role("radio", name=level).check()
    rows = page.locator("fieldset.choices:visible")
    for row, label in zip(rows.all(), chosen):
        row.locator("label.choice").filter(has=page.get_by_text(label, exact=True)).click()
    for i in range(1, 4 if game == "tau_ngau" else 0):
        page.locator(f'fieldset.seat[data-position="{i}"]').get_by_label("Stake (not the banker)").fill("2")
    page.get_by_label("Entered by").select_option(index=1)
    page.get_by_role("button", name="Preview", exact=True).click()
    expect(page.locator("#preview")).to_be_visible()
    violations = _violations(page)
    small = page.evaluate(SMALL_TARGETS)
    assert not small, small
    assert not violations, _readable({game: violations})


def test_the_notifications_section_has_no_axe_violations(live_server, make_page, make_setup, settings):
    """The scorer page of a proven player where the site has VAPID keys: "Allow notifications"
    (static/js/push.js shows the section where the browser can push; Chromium can)."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci --no-audit --no-fund` (Node.js and npm needed)")
    from scoring.domain.push import new_key_pair

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_key_pair()
    s = make_setup("jie_long", require_proof=True)
    page = make_page("phone390", bypass_csp=True)
    page.goto(f"{live_server.url}/s/{s.token}/")
    page.select_option("#who-seat", label="1. Anna (new code)")
    page.fill("#who-code", "4821")
    page.fill("#who-code-again", "4821")
    page.click("#who button[type=submit]")
    expect(page.locator("#notifications-status")).to_have_text("Notifications are off for this phone.")
    violations = _violations(page)
    small = page.evaluate(SMALL_TARGETS)
    assert not small, small
    assert not violations, _readable({"notifications": violations})
