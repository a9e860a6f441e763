"""Paper sheets in a real browser, on a 390 × 844 phone: on the session's sheet the director ticks
a second language and starts "Print paper sheets", watches the tables being drawn without a
reload (static/js/live.js, data-poll) and downloads the PDF, under the site's strict
Content-Security-Policy.

The job's task is held back and run by the test (as a worker would), the page looked at while
the worker is part-way through the tables."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import tasks
from scoring.models import PaperSheetJob
from scoring.services import paper_sheets as paper_sheets_services
from scoring.services.seating import session_seat
from tests.scoring.bulk import bulk_entries

from .conftest import assert_no_horizontal_scroll
from .test_director_pages import log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def held(monkeypatch):
    """The paper sheets tasks sent (their job ids), not run."""
    sent: list[int] = []
    monkeypatch.setattr(paper_sheets_services, "_send", sent.append)
    return sent


def test_the_director_prints_watches_and_downloads(live_server, make_page, make_setup, held, monkeypatch):
    s = make_setup("jie_long")
    bulk_entries(s.tournament, 8)
    session = session_seat(actor=s.director_actor, tournament=s.tournament, method="random", table_size=4,
                           leftovers="sit_out").session
    page = make_page("phone390")
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.text} {m.location.get('url')}")
            if m.type == "error" and "favicon" not in m.location.get("url", "") else None)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/director/tournaments/{s.tournament.pk}/sessions/{session.number}/sheet/")

    section = page.locator("#paper-sheets")
    expect(section.get_by_label("English")).to_be_checked()
    section.get_by_label("繁體中文").check()
    with page.expect_navigation():
        section.get_by_role("button", name="Print paper sheets").click()
    box = section.locator(".paper-sheets-box")
    expect(box).to_contain_text("Paper sheets in English, 繁體中文")
    expect(box).to_contain_text("Waiting for a worker…")
    assert_no_horizontal_scroll(page)
    page.evaluate("window.sameDocument = true")   # gone if the page reloads

    monkeypatch.setattr(paper_sheets_services, "PROGRESS_EVERY", 0)
    original = paper_sheets_services._Progress.__call__
    watched = []

    def worker_draws(self, done, total):   # the page looked at while the worker draws
        original(self, done, total)
        if done == 2:
            expect(box).to_contain_text("Drawing the tables: 2 of 3…")
            expect(box.locator("progress")).to_have_attribute("value", "2")
            expect(box.locator(".badge")).to_have_text("Running")
            watched.append(page.evaluate("window.sameDocument"))

    monkeypatch.setattr(paper_sheets_services._Progress, "__call__", worker_draws)
    assert len(held) == 1
    tasks.paper_sheets_render(held.pop())
    assert watched == [True]   # the progress came without a reload

    link = box.get_by_role("link", name="Download the PDF")
    expect(link).to_be_visible()
    expect(box.locator(".badge")).to_have_text("Ready")
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename == f"tournament-{s.tournament.pk}-session-{session.number}-sheets.pdf"
    assert open(download.path(), "rb").read() == bytes(PaperSheetJob.objects.get().pdf)
    assert page.evaluate("window.sameDocument")
    assert_no_horizontal_scroll(page)
    assert errors == []   # no script or style refused by the Content-Security-Policy, no failed request
