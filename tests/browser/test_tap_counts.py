"""Taps per deal on a 390 × 844 touch phone: from the page ready for the next deal (one deal
saved before, so the phone remembers the level and the stakes, and the server prefills the
leader or banker and who is entering) to the "saved" confirmation of the next one.

Every tap is a Playwright ``tap()`` on a visible element and every digit a key typed, counted
by ``Taps``; nothing is filled or evaluated behind the page's back. The bounds are the issue's
("The fast evening"); the other levels are measured for docs/benchmarks.md ("Taps per deal")
without one. Run with ``-s`` to see the counts."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.simulate import simulate
from scoring.models import Round

from .conftest import assert_no_horizontal_scroll

pytestmark = pytest.mark.django_db(transaction=True)


class Taps:
    """A person's hand on the page: taps and typed keys, counted."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.keys = 0

    def tap(self, locator) -> None:
        locator.tap()
        self.taps += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)

    def seat(self, position: int):
        return self.page.locator(f'fieldset.seat[data-position="{position}"]')

    def choose(self, box, label: str) -> None:
        """One button of a row of choices (a value, a winner)."""
        self.tap(box.locator("label.choice").filter(has=self.page.get_by_text(label, exact=True)))

    def number(self, box, label: str, digits: str) -> None:
        self.tap(box.get_by_label(label, exact=True))
        self.type(digits)

    def tiles(self, tiles: list[str]) -> None:
        """Tiles tapped in the open palette."""
        for tile in tiles:
            self.tap(self.page.locator(f'.picked-box + .palette button.pal-tile[data-tile="{tile}"]'))

    def submit(self, number: int) -> None:
        with self.page.expect_navigation():
            self.tap(self.page.get_by_role("button", name="Submit", exact=True))
        expect(self.page.locator("#saved")).to_contain_text(f"Deal {number} is saved")

    def reset(self) -> None:
        self.taps = self.keys = 0


def report(game: str, level: str, taps: Taps) -> None:
    print(f"\nTAPS {game} {level}: {taps.taps} taps, {taps.keys} keys")


def open_page(make_page, live_server, setup) -> Taps:
    page = make_page("phone390")
    page.goto(f"{live_server.url}/s/{setup.token}/")
    return Taps(page)


def prime(hand: Taps, entered_by: str) -> None:
    """The first deal's "entered by" (then prefilled by the server from the last deal)."""
    hand.page.get_by_label("Entered by").select_option(label=entered_by)


# --- the bounds -----------------------------------------------------------------------------

def test_tau_ngau_values_in_at_most_8_taps(live_server, make_page, make_setup):
    s = make_setup("tau_ngau")  # v2: values 0-9; Bank, Six, One, NoBull
    hand = open_page(make_page, live_server, s)
    hand.tap(hand.page.get_by_role("radio", name="Values only"))
    for i, value in enumerate(["no bull", "3", "5", "7"]):
        hand.choose(hand.seat(i), value)
    expect(hand.seat(0).get_by_label("Stake (not the banker)")).to_be_hidden()  # the banker stakes nothing
    for i, stake in ((1, "2"), (2, "5"), (3, "1")):
        hand.number(hand.seat(i), "Stake (not the banker)", stake)
    prime(hand, "2. Six")
    hand.submit(1)

    # The next deal: the level and the stakes are remembered, the banker (no bull: he keeps the
    # bank) and who enters are prefilled.
    expect(hand.page.get_by_role("radio", name="Values only")).to_be_checked()
    expect(hand.page.get_by_label("Banker", exact=True)).to_have_value("0")
    hand.reset()
    for i, value in enumerate(["7", "no bull", "0", "9"]):
        hand.choose(hand.seat(i), value)
    hand.submit(2)
    report("tau_ngau", "values", hand)
    assert hand.taps <= 8
    body = Round.objects.get(number=2).current_revision.body
    assert body["values"] == [7, None, 0, 9] and body["stakes"] == [None, 2, 5, 1] and body["banker"] == 0
    assert body["entered_by"] == 1

    # The banker had a bull: the bank passes to Six, and Bank's stake is typed once.
    expect(hand.page.get_by_label("Banker", exact=True)).to_have_value("1")
    expect(hand.seat(1).get_by_label("Stake (not the banker)")).to_be_hidden()
    expect(hand.seat(2).get_by_label("Stake (not the banker)")).to_have_value("5")
    hand.reset()
    hand.number(hand.seat(0), "Stake (not the banker)", "3")
    for i, value in enumerate(["4", "8", "no bull", "2"]):
        hand.choose(hand.seat(i), value)
    hand.submit(3)
    report("tau_ngau", "values, the bank passed", hand)
    assert Round.objects.get(number=3).current_revision.body["stakes"] == [3, None, 5, 1]
    assert_no_horizontal_scroll(hand.page)


def test_da_ling_winners_in_at_most_6_taps(live_server, make_page, make_setup):
    s = make_setup("da_ling")  # P1 … P4, stakes 3/7/15
    hand = open_page(make_page, live_server, s)
    hand.tap(hand.page.get_by_role("radio", name="Winners only"))
    groups = [hand.page.get_by_role("group", name=f"Winner of the {g}-tile group") for g in (1, 2, 3)]
    hand.choose(groups[0], "3. P3")
    hand.choose(groups[2], "1. P1")
    prime(hand, "1. P1")
    hand.submit(1)

    expect(hand.page.get_by_role("radio", name="Winners only")).to_be_checked()
    hand.reset()
    hand.choose(groups[0], "2. P2")
    hand.choose(groups[1], "4. P4")
    hand.choose(groups[2], "2. P2")
    hand.submit(2)
    report("da_ling", "winners", hand)
    assert hand.taps <= 6
    rnd = Round.objects.get(number=2)
    assert rnd.current_revision.body["winners"] == {"absolute": None, "groups": [1, 3, 1]}
    expect(hand.page.locator("#saved")).to_contain_text("Winner of the 2-tile group: P4")
    assert_no_horizontal_scroll(hand.page)


def points_deal(hand: Taps, points: list[int], *, label: str = "Points", unplayed: list[int] | None = None) -> None:
    for i, p in enumerate(points):
        hand.number(hand.seat(i), label, str(p))
    for i, u in enumerate(unplayed or []):
        hand.number(hand.seat(i), "Tiles left *", str(u))


def test_ding_niu_points_in_at_most_9_taps_and_the_digits(live_server, make_page, make_setup):
    s = make_setup("ding_niu")
    hand = open_page(make_page, live_server, s)
    points_deal(hand, [0, 6, 6, 10])
    prime(hand, "1. Adam")
    hand.submit(1)

    expect(hand.page.get_by_label("Led by")).to_have_value("0")  # Adam won: he leads
    hand.reset()
    points_deal(hand, [6, 0, 10, 6])
    hand.submit(2)
    report("ding_niu", "points", hand)
    digits = len("60106")
    assert hand.taps <= 9 and hand.keys == digits
    assert Round.objects.get(number=2).current_revision.body["points"] == [6, 0, 10, 6]


# --- the other levels, measured (no bound) ----------------------------------------------------------

def rotated(values: list, leader: int) -> list:
    """A record's per-seat list (playing order, the leader first) by table position."""
    n = len(values)
    return [values[(p - leader) % n] for p in range(n)]


@pytest.mark.parametrize("game", ["jie_long", "kko_li_but_i_gi", "ce_deng"])
def test_points_of_the_other_layout_games(live_server, make_page, make_setup, game):
    s = make_setup(game)
    first, second = simulate(game, deals=2, seed=2, level="points")
    counts = game == "ce_deng"  # Ce Deng needs the unplayed counts (CD-4)
    hand = open_page(make_page, live_server, s)
    points_deal(hand, first["points"], unplayed=first["unplayed"] if counts else None)
    prime(hand, "1. " + s.names[0])
    hand.submit(1)

    leader = int(hand.page.get_by_label("Led by").input_value())
    hand.reset()
    points_deal(hand, rotated(second["points"], leader), unplayed=rotated(second["unplayed"], leader) if counts else None)
    hand.submit(2)
    report(game, "points" + (" and tiles left" if counts else ""), hand)
    assert Round.objects.get(number=2).current_revision.body["points"] == rotated(second["points"], leader)


def test_ding_niu_unplayed_tiles(live_server, make_page, make_setup):
    s = make_setup("ding_niu")
    first, second = simulate("ding_niu", deals=2, seed=3, level="unplayed_tiles")
    assert "suanzhang" not in second  # nothing to choose in a select besides the tiles
    hand = open_page(make_page, live_server, s)
    hand.tap(hand.page.get_by_role("radio", name="Unplayed tiles"))
    for i, tiles in enumerate(first["unplayed_tiles"]):
        hand.seat(i).get_by_label("Unplayed tiles", exact=True).fill(" ".join(tiles))  # priming: not counted
    if first.get("suanzhang"):
        hand.page.get_by_label("SuanZhang (blocked the layout)").select_option(str(first["suanzhang"]["seat"]))
    prime(hand, "1. Adam")
    hand.submit(1)

    expect(hand.page.get_by_role("radio", name="Unplayed tiles")).to_be_checked()
    leader = int(hand.page.get_by_label("Led by").input_value())
    hand.reset()
    for i, tiles in enumerate(rotated(second["unplayed_tiles"], leader)):
        if tiles:
            hand.tap(hand.seat(i).get_by_role("button", name="Tap tiles"))
            hand.tiles(tiles)
    hand.submit(2)
    report("ding_niu", "unplayed_tiles", hand)
    assert Round.objects.get(number=2).current_revision.body["unplayed_tiles"] == rotated(second["unplayed_tiles"], leader)


def test_ding_niu_full_move_log(live_server, make_page, make_setup):
    from .test_tile_picker import ding_niu_record

    s = make_setup("ding_niu")
    record = ding_niu_record()
    hand = open_page(make_page, live_server, s)
    hand.tap(hand.page.get_by_role("radio", name="Full move log"))
    moves = hand.page.get_by_label("Moves, in turn from the leader")
    moves.fill(" ".join(m.get("play", "") + (f"@{m['to']}" if "to" in m else "") if "play" in m else "x" + m["pass"]
                        for m in record["moves"]))  # priming: not counted
    prime(hand, "1. Adam")
    hand.submit(1)

    expect(hand.page.get_by_role("radio", name="Full move log")).to_be_checked()
    hand.reset()
    log = hand.page.locator(".move-log")
    mode = "play"
    for move in record["moves"]:
        wanted = "pass" if "pass" in move else "play"
        if wanted != mode:  # the mode stays until changed
            hand.tap(log.get_by_role("button", name="Pass (face down)" if wanted == "pass" else "Play", exact=True))
            mode = wanted
        hand.tap(log.locator(f'.palette button[data-tile="{move.get("play") or move["pass"]}"]'))
        if log.locator(".choice button[data-pip]").count():
            hand.tap(log.locator(".choice").get_by_role("button", name=f"the {move['to']}", exact=True))
    hand.submit(2)
    report("ding_niu", f"moves ({len(record['moves'])} moves)", hand)
    assert Round.objects.get(number=2).current_revision.body["moves"] == record["moves"]


def tau_ngau_hands(seed: int) -> list[list[str]]:
    """Four hands of a simulated deal in which the first seat (the banker) has no bull, so that
    he keeps the bank and the stakes stay where they were."""
    from games import bulls
    from games.tiles import parse_tile

    while True:
        hands = next(simulate("tau_ngau", deals=1, seed=seed))["hands"]
        if not bulls.hand_value([parse_tile(t) for t in hands[0]]).has_bull:
            return hands
        seed += 1


def test_tau_ngau_hands(live_server, make_page, make_setup):
    s = make_setup("tau_ngau")
    first, second = tau_ngau_hands(1), tau_ngau_hands(100)
    hand = open_page(make_page, live_server, s)
    for i, tiles in enumerate(first):
        hand.seat(i).get_by_label("Hand (5 tiles)").fill(" ".join(tiles))  # priming: not counted
    for i, stake in ((1, "2"), (2, "5"), (3, "1")):
        hand.number(hand.seat(i), "Stake (not the banker)", stake)
    prime(hand, "1. Bank")
    hand.submit(1)

    expect(hand.page.get_by_label("Banker", exact=True)).to_have_value("0")
    hand.reset()
    hand.tap(hand.seat(0).get_by_role("button", name="Tap tiles").first)
    for tiles in second:  # a full hand moves the palette on to the next seat's
        hand.tiles(tiles)
    hand.submit(2)
    report("tau_ngau", "hands", hand)
    assert Round.objects.get(number=2).current_revision.body["hands"] == second


def test_da_ling_groups(live_server, make_page, make_setup):
    s = make_setup("da_ling")
    first, second = simulate("da_ling", deals=2, seed=1)
    hand = open_page(make_page, live_server, s)
    hand.page.get_by_label("Table tiles (2)").fill(" ".join(first["table"]))  # priming: not counted
    for i, groups in enumerate(first["groups"]):
        for g, tiles in enumerate(groups):
            hand.seat(i).get_by_label(f"{g + 1} tile" + ("s" if g else ""), exact=True).fill(" ".join(tiles))
    prime(hand, "1. P1")
    hand.submit(1)

    hand.reset()
    hand.tap(hand.page.locator(".deal-top").get_by_role("button", name="Tap tiles"))
    hand.tiles(second["table"])
    for groups in second["groups"]:  # each full group moves the palette on to the next
        for tiles in groups:
            hand.tiles(tiles)
    hand.submit(2)
    report("da_ling", "groups", hand)
    body = Round.objects.get(number=2).current_revision.body
    assert body["table"] == second["table"] and body["groups"] == second["groups"]
