"""Export and import in a real browser, on a 390 × 844 phone: the director downloads a tournament's
file from its page, uploads it on the club's page, watches the import's progress without a reload
(static/js/live.js, data-poll) and lands on the new tournament, marked "imported" and private,
under the site's strict Content-Security-Policy.

The import's task is held back and run by the test (as a worker would), the page looked at while
the worker is part-way through checking the revisions."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from scoring import tasks
from scoring.models import Tournament, TournamentImport
from scoring.services import imports as imports_services
from scoring.services.rounds import round_record

from .conftest import assert_no_horizontal_scroll
from .test_accessibility import AXE, SMALL_TARGETS, _violations
from .test_director_pages import log_in, open_dashboard

pytestmark = pytest.mark.django_db(transaction=True)

JIE_LONG = {"points": [2, 12, 34, 18], "leader": 0}


@pytest.fixture
def held(monkeypatch):
    """The import tasks sent (their import ids), not run."""
    sent: list[int] = []
    monkeypatch.setattr(imports_services, "_send", sent.append)
    return sent


def test_a_downloaded_file_is_uploaded_watched_and_lands_marked(live_server, make_page, make_setup, held,
                                                                monkeypatch, tmp_path):
    s = make_setup("jie_long")
    for _ in range(4):
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    page = make_page("phone390")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.text} {m.location.get('url')}")
            if m.type == "error" and "favicon" not in m.location.get("url", "") else None)

    log_in(page, live_server)
    open_dashboard(page, s.tournament)
    with page.expect_download() as info:
        page.get_by_role("link", name="Download (JSON)").click()
    download = info.value
    assert download.suggested_filename.startswith(s.tournament.slug + "-")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    assert len(json.loads(saved.read_text())["rounds"]) == 4

    page.get_by_role("link", name=f"← {s.tournament.club.name}").click()
    form = page.locator("#import")
    form.get_by_label("Tournament file (JSON)").set_input_files(saved)
    with page.expect_navigation():
        form.get_by_role("button", name="Import").click()
    box = page.locator("#import-box")
    expect(box).to_contain_text("Waiting for a worker…")
    expect(box.locator(".badge")).to_have_text("Queued")
    assert_no_horizontal_scroll(page)
    page.evaluate("window.sameDocument = true")   # gone if the page reloads

    monkeypatch.setattr(imports_services, "PROGRESS_EVERY", 0)
    original = imports_services._Progress.__call__
    watched = []

    def worker_checks(self, checked, total):   # the page looked at while the worker checks
        original(self, checked, total)
        if checked == 2:
            expect(box).to_contain_text("Checking revisions: 2 of 4…")
            expect(box.locator("progress")).to_have_attribute("value", "2")
            expect(box.locator(".badge")).to_have_text("Running")
            watched.append(page.evaluate("window.sameDocument"))

    monkeypatch.setattr(imports_services._Progress, "__call__", worker_checks)
    assert len(held) == 1
    tasks.tournament_import_run(held.pop())
    assert watched == [True]   # the progress came without a reload

    new = TournamentImport.objects.get().tournament
    expect(page).to_have_url(f"{live_server.url}/director/tournaments/{new.pk}/#export")
    expect(page.locator(".messages")).to_contain_text("imported. It is private until you publish it.")
    marker = page.locator("#export")
    expect(marker.locator(".badge.imported")).to_have_text("imported")
    expect(marker.locator(".badge.imported")).to_be_in_viewport()   # landed on its mark
    expect(marker).to_contain_text("it is private until you publish it.")
    expect(marker.get_by_role("link", name="Publish…")).to_be_visible()
    assert_no_horizontal_scroll(page)
    assert Tournament.objects.filter(name=s.tournament.name).count() == 2 and not new.public
    assert errors == []   # no script or style refused by the Content-Security-Policy, no failed request


def test_the_import_pages_have_no_axe_violations(live_server, make_page, make_setup, tmp_path):
    """A refused import's page (its problem and the form again), and an imported tournament's mark."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci --no-audit --no-fund` (Node.js and npm needed)")
    s = make_setup("jie_long")
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    page = make_page("phone390", bypass_csp=True)
    log_in(page, live_server)
    good = page.request.get(f"{live_server.url}/director/tournaments/{s.tournament.pk}/download/").json()
    bad = json.loads(json.dumps(good))
    bad["rounds"][0]["revisions"][0]["hash"] = "0" * 64
    found = {}
    for name, document in (("refused import", bad), ("imported tournament", good)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(document))
        page.goto(f"{live_server.url}/director/clubs/{s.tournament.club_id}/")
        page.locator("#import").get_by_label("Tournament file (JSON)").set_input_files(path)
        with page.expect_navigation():
            page.locator("#import").get_by_role("button", name="Import").click()
        page.wait_for_load_state()
        problems = _violations(page) + [{"id": "touch-target-44", "nodes": small}
                                        for small in [page.evaluate(SMALL_TARGETS)] if small]
        if problems:
            found[name] = problems
    expect(page.locator("#export .badge.imported")).to_be_visible()
    assert not found, found
