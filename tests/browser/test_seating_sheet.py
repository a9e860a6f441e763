"""Seating a session in a real browser: the director fills "Seat the next session", the answer is
the sheet of every table's seats, link and QR code (at its own address: a reload shows the same
sheet and seats nothing again), it prints without the page's header and buttons, a link works on
a scorer's phone, and nothing breaks the Content-Security-Policy."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Session, Table
from scoring.selectors.tables import table_by_scorer_token, table_seats

from .conftest import assert_no_horizontal_scroll
from .test_csp import Violations
from .test_director_pages import enter_players, log_in, open_dashboard

pytestmark = pytest.mark.django_db(transaction=True)


def test_seat_a_session_and_print_its_sheet(live_server, make_page, make_setup):
    s = make_setup("jie_long")
    enter_players(s, ["Eve", "Frank", "Grace", "Heidi", "Ivan", "Judy"])
    page = make_page("desktop")
    seen = Violations(page.context)
    log_in(page, live_server)
    open_dashboard(page, s.tournament)

    form = page.locator("#seat-session")
    expect(form.get_by_role("heading", name="Seat the next session")).to_be_visible()
    form.get_by_label("Method").select_option(label="Balanced: fewest repeated opponents")
    form.get_by_label("Table size").select_option(label="4 players")
    form.get_by_label("Leftovers").select_option(label="Smaller tables")
    form.get_by_label("Seed (optional)").fill("spring-42")
    with page.expect_navigation():
        form.get_by_role("button", name="Seat session 2").click()

    # The sheet: three tables (4, 3, 3 players), each with its seats, QR code and link.
    expect(page.get_by_role("heading", level=1)).to_contain_text("session 2")
    expect(page).to_have_url(re.compile(rf"/director/tournaments/{s.tournament.pk}/sessions/2/sheet/$"))
    cards = page.locator("article.sheet-table")
    expect(cards).to_have_count(3)
    tables = list(Table.objects.filter(session__tournament=s.tournament, session__number=2).order_by("pk"))
    urls = []
    for card, table in zip(cards.all(), tables):
        expect(card.get_by_role("heading", level=2)).to_have_text(f"Session 2 · {table.name}")
        names = [seat.entry.player.name for seat in table_seats(table)]
        assert card.locator("ol.seats li").all_inner_texts() == names
        qr = card.locator(".qr svg")
        expect(qr).to_be_visible()
        box = qr.bounding_box()
        assert box and box["width"] >= 100 and abs(box["width"] - box["height"]) < 1
        url = card.locator(".link-box").get_by_role("link").get_attribute("href")
        assert re.fullmatch(re.escape(live_server.url) + r"/s/[A-Za-z0-9_-]{20,}/", url), url
        assert table_by_scorer_token(url.rstrip("/").rsplit("/", 1)[1]) == table
        urls.append(url)
    assert sorted(len(table_seats(t)) for t in tables) == [3, 3, 4]
    expect(page.locator("main")).to_contain_text("seed spring-42")
    expect(page.get_by_role("button", name="Print the sheet")).to_be_visible()

    # On paper: no site header, no notice or buttons; the tables, their QR codes and links stay.
    page.emulate_media(media="print")
    expect(page.locator("header.site")).to_be_hidden()
    expect(page.locator("#sheet-notice")).to_be_hidden()
    expect(page.get_by_role("button", name="Print the sheet")).to_be_hidden()
    for card in cards.all():
        expect(card).to_be_visible()
        expect(card.locator(".qr svg")).to_be_visible()
        expect(card.locator(".link-box").get_by_role("link")).to_be_visible()
        expect(card.locator("a.paper-sheet-entry")).to_be_hidden()
    columns = page.locator(".sheet").evaluate("el => getComputedStyle(el).gridTemplateColumns.split(' ').length")
    assert columns == 2
    assert len(page.pdf(format="A4")) > 1000   # it prints
    page.emulate_media(media="screen")

    # A scorer opens one link on a phone: that table's page.
    phone = make_page("phone")
    phone.goto(urls[0])
    expect(phone.get_by_role("heading", level=1)).to_contain_text(tables[0].name)
    assert_no_horizontal_scroll(phone)

    # A reload shows the same sheet (the links kept while the session is open), and seats nothing.
    page.reload()
    expect(page.locator("article.sheet-table")).to_have_count(3)
    assert [a.get_attribute("href") for a in page.locator("article.sheet-table .link-box a").all()] == urls
    assert Session.objects.filter(tournament=s.tournament).count() == 2
    seen.assert_none(page)


def test_the_sheet_fits_a_phone(live_server, make_page, make_setup):
    s = make_setup("ding_niu")
    enter_players(s, ["Eve", "Frank", "Grace", "Heidi", "Ivan"])
    page = make_page("phone")
    log_in(page, live_server)
    open_dashboard(page, s.tournament)
    form = page.locator("#seat-session")
    expect(form.get_by_label("Leftovers").locator("option")).to_have_count(1)   # Ding Niu: exactly 4
    with page.expect_navigation():
        form.get_by_role("button", name="Seat session 2").click()
    expect(page.locator("article.sheet-table")).to_have_count(2)
    expect(page.locator("#sit-outs")).to_contain_text("Sitting out:")
    assert_no_horizontal_scroll(page)
