"""The issue's first flow, end to end at 390×844: a scorer taps a whole Ding Niu deal into the
picker as a full move log, previews, submits; a player's phone showing the public standings
sees the new totals without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import games
from scoring.models import Round

from .test_public_live import LIVE_WAIT
from .test_tile_picker import DING_NIU, ding_niu_record, press, tap_moves_deal

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_deal_tapped_on_a_phone_shows_on_the_public_standings(live_server, make_page, make_setup):
    s = make_setup("ding_niu", names=DING_NIU)
    record = ding_niu_record()
    nets = {seat["name"]: seat["net"] for seat in games.evaluate(record)["seats"]}
    player, scorer = make_page("phone390"), make_page("phone390")  # two phones
    player.goto(f"{live_server.url}/t/{s.tournament.slug}/")
    row = player.locator("#standings tr", has_text="Adam").locator("td.net")
    expect(row).to_have_text("0")
    player.evaluate("window.notReloaded = true")

    scorer.goto(f"{live_server.url}/s/{s.token}/")
    scorer.get_by_label("Led by").select_option(label="1. Adam")
    tap_moves_deal(scorer, record)
    scorer.get_by_label("Entered by").select_option(label="1. Adam")
    press(scorer, "Preview")
    expect(scorer.locator("#preview")).to_contain_text("nothing is stored yet")
    press(scorer, "Submit")
    expect(scorer.get_by_role("listitem").filter(has_text="Deal 1 recorded.")).to_be_visible()
    assert Round.objects.get().current_revision.body["moves"] == record["moves"]

    for name in DING_NIU:
        expect(player.locator("#standings tr", has_text=name).locator("td.net")).to_have_text(
            str(nets[name]), timeout=LIVE_WAIT)
    assert player.evaluate("window.notReloaded") is True
