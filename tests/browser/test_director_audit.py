"""The audit box of the director's tournament page in a real browser: "Run an audit", then the
progress bar moves and the result shows up without a reload (static/js/live.js, data-poll), under
the site's strict Content-Security-Policy.

The audit's tasks are held back and run by the test one at a time (as a worker would), so that
the page is seen following each step."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import tasks
from scoring.models import Audit
from scoring.services.rounds import round_record

from .test_director_pages import log_in, open_dashboard

pytestmark = pytest.mark.django_db(transaction=True)

JIE_LONG = {"points": [2, 12, 34, 18], "leader": 0}


@pytest.fixture
def held_tasks(monkeypatch):
    """The audit tasks enqueued (by name, with their arguments), not run."""
    held: list[tuple] = []
    monkeypatch.setattr("scoring.services.audits.enqueue_on_commit", lambda name, *args: held.append((name, args)))
    return held


def run(held: list[tuple], name: str) -> None:
    """Run the first held task of that name."""
    i = next(i for i, (n, _) in enumerate(held) if n == name)
    _, args = held.pop(i)
    getattr(tasks, name.removeprefix("scoring."))(*args)


def test_an_audit_runs_and_its_bar_moves_without_a_reload(live_server, desktop, make_setup, held_tasks, monkeypatch):
    monkeypatch.setattr("scoring.services.audits.CHUNK_ROUNDS", 2)
    s = make_setup("jie_long")
    for _ in range(5):
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    errors: list[str] = []
    desktop.on("console", lambda m: errors.append(f"{m.text} {m.location.get('url')}")
               if m.type == "error" and "favicon" not in m.location.get("url", "") else None)

    log_in(desktop, live_server)
    open_dashboard(desktop, s.tournament)
    box = desktop.locator("#audit-box")
    expect(box).to_contain_text("No audit yet.")
    with desktop.expect_navigation():
        box.get_by_role("button", name="Run an audit").click()
    expect(desktop.locator(".messages")).to_contain_text("Audit under way")
    expect(box).to_contain_text("Waiting for a worker")
    expect(box.get_by_role("button", name="Run an audit")).to_have_count(0)
    desktop.evaluate("window.sameDocument = true")   # gone if the page reloads

    audit = Audit.objects.get()
    run(held_tasks, "scoring.audit_plan")
    bar = box.locator("progress")
    expect(bar).to_have_attribute("max", "5")
    expect(bar).to_have_attribute("value", "0")
    expect(box).to_contain_text("0 of 5 deals checked…")

    run(held_tasks, "scoring.audit_chunk")   # chunk 0, the standings: no deals of its own
    run(held_tasks, "scoring.audit_chunk")
    expect(bar).to_have_attribute("value", "2")
    run(held_tasks, "scoring.audit_chunk")
    expect(bar).to_have_attribute("value", "4")
    expect(box.locator(".badge")).to_have_text("Running")
    run(held_tasks, "scoring.audit_chunk")
    expect(bar).to_have_attribute("value", "5")
    run(held_tasks, "scoring.audit_finish")

    expect(box).to_contain_text("5 of 5 deals checked: everything holds.")
    expect(box.locator(".badge")).to_have_text("Passed")
    expect(box.get_by_role("button", name="Run an audit")).to_be_visible()
    assert desktop.evaluate("window.sameDocument") is True
    assert held_tasks == []
    audit.refresh_from_db()
    assert (audit.status, audit.done, audit.total) == ("passed", 5, 5)
    assert errors == []   # no script or style refused by the Content-Security-Policy, no failed request
