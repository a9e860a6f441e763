"""The Content-Security-Policy in a real browser: every kind of page the site serves (public,
scorer, director, API docs, admin) loads and works under it with not one violation. Violations
are collected twice, from the page's ``securitypolicyviolation`` events and from the console
("Refused to …"), in every frame and on every page of the context."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from scoring.models import Tournament

from .test_director_pages import log_in, open_dashboard

pytestmark = pytest.mark.django_db(transaction=True)

#: Runs in every document before its own scripts; the binding reports to the test.
LISTEN = """
document.addEventListener("securitypolicyviolation", (e) => {
  window.reportCspViolation({page: location.pathname, directive: e.violatedDirective,
                             blocked: e.blockedURI, source: e.sourceFile, line: e.lineNumber, sample: e.sample});
});
"""


#: The one request the policy is meant to refuse: ReDoc's sidebar always draws Redocly's logo from
#: cdn.redoc.ly (no option leaves it out), and the docs must not reach the internet
#: (test_api_docs.py). Reported by the header's policy and by the page's own <meta> policy.
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


def expected(violation: dict) -> bool:
    return (violation.get("page") == "/api/redoc/" and violation.get("directive") == "img-src"
            and violation.get("blocked") == REDOC_LOGO)


class Violations:
    """Every CSP violation a browser context saw, and the CSP header of every page it loaded."""

    def __init__(self, context):
        self.events: list[dict] = []
        self.console: list[str] = []
        self.headers: dict[str, str | None] = {}
        context.expose_binding("reportCspViolation", lambda source, v: self.events.append(v))
        context.add_init_script(LISTEN)
        context.on("page", self.watch)
        for page in context.pages:
            self.watch(page)

    def watch(self, page) -> None:
        page.on("console", lambda msg: self.console.append(f"{page.url}: {msg.text}")
                if "Content Security Policy" in msg.text or "Content-Security-Policy" in msg.text else None)
        page.on("response", lambda r: self.headers.__setitem__(r.url, r.headers.get("content-security-policy"))
                if r.request.resource_type == "document" else None)

    def assert_none(self, page) -> None:
        page.wait_for_timeout(300)  # violation events are delivered asynchronously
        events = [v for v in self.events if not expected(v)]
        console = [line for line in self.console if REDOC_LOGO not in line]
        assert events == [] and console == [], (events, console)
        documents = {url: policy for url, policy in self.headers.items() if "/static/" not in url}
        assert documents, "no page was loaded"
        for url, policy in documents.items():
            assert policy and "default-src 'self'" in policy, (url, policy)


@pytest.fixture
def watched(make_page):
    """``watched(kind)``: a page whose context records CSP violations: ``(page, Violations)``."""

    def make(kind: str = "desktop"):
        page = make_page(kind)
        return page, Violations(page.context)

    return make


def test_public_pages(live_server, watched):
    page, seen = watched("phone")
    page.goto(live_server.url + "/")
    # site.css applied (a style file, not inline)
    assert page.locator("header.site").evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(164, 22, 26)"
    page.goto(live_server.url + "/calculator/")
    # the sample picker submits itself (site.js, data-autosubmit)
    page.select_option("select[name=sample]", label="Jie Long — quick entry (points)")
    page.wait_for_url("**sample=*")
    assert "jie_long" in page.input_value("#record")
    with page.expect_navigation():
        page.click("text=Evaluate")
    expect(page.locator("#result")).to_contain_text("Li pays Mei 23")
    seen.assert_none(page)


def test_a_public_tournaments_pages_chart_and_replay(live_server, watched, ding_niu):
    from scoring.services.rounds import round_record

    from ..scoring.bodies import DING_NIU_FULL_LOG

    round_record(actor=ding_niu.scorer_actor, table=ding_niu.table, body=DING_NIU_FULL_LOG)
    page, seen = watched("phone")
    slug = ding_niu.tournament.slug
    for path in (f"/t/{slug}/", f"/t/{slug}/room/", f"/t/{slug}/payouts/",
                 f"/t/{slug}/players/{ding_niu.entries[0].player_id}/", f"/t/{slug}/tables/{ding_niu.table.pk}/"):
        page.goto(live_server.url + path)
    # the replay's buttons (replay.js) and the chart's colours (site.css, classes only)
    page.get_by_role("button", name="Start").click()
    expect(page.locator("[data-replay-status]")).to_have_text("Before the lead")
    page.goto(f"{live_server.url}/t/{slug}/players/{ding_niu.entries[0].player_id}/")
    assert page.locator("svg.chart .chart-line").evaluate("el => getComputedStyle(el).stroke") == "rgb(164, 22, 26)"
    seen.assert_none(page)


def test_the_scorer_page_and_its_level_switch(live_server, watched, make_setup):
    s = make_setup("jie_long")
    page, seen = watched("phone")
    page.goto(f"{live_server.url}/s/{s.token}/")
    anna = page.get_by_role("group", name="1. Anna", exact=True)
    expect(anna.get_by_label("Points", exact=True)).to_be_visible()
    expect(anna.get_by_label("Unplayed tiles", exact=True)).to_be_hidden()
    page.get_by_role("radio", name="Unplayed tiles").check()  # deal-form.js
    expect(anna.get_by_label("Points", exact=True)).to_be_hidden()
    expect(anna.get_by_label("Unplayed tiles", exact=True)).to_be_visible()
    seen.assert_none(page)


def test_the_director_dashboard_its_questions_and_a_qr_code(live_server, watched, make_setup):
    s = make_setup("ding_niu")
    page, seen = watched("desktop")
    log_in(page, live_server)
    open_dashboard(page, s.tournament)
    questions: list[str] = []

    def cancel(dialog):
        questions.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", cancel)
    page.get_by_role("button", name="Finish the tournament").click()
    page.wait_for_timeout(300)
    assert questions == ["Finish the tournament? It becomes read-only. Session 1 is open: finishing closes it."]  # site.js, data-confirm
    s.tournament.refresh_from_db()
    assert s.tournament.status == Tournament.Status.RUNNING

    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.locator("article.table-card").get_by_role("button", name="New scorer link + QR").click()
    qr = page.locator("#scorer-link .qr svg")  # inline SVG: drawn under the policy
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box and box["width"] >= 100 and abs(box["width"] - box["height"]) < 1
    assert qr.locator("path").count() >= 1
    seen.assert_none(page)


def test_the_api_docs(live_server, watched):
    page, seen = watched("desktop")
    page.goto(live_server.url + "/api/docs/")
    evaluate = page.locator("#operations-engine-evaluate")
    expect(evaluate).to_be_visible(timeout=30_000)
    assert evaluate.evaluate("el => getComputedStyle(el).borderTopStyle") == "solid"  # swagger-ui.css
    evaluate.locator(".opblock-summary").click()  # opens: Swagger UI's own inline styles
    expect(evaluate.get_by_role("button", name="Try it out")).to_be_visible()
    page.goto(live_server.url + "/api/redoc/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Gupai Club API", timeout=30_000)
    expect(page.locator("redoc")).to_contain_text("/api/v1/evaluate/")
    page.locator("[role=menuitem]", has_text="engine").first.click()
    page.get_by_placeholder("Search...").fill("evaluate")  # ReDoc's search (a web worker)
    expect(page.locator("[data-role='search:results']")).to_contain_text("valuate")
    seen.assert_none(page)


def test_the_admin(live_server, watched, jie_long):
    get_user_model().objects.create_superuser("root", "root@example.org", "root-secret-1")
    page, seen = watched("desktop")
    page.goto(live_server.url + "/admin/")
    page.get_by_label("Username").fill("root")
    page.get_by_label("Password").fill("root-secret-1")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    expect(page.locator("#site-name")).to_contain_text("Gupai Club (read-only)")
    # base.css applied: the header has its colour, not the browser's default
    assert page.locator("#header").evaluate("el => getComputedStyle(el).backgroundColor") != "rgba(0, 0, 0, 0)"
    page.goto(live_server.url + "/admin/scoring/tournament/")
    expect(page.locator("#result_list")).to_contain_text(jie_long.tournament.name)
    page.goto(live_server.url + f"/admin/scoring/tournament/{jie_long.tournament.pk}/change/")
    expect(page.locator("#content")).to_contain_text(jie_long.tournament.name)
    page.goto(live_server.url + "/admin/scoring/actionlog/?q=table")  # search and filters
    expect(page.locator("#changelist")).to_be_visible()
    toggle = page.locator("#toggle-nav-sidebar")  # nav_sidebar.js
    if toggle.count():
        toggle.click()
    seen.assert_none(page)


def test_the_check_sees_a_violation(live_server, watched):
    """The harness itself: an inline style added by a script is caught."""
    page, seen = watched("desktop")
    page.goto(live_server.url + "/")
    page.evaluate("document.head.insertAdjacentHTML('beforeend', '<style>body{color:red}</style>')")
    page.wait_for_timeout(300)
    assert any(v["directive"].startswith("style-src") for v in seen.events), seen.events
    assert any(re.search(r"style", line) for line in seen.console), seen.console
