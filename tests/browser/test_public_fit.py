"""Every public page fits a 390×844 phone: nothing scrolls sideways, neither the page nor any box
in it (a table that does not fit wraps, stacks or moves columns to a detail line), in English
and in Chinese and Korean — with the widest content a real evening brings: a 30-character name, Chinese
names, a long tournament name and a six-seat game (the standings' places run to six)."""

from __future__ import annotations

import pytest

from scoring.services.rounds import round_dispute, round_record
from scoring.services.tournaments import tournament_update

from .conftest import PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Maximilian Alexander Rodriguez", "欧阳娜娜", "Nguyễn Thị Minh Khai", "司马相如",
         "Anne-Sophie Dubois-Lefèvre", "Bo"]
assert len(NAMES[0]) == 30

#: Six hands of Tau Ngau (v2 settlement); the bank goes round the table and the stakes differ,
#: so that the places run from first to sixth.
HANDS = [["6:6", "4:4", "5:5", "3:2", "2:1"], ["6:4", "5:5", "3:1", "6:5", "1:1"],
         ["6:1", "4:1", "4:3", "6:5", "5:2"], ["2:2", "5:1", "3:3", "6:3", "4:2"],
         ["6:6", "4:4", "1:1", "6:2", "3:3"], ["2:2", "6:4", "6:1", "5:1", "5:3"]]

#: Elements clipped on purpose: words for screen readers only, the tiles' hidden sprite.
CLIPPED = ".visually-hidden, .tile-sprite, .tile-sprite *"

#: Every element wider inside than its box (1 px of rounding allowed), as "tag#id.class: widths".
OVERFLOWING = """(clipped) => [...document.querySelectorAll("body *")]
    .filter(el => !el.matches(clipped) && el.getClientRects().length && el.scrollWidth > el.clientWidth + 1
                  && el.clientWidth > 0)
    .map(el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
         (typeof el.className === "string" && el.className ? "." + el.className.trim().replace(/\\s+/g, ".") : "") +
         " “" + (el.textContent || "").trim().slice(0, 30) + "”: " + el.scrollWidth + " > " + el.clientWidth)"""


@pytest.fixture
def evening(make_setup, director_actor):
    s = make_setup("tau_ngau", names=NAMES, variant={"settlement": "v2"}, table_name="Table 1")
    tournament_update(actor=director_actor, tournament=s.tournament,
                      name="Spring Club Championship — Thursday Evening Session")
    for turn in range(6):
        rnd = round_record(actor=s.scorer_actor, table=s.table,
                           body={"banker": turn, "stakes": [None if i == turn else 1 + i for i in range(6)],
                                 "hands": HANDS, "entered_by": (turn + 1) % 6})
    round_dispute(actor=s.scorer_actor, round=rnd, message="Bo says he had a bull")
    return s


def _pages(s) -> dict[str, str]:
    t = s.tournament
    return {"home": "/", "standings": f"/t/{t.slug}/", "payouts": f"/t/{t.slug}/payouts/",
            "payouts of a session": f"/t/{t.slug}/payouts/?session=1",
            "player": f"/t/{t.slug}/players/{s.entries[0].player_id}/",
            "table": f"/t/{t.slug}/tables/{s.table.pk}/", "calculator": "/calculator/",
            "calculator with a sample": "/calculator/?sample=Tau+Ngau+%E2%80%94+banker+and+three+players+%28v2%29",
            "calculator, six seats": "/calculator/?game=tau_ngau&players=6"}


@pytest.mark.parametrize("locale", ["en-GB", "zh-CN", "ko-KR"])
def test_every_public_page_fits_a_390_px_phone(live_server, make_page, evening, locale):
    page = make_page("phone390", locale=locale)
    assert page.viewport_size == PHONE_390
    found = {}
    for name, path in _pages(evening).items():
        page.goto(live_server.url + path)
        # What a reader may open counts too: every move of a replay, the full result.
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        wide = page.evaluate(OVERFLOWING, CLIPPED)
        page_wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if wide or page_wide > 1:
            found[name] = [f"the page is {page_wide}px too wide"] * (page_wide > 1) + wide
    assert not found, "\n".join(f"{name}:\n  " + "\n  ".join(items) for name, items in found.items())
