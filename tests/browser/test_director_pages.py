"""The director's pages in a real browser: log in, open a tournament, create a table (its scorer
link and QR code are shown once, in the answer to the form, and a reload does not send the form
again), a new link from the dashboard at 360 px, and a dispute raised at the table showing first
on the dashboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.domain.actors import Actor
from scoring.models import Seat, Table
from scoring.selectors.tables import table_by_scorer_token
from scoring.services.clubs import player_create
from scoring.services.rounds import round_record
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create

from .conftest import assert_no_horizontal_scroll

pytestmark = pytest.mark.django_db(transaction=True)

DING_NIU_BODY = {"points": [0, 6, 6, 10], "leader": 0, "entered_by": 0}


def log_in(page, live_server, username: str = "alice", password: str = "alice-secret-1") -> None:
    page.goto(live_server.url + "/director/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Director", exact=True)).to_be_visible()


def open_dashboard(page, tournament) -> None:
    """From the director's home page, follow the tournament's link."""
    with page.expect_navigation():
        page.get_by_role("link", name=tournament.name, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(tournament.name)


def enter_players(setup, names: list[str]) -> None:
    actor = setup.director_actor
    club = setup.tournament.club
    for name in names:
        player = player_create(actor=actor, club=club, name=name)
        entry_create(actor=actor, tournament=setup.tournament, player=player)


def second_table(setup, names: list[str], name: str = "Table 2"):
    enter_players(setup, names)
    entries = [setup.tournament.entries.get(player__name=n) for n in names]
    return table_create(actor=setup.director_actor, tournament=setup.tournament, name=name, entries=entries)


# --- a new table and its link -------------------------------------------------------------------

def test_a_new_table_shows_its_scorer_link_and_qr_code_once(live_server, desktop, phone, make_setup):
    s = make_setup("ding_niu")
    seat_order = ["Heidi", "Eve", "Grace", "Frank"]  # not the order they were entered in
    enter_players(s, ["Eve", "Frank", "Grace", "Heidi"])

    log_in(desktop, live_server)
    open_dashboard(desktop, s.tournament)
    form = desktop.locator("#new-table")
    form.get_by_label("Name").fill("Table 2")
    for i, name in enumerate(seat_order):
        form.get_by_label(f"Seat {i + 1}", exact=True).select_option(label=name)
    with desktop.expect_navigation():
        form.get_by_role("button", name="Create table").click()

    expect(desktop).to_have_url(re.compile(r"/director/tables/\d+/link/$"))
    expect(desktop.get_by_role("heading", name="Scorer link of Session 1 · Table 2")).to_be_visible()
    expect(desktop.locator("main")).to_contain_text("1. Heidi · 2. Eve · 3. Grace · 4. Frank")
    card = desktop.locator("#scorer-link")
    qr = card.locator(".qr svg")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box and box["width"] >= 100 and abs(box["width"] - box["height"]) < 1  # a square code
    link = card.get_by_role("link")
    url = link.get_attribute("href")
    assert re.fullmatch(re.escape(live_server.url) + r"/s/[A-Za-z0-9_-]{20,}/", url), url
    expect(link).to_have_text(url)  # the address to send, written out
    token = url.rstrip("/").rsplit("/", 1)[1]

    table = Table.objects.get(session__tournament=s.tournament, name="Table 2")
    assert [seat.entry.player.name for seat in Seat.objects.filter(table=table).order_by("position")] == seat_order
    assert table_by_scorer_token(token) == table

    # The scorer opens the link on a phone of their own (no login): the table's page, writable.
    phone.goto(url)
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Table 2")
    assert phone.locator("#totals tbody tr td:first-child").all_inner_texts() == [
        "1. Heidi", "2. Eve", "3. Grace", "4. Frank"]
    for i, (name, points) in enumerate(zip(seat_order, [0, 6, 6, 10])):
        phone.get_by_role("group", name=f"{i + 1}. {name}").get_by_label("Points", exact=True).fill(str(points))
    phone.get_by_label("Entered by").select_option(label="2. Eve")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Submit", exact=True).click()
    expect(phone.locator(".messages")).to_have_text("Deal 1 recorded.")
    assert table.rounds.count() == 1
    assert_no_horizontal_scroll(phone)

    # The link page does not show the link again. It took its own address after the POST that
    # created the table, so a reload asks for it and does not send the form again.
    desktop.reload()
    expect(desktop).to_have_url(re.compile(r"/director/tables/\d+/link/$"))
    expect(desktop.get_by_role("heading", name="Scorer link of Session 1 · Table 2")).to_be_visible()
    assert Table.objects.filter(session__tournament=s.tournament, name="Table 2").count() == 1
    expect(desktop.locator("#scorer-link")).to_have_count(0)
    expect(desktop.locator("svg")).to_have_count(0)
    expect(desktop.locator("main")).to_contain_text("The scorer link is shown only once")
    assert token not in desktop.content()
    assert table_by_scorer_token(token) == table  # hidden, still valid


def test_a_new_scorer_link_from_the_dashboard_on_a_phone(live_server, make_page, make_setup):
    s = make_setup("ding_niu")
    old_url = f"{live_server.url}/s/{s.token}/"
    director = make_page("phone")
    log_in(director, live_server)
    open_dashboard(director, s.tournament)
    assert_no_horizontal_scroll(director)
    card = director.locator("article.table-card").filter(has_text="Table 1")
    director.once("dialog", lambda dialog: dialog.accept())  # "Replace the scorer link of Table 1?"
    with director.expect_navigation():
        card.get_by_role("button", name="New scorer link + QR").click()
    expect(director.get_by_role("heading", name="Scorer link of Session 1 · Table 1")).to_be_visible()
    qr = director.locator("#scorer-link .qr svg")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360  # the whole code on the screen
    assert_no_horizontal_scroll(director)
    new_url = director.locator("#scorer-link").get_by_role("link").get_attribute("href")
    assert new_url != old_url

    scorer = make_page("phone")
    scorer.goto(old_url)
    expect(scorer.get_by_role("heading", name="This scorer link is not valid")).to_be_visible()
    scorer.goto(new_url)
    expect(scorer.get_by_role("heading", level=1)).to_contain_text("Table 1")

    # The director reloads the page: the link is not shown again, nor replaced again.
    director.reload()
    expect(director).to_have_url(re.compile(r"/director/tables/\d+/link/$"))
    expect(director.locator("#scorer-link")).to_have_count(0)
    expect(director.get_by_role("button", name="New scorer link + QR")).to_be_visible()
    scorer.goto(new_url)
    expect(scorer.get_by_role("heading", level=1)).to_contain_text("Table 1")


# --- disputes -----------------------------------------------------------------------------------

def test_a_dispute_raised_at_the_table_shows_first_on_the_dashboard(live_server, make_page, make_setup):
    s = make_setup("ding_niu")
    table2, token2 = second_table(s, ["Eve", "Frank", "Grace", "Heidi"])
    round_record(actor=s.scorer_actor, table=s.table, body=DING_NIU_BODY)
    round_record(actor=s.scorer_actor, table=s.table, body=DING_NIU_BODY)
    round_record(actor=Actor(table=table2, ip="10.0.0.8"), table=table2, body=DING_NIU_BODY)

    director = make_page("phone")  # the director's check at 360 px
    log_in(director, live_server)
    open_dashboard(director, s.tournament)
    expect(director.locator("#disputed")).to_contain_text("No disputes.")

    scorer = make_page("phone")
    scorer.goto(f"{live_server.url}/s/{token2}/")
    deal = scorer.locator("#deal-1")
    deal.get_by_text("Call the referee").click()
    deal.get_by_label("What is wrong?").fill("Frank counted 16, not 6")
    with scorer.expect_navigation():
        deal.get_by_role("button", name="Dispute").click()
    expect(scorer.locator(".messages")).to_have_text("Deal 1 is flagged for the referee.")

    director.reload()
    expect(director.locator("#disputed").get_by_role("heading", name="Disputed deals (1)")).to_be_visible()
    first = director.locator("main article").first  # the first card on the page
    expect(first).to_contain_text("Table 2 · deal 1")
    expect(first).to_contain_text("Referee called: Frank counted 16, not 6")
    expect(first).to_contain_text("Frank pays Eve 2")  # what was recorded, to judge the claim
    expect(first.get_by_role("button", name="Settle the dispute")).to_be_visible()
    # above every table, and on the first screen of a phone
    dispute_box = first.bounding_box()
    tables_box = director.locator("#tables").bounding_box()
    assert dispute_box["y"] + dispute_box["height"] <= tables_box["y"]
    assert dispute_box["y"] < 740
    expect(director.locator("article.table-card").filter(has_text="Table 2").locator(".badge.disputed")).to_have_text(
        "1 disputed")
    expect(director.locator("article.table-card").filter(has_text="Table 1").locator(".badge.disputed")).to_have_count(0)
    assert_no_horizontal_scroll(director)


def test_the_new_tournament_form_shows_the_chosen_games_rule_options(live_server, make_page, club):
    page = make_page("phone")
    log_in(page, live_server)
    page.goto(f"{live_server.url}/director/clubs/{club.pk}/")
    form = page.locator("#new-tournament")
    expect(form.get_by_role("group", name="Rules of Jie Long")).to_be_visible()
    expect(form.get_by_role("group", name="Rules of Tau Ngau")).to_be_hidden()
    page.get_by_label("Game").select_option(label="Tau Ngau")
    rules = form.get_by_role("group", name="Rules of Tau Ngau")
    expect(rules).to_be_visible()
    expect(form.get_by_role("group", name="Rules of Jie Long")).to_be_hidden()
    page.get_by_label("Name", exact=True).fill("Bulls night")
    rules.get_by_label("Rules version").select_option("v1")
    rules.get_by_label("A player may declare no bull while holding one").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Bulls night")
    t = club.tournaments.get(name="Bulls night")
    assert t.variant["settlement"] == "v1" and t.variant["may_decline_bull"] is True
    expect(page.get_by_role("group", name="Rules of Tau Ngau")).to_be_visible()  # the settings form, before the start
