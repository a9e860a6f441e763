"""The pages' styles and behaviours come from static files (static/css/site.css, static/js/): the
questions before a form is sent (data-confirm), and the calculator's sample picker
(data-autosubmit, in test_calculator.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import Tournament

from .test_director_pages import log_in, open_dashboard

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_site_stylesheet_applies(live_server, phone):
    phone.goto(live_server.url + "/")
    header = phone.locator("header.site")
    assert header.evaluate("el => getComputedStyle(el).backgroundColor") == "rgb(164, 22, 26)"  # --accent


def test_finishing_a_tournament_asks_first(live_server, desktop, make_setup):
    s = make_setup("ding_niu")
    log_in(desktop, live_server)
    open_dashboard(desktop, s.tournament)
    finish = desktop.get_by_role("button", name="Finish the tournament")
    questions: list[str] = []

    def cancel(dialog):
        questions.append(dialog.message)
        dialog.dismiss()

    posts: list[str] = []
    desktop.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    desktop.once("dialog", cancel)
    finish.click()
    desktop.wait_for_timeout(300)
    assert questions == ["Finish the tournament? It becomes read-only. Session 1 is open: finishing closes it."]
    assert posts == []  # Cancel: nothing sent
    expect(finish).to_be_visible()  # still on the dashboard
    s.tournament.refresh_from_db()
    assert s.tournament.status == Tournament.Status.RUNNING

    desktop.once("dialog", lambda dialog: dialog.accept())
    with desktop.expect_navigation():
        finish.click()
    expect(desktop.get_by_role("button", name="Finish the tournament")).to_have_count(0)
    s.tournament.refresh_from_db()
    assert s.tournament.status == Tournament.Status.FINISHED


def test_a_new_scorer_link_asks_first_and_names_the_table(live_server, desktop, make_setup):
    s = make_setup("ding_niu", table_name="Table <1> & \"A\"")
    log_in(desktop, live_server)
    open_dashboard(desktop, s.tournament)
    questions: list[str] = []

    def cancel(dialog):
        questions.append(dialog.message)
        dialog.dismiss()

    posts: list[str] = []
    desktop.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    desktop.once("dialog", cancel)
    desktop.locator("article.table-card").get_by_role("button", name="New scorer link + QR").click()
    desktop.wait_for_timeout(300)
    assert questions == ['Replace the scorer link of Session 1 · Table <1> & "A"? The old link stops working.']
    assert posts == []
    expect(desktop.get_by_role("heading", level=1)).to_contain_text(s.tournament.name)
