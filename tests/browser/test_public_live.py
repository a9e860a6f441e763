"""The public pages and the director's dashboard in a real browser at 390×844: a deal recorded
while the page is open shows without a reload, also after the connection dropped and came
back; a full-log deal replays move by move."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.services.rounds import round_record

from ..scoring.bodies import DING_NIU_FULL_LOG, JIE_LONG
from .conftest import assert_no_horizontal_scroll
from .test_director_pages import log_in

pytestmark = pytest.mark.django_db(transaction=True)

#: A few polls (live.js asks every 4 s), with room for a slow machine.
LIVE_WAIT = 20_000


def phone_390(make_page):
    page = make_page("phone")
    page.set_viewport_size({"width": 390, "height": 844})
    return page


def test_public_standings_update_without_a_reload(live_server, make_page, jie_long):
    page = phone_390(make_page)
    page.goto(f"{live_server.url}/t/{jie_long.tournament.slug}/")
    expect(page.locator("#standings tr", has_text="Anna").locator("td.net")).to_have_text("0")
    assert_no_horizontal_scroll(page)
    page.evaluate("window.notReloaded = true")
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    expect(page.locator("#standings tr", has_text="Anna").locator("td.net")).to_have_text("58", timeout=LIVE_WAIT)
    expect(page.locator("#standings tr", has_text="Celine").locator("td.net")).to_have_text("-70")
    assert page.evaluate("window.notReloaded") is True
    expect(page.locator("[data-live-status]")).to_have_text(re.compile("Live"))


def test_the_page_catches_up_after_the_connection_drops(live_server, make_page, jie_long):
    page = phone_390(make_page)
    page.goto(f"{live_server.url}/t/{jie_long.tournament.slug}/")
    expect(page.locator("#standings tr", has_text="Anna").locator("td.net")).to_have_text("0")
    page.context.set_offline(True)
    expect(page.locator("[data-live-status]")).to_have_text(re.compile("Offline"), timeout=LIVE_WAIT)
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    page.wait_for_timeout(1000)
    expect(page.locator("#standings tr", has_text="Anna").locator("td.net")).to_have_text("0")
    page.context.set_offline(False)
    expect(page.locator("#standings tr", has_text="Anna").locator("td.net")).to_have_text("116", timeout=LIVE_WAIT)
    expect(page.locator("[data-live-status]")).to_have_text(re.compile("Live"))


def test_the_directors_dashboard_updates_without_a_reload(live_server, make_page, jie_long):
    page = phone_390(make_page)
    log_in(page, live_server)
    page.goto(f"{live_server.url}/director/tournaments/{jie_long.tournament.pk}/")
    anna = page.locator("#director-standings tr", has_text="Anna").locator("td.num").nth(1)
    expect(anna).to_have_text("0")
    page.evaluate("window.notReloaded = true")
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    expect(anna).to_have_text("58", timeout=LIVE_WAIT)
    expect(page.locator(".table-card").first).to_contain_text("1 deal")
    assert page.evaluate("window.notReloaded") is True


def test_the_public_table_page_updates_and_replays_a_full_log(live_server, make_page, ding_niu):
    page = phone_390(make_page)
    page.goto(f"{live_server.url}/t/{ding_niu.tournament.slug}/tables/{ding_niu.table.pk}/")
    expect(page.get_by_text("No deal yet.")).to_be_visible()
    round_record(actor=ding_niu.scorer_actor, table=ding_niu.table, body=DING_NIU_FULL_LOG)
    replay = page.locator("[data-replay]")
    expect(replay).to_be_visible(timeout=LIVE_WAIT)
    expect(page.locator("#table-seats tr", has_text="Adam").locator("td.total")).to_have_text("12")
    assert_no_horizontal_scroll(page)

    tiles = replay.locator(".replay-tile")
    status = replay.locator("[data-replay-status]")
    next_button = replay.get_by_role("button", name="Next")
    previous = replay.get_by_role("button", name="Previous")
    # The replay opens on the finished deal: every tile laid, Next disabled.
    expect(tiles.locator("visible=true")).to_have_count(4)
    expect(next_button).to_be_disabled()
    replay.get_by_role("button", name="Start").click()
    expect(status).to_have_text("Before the lead")
    expect(tiles.locator("visible=true")).to_have_count(0)
    expect(previous).to_be_disabled()
    next_button.click()
    expect(status).to_have_text("Move 1 of 10: Adam leads 6:4")
    expect(tiles.locator("visible=true")).to_have_count(1)
    next_button.click()
    expect(status).to_have_text("Move 2 of 10: Boris plays 6:4")
    expect(tiles.locator("visible=true")).to_have_count(2)
    next_button.click()  # a pass lays nothing
    expect(status).to_have_text("Move 3 of 10: Valentine passes 6:6 face down")
    expect(tiles.locator("visible=true")).to_have_count(2)
    previous.click()
    previous.click()
    expect(status).to_have_text("Move 1 of 10: Adam leads 6:4")
    expect(tiles.locator("visible=true")).to_have_count(1)
    box = next_button.bounding_box()
    assert box["height"] >= 44


def test_the_poller_gets_gzipped_answers_and_then_304s(live_server, make_page, jie_long, monkeypatch):
    """The browser accepts gzip, so the fragment's ETag comes back weak (W/"…", GZipMiddleware):
    live.js sends it as it came, and the server still answers 304 while nothing changed."""
    import scoring.views.public

    monkeypatch.setattr(scoring.views.public, "LIVE_EVERY_MS", 300)
    answers: list[tuple[int, str, str]] = []
    page = phone_390(make_page)
    page.on("response", lambda r: answers.append((r.status, r.headers.get("content-encoding", ""),
                                                   r.request.headers.get("if-none-match", "")))
            if r.url.endswith("/live/") else None)
    page.goto(f"{live_server.url}/t/{jie_long.tournament.slug}/")
    for _ in range(50):  # three polls, 10 s at most
        if len(answers) >= 3:
            break
        page.wait_for_timeout(200)
    assert len(answers) >= 3, answers
    first, *later = answers
    assert first[0] == 200 and first[1] == "gzip"
    assert later and all(status == 304 and tag.startswith('W/"') for status, _, tag in later), answers
