"""Ding Niu (games/ding_niu.py; RULES.md §6): places and chips, SuanZhang detection by the
§6.4 pseudocode, layouts A–H inside complete legal deals, blame, payment, agreement."""

from __future__ import annotations

import random

import pytest

from games.decks import DING_NIU_24
from games.ding_niu import (
    COMPONENTS,
    START_COPIES,
    START_LEFT,
    Block,
    SuanZhangWatch,
    ding_niu_transfers,
    had_safe_play,
    report,
)
from games.tiles import parse_tile, tile_str

from .helpers import error_at, ok
from .helpers import nets_by_name as nets

SEATS = ["Adam", "Boris", "Valentine", "George"]


def places(result: dict) -> dict[str, int]:
    return {s["name"]: s["place"] for s in result["seats"]}


# ---------------------------------------------------------------------------------------
# Places and chips (DN-4 … DN-8)

def test_dn6():
    r = ok({"game": "ding_niu", "seats": SEATS, "points": [10, 6, 6, 10]})
    assert nets(r) == {"Boris": 6, "Valentine": -1, "George": -2, "Adam": -3}
    assert places(r) == {"Boris": 1, "Valentine": 2, "George": 3, "Adam": 4}
    assert r["winner"] == 1 and r["next_leader"] == 1 and r["suanzhang"] is None


def test_dn7_fifteen_point_paradox():
    r = ok({"game": "ding_niu", "seats": SEATS, "points": [10, 15, 15, 10]})
    assert nets(r) == {"Adam": 6, "George": -1, "Valentine": -2, "Boris": -3}


def test_dn8():
    r = ok({"game": "ding_niu", "seats": ["A", "B", "C", "D"], "points": [6, 6, 6, 9]})
    assert nets(r) == {"A": 6, "C": -1, "B": -2, "D": -3}
    r = ok({"game": "ding_niu", "seats": ["C", "D", "A", "B"], "points": [7, 7, 7, 7]})
    assert nets(r) == {"C": 6, "B": -1, "A": -2, "D": -3}


def test_dn_sz7_payments():
    # DN-6 with Boris (the winner) blocking: everything doubled.
    r = ok({"game": "ding_niu", "seats": SEATS, "points": [10, 6, 6, 10], "suanzhang": {"seat": 1}})
    assert nets(r) == {"Boris": 12, "Valentine": -2, "George": -4, "Adam": -6}
    assert r["suanzhang"] == {"seat": 1, "move": None, "kind": None, "blamed": True}
    # DN-6 with George blocking: he alone pays the winner 12.
    r = ok({"game": "ding_niu", "seats": SEATS, "points": [10, 6, 6, 10], "suanzhang": {"seat": 3}})
    assert nets(r) == {"George": -12, "Boris": 12, "Adam": 0, "Valentine": 0}
    assert r["transfers"] == [{"from": 3, "to": 1, "amount": 12}]


def test_payment_table():
    assert ding_niu_transfers([10, 6, 6, 10], None)[1] == [
        {"from": 0, "to": 1, "amount": 3}, {"from": 2, "to": 1, "amount": 1}, {"from": 3, "to": 1, "amount": 2}]
    assert ding_niu_transfers([0, 6, 6, 10], 0)[1] == [
        {"from": 1, "to": 0, "amount": 4}, {"from": 2, "to": 0, "amount": 2}, {"from": 3, "to": 0, "amount": 6}]


def test_points_level_checks():
    e = error_at({"game": "ding_niu", "seats": SEATS, "points": [5, 6, 6, 10]}, "points[0]", "impossible_points")
    assert "4 or 6 are" in e["message"]
    error_at({"game": "ding_niu", "seats": SEATS[:3], "points": [4, 6, 6]}, "seats", "wrong_player_count")
    error_at({"game": "ding_niu", "seats": SEATS, "points": [4, 6, 6, 10], "unplayed": [6, 1, 1, 1]},
             "unplayed[0]", "too_many_unplayed")
    error_at({"game": "ding_niu", "seats": SEATS, "unplayed_tiles": [["5:5"], ["1:1", "2:1"], [], ["6:6"]]},
             "unplayed_tiles[1][1]", "not_in_deck")


@pytest.mark.parametrize("field, path, code", [
    ({"seat": 4}, "suanzhang.seat", "bad_seat"),
    ({"seat": "1"}, "suanzhang.seat", "bad_seat"),
    ({}, "suanzhang.seat", "bad_seat"),
    (1, "suanzhang", "bad_type"),
    ({"seat": 1, "by": "x"}, "suanzhang.by", "unknown_field"),
    ({"seat": 1, "kind": "fours"}, "suanzhang", "needs_moves"),
    ({"seat": 1, "blamed": False}, "suanzhang.blamed", "bad_suanzhang"),
])
def test_suanzhang_field_refusals_without_a_log(field, path, code):
    error_at({"game": "ding_niu", "seats": SEATS, "points": [10, 6, 6, 10], "suanzhang": field}, path, code)


def test_suanzhang_field_at_unplayed_tiles_level():
    r = ok({"game": "ding_niu", "seats": SEATS, "unplayed_tiles": [["5:5"], ["1:1", "3:1"], [], ["6:6"]],
            "suanzhang": {"seat": 1}})
    assert r["suanzhang"] == {"seat": 1, "move": None, "kind": None, "blamed": True}
    assert r["winner"] == 2 and nets(r)["Boris"] == -12


# ---------------------------------------------------------------------------------------
# Detection (§6.4) on bare states

def _state_after(fragment: list[dict]) -> tuple[SuanZhangWatch, list[int], list[str | None]]:
    """Replay a fragment with the watch; the ends after it and the report of every play."""
    watch = SuanZhangWatch()
    reports: list[str | None] = []
    lead = parse_tile(fragment[0]["play"])
    text = fragment[0]["play"].split(":")
    ends = [int(text[0]), int(text[1])]
    watch.lead(lead)
    reports.append(None)
    for k, m in enumerate(fragment[1:], start=1):
        tile = parse_tile(m.get("play") or m.get("pass"))
        if "pass" in m:
            reports.append(None)
            continue
        side = 0 if ends[0] == m["to"] else 1
        before = watch.block
        if tile[0] != tile[1]:
            watch.play(k, tile, side, (ends[0], ends[1]))
        reports.append(watch.block.kind if watch.block is not None and before is None else None)
        ends[side] = tile[0] + tile[1] - ends[side]
    return watch, ends, reports


LAYOUTS = {
    "A": ([{"play": "6:4"}, {"play": "6:4", "to": 6}], 1, "fours"),
    "B": ([{"play": "5:1"}, {"play": "5:1", "to": 5}, {"play": "3:1", "to": 1}, {"play": "6:1", "to": 1},
           {"play": "3:1", "to": 3}, {"play": "6:1", "to": 6}], 5, "ones"),
    "C": ([{"play": "6:3"}, {"play": "6:2", "to": 6}, {"play": "3:1", "to": 3}, {"play": "3:1", "to": 1}],
          3, "two_three"),
    "D": ([{"play": "6:5"}, {"play": "6:5", "to": 6}, {"play": "5:1", "to": 5}, {"play": "5:1", "to": 1}],
          3, "fives"),
    "E": ([{"play": "6:3"}, {"play": "3:1", "to": 3}, {"play": "6:1", "to": 1}, {"play": "6:5", "to": 6},
           {"play": "6:5", "to": 5}, {"play": "6:1", "to": 6}, {"play": "3:1", "to": 1}], 6, "smothered_fives"),
    "F": ([{"play": "6:2"}, {"play": "6:3", "to": 6}, {"play": "3:1", "to": 3}, {"play": "6:1", "to": 1},
           {"play": "6:5", "to": 6}, {"play": "6:5", "to": 5}, {"play": "6:1", "to": 6}], 6, "smothered_fours"),
    "G": ([{"play": "6:4"}, {"play": "6:4", "to": 4}], None, None),
    "H": ([{"play": "6:4"}, {"pass": "6:4"}], None, None),
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layout_reports_only_on_the_last_play(name):
    fragment, move, kind = LAYOUTS[name]
    _, _, reports = _state_after(fragment)
    assert reports == [None] * (len(fragment) - 1) + [kind]


@pytest.mark.parametrize("name", "ABCDEF")
def test_would_block_is_true_before_the_final_play(name):
    fragment, move, kind = LAYOUTS[name]
    watch, ends, _ = _state_after(fragment[:-1])
    last = fragment[-1]
    side = 0 if ends[0] == last["to"] else 1
    assert watch.would_block(parse_tile(last["play"]), side, (ends[0], ends[1]))


def test_classic_beats_smothered_on_the_same_play():
    # Layout A: the smothered test alone would also fire (both [6:4] face up, yet 4 is dead).
    left = list(START_LEFT)
    copies = dict(START_COPIES)
    left[6] -= 1
    left[4] -= 1
    copies[(6, 4)] -= 1
    assert report(left, copies, 0b1111111, (6, 4), 0, (6, 4)) == "fours"


def test_the_graph_is_precomputed_for_every_set_of_tile_types():
    assert len(COMPONENTS) == 128
    full = COMPONENTS[127]
    assert len({full[p] for p in range(1, 7)}) == 1  # all pips connected with every type around
    assert len({COMPONENTS[0][p] for p in range(1, 7)}) == 6


def test_doubles_and_passes_never_report():
    watch = SuanZhangWatch()
    watch.lead((6, 4))
    assert not watch.would_block((6, 6), 0, (6, 4))
    assert not watch.would_block((4, 4), 1, (6, 4))


# ---------------------------------------------------------------------------------------
# Layouts inside complete legal deals

def complete(fragment: list[dict], seed: int, extra: dict[int, list[str]] | None = None,
             variant: dict | None = None) -> dict:
    """A legal Ding Niu deal that starts with ``fragment``: the other tiles are dealt at random
    (``extra`` tiles go to the given seats first), then random players follow forced play."""
    rng = random.Random(seed)
    hands: list[list] = [[] for _ in range(4)]
    for k, m in enumerate(fragment):
        hands[k % 4].append(parse_tile(m.get("play") or m.get("pass")))
    for seat, texts in (extra or {}).items():
        hands[seat] += [parse_tile(t) for t in texts]
    rest = [t for t, n in sorted(DING_NIU_24.items()) for _ in range(n)]
    for h in hands:
        for t in h:
            rest.remove(t)
    rng.shuffle(rest)
    for h in hands:
        while len(h) < 6:
            h.append(rest.pop())
    watch, ends, _ = _state_after(fragment)
    held = [list(h) for h in hands]
    for k, m in enumerate(fragment):
        held[k % 4].remove(parse_tile(m.get("play") or m.get("pass")))
    moves = [dict(m) for m in fragment]
    in_row = 0
    for m in reversed(fragment):
        if "pass" not in m:
            break
        in_row += 1
    ended = watch.block is not None and watch.block.kind.startswith("smothered")
    k = len(moves)
    while not ended and k < 24 and in_row < 4:
        hand = held[k % 4]
        options = [(t, side) for t in sorted(set(hand)) for side in (0, 1) if ends[side] in t]
        if options:
            tile, side = options[rng.randrange(len(options))]
            hand.remove(tile)
            moves.append({"play": tile_str(tile), "to": ends[side]})
            if tile[0] != tile[1]:
                ended = watch.play(k, tile, side, (ends[0], ends[1]))
            ends[side] = tile[0] + tile[1] - ends[side]
            in_row = 0
        else:
            moves.append({"pass": tile_str(hand.pop(rng.randrange(len(hand))))})
            in_row += 1
        k += 1
    record = {"game": "ding_niu", "seats": SEATS, "moves": moves,
              "left_in_hand": [[tile_str(t) for t in h] for h in held]}
    if variant:
        record["variant"] = variant
    return record


@pytest.mark.parametrize("name", "ABCDEF")
@pytest.mark.parametrize("seed", range(8))
def test_layouts_a_to_f_in_legal_deals(name, seed):
    fragment, move, kind = LAYOUTS[name]
    record = complete(fragment, seed)
    r = ok(record)
    assert r["warnings"] == []
    assert r["suanzhang"]["move"] == move and r["suanzhang"]["kind"] == kind
    assert r["suanzhang"]["seat"] == move % 4
    if kind.startswith("smothered"):
        assert len(record["moves"]) == move + 1  # the deal ended at once (DN-SZ-6)
        assert r["blocked"] is False


@pytest.mark.parametrize("name", "GH")
@pytest.mark.parametrize("seed", range(8))
def test_layouts_g_and_h_report_nothing(name, seed):
    fragment, _, _ = LAYOUTS[name]
    record = complete(fragment, seed, variant={"voluntary_pass": True})
    r = ok(record)
    assert r["suanzhang"] is None or r["suanzhang"]["move"] >= len(fragment)


def test_layout_h_without_voluntary_pass_warns():
    r = ok(complete(LAYOUTS["H"][0], 3))
    assert [w["path"] for w in r["warnings"]][:1] == ["moves[1]"]
    assert r["warnings"][0]["code"] == "must_play"


def test_a_smothered_suanzhang_ends_the_deal_and_more_moves_are_refused():
    record = complete(LAYOUTS["E"][0], 1)
    seat = 7 % 4
    record["moves"].append({"pass": record["left_in_hand"][seat].pop()})
    error_at(record, "moves[7]", "after_end")


# ---------------------------------------------------------------------------------------
# Blame (DN-SZ-8) and agreement (DN-SZ-10)

def test_layout_a_is_always_blamed_the_same_tile_fits_the_other_end():
    for seed in range(5):
        assert ok(complete(LAYOUTS["A"][0], seed))["suanzhang"]["blamed"] is True


# Layout C's blocker (seat 3) holds [3:1] and nothing else with a 1 or a 2: no choice.
FORCED_C = {3: ["6:6", "6:5", "5:5", "4:4", "3:3"]}


def test_a_forced_block_is_not_blamed_and_pays_by_dn4():
    record = complete(LAYOUTS["C"][0], 2, extra=FORCED_C)
    r = ok(record)
    assert r["suanzhang"] == {"seat": 3, "move": 3, "kind": "two_three", "blamed": False}
    points = [s["points"] for s in r["seats"]]
    assert [s["net"] for s in r["seats"]] == _dn4_nets(points)


def _dn4_nets(points: list[int]) -> list[int]:
    _, transfers = ding_niu_transfers(points, None)
    out = [0] * 4
    for t in transfers:
        out[t["from"]] -= t["amount"]
        out[t["to"]] += t["amount"]
    return out


def test_blame_needs_choice_false_blames_every_blocker():
    record = complete(LAYOUTS["C"][0], 2, extra=FORCED_C, variant={"blame_needs_choice": False})
    r = ok(record)
    assert r["suanzhang"]["blamed"] is True
    winner = r["winner"]
    if winner == 3:
        assert r["seats"][3]["net"] == 12
    else:
        assert r["transfers"] == [{"from": 3, "to": winner, "amount": 12}]


def test_a_double_in_hand_is_a_safe_alternative():
    # Seat 3 now also holds [2:2], which fits the 2 end and never blocks.
    extra = {3: ["2:2", "6:5", "5:5", "4:4", "3:3"]}
    assert ok(complete(LAYOUTS["C"][0], 2, extra=extra))["suanzhang"]["blamed"] is True


def test_had_safe_play_skips_the_play_itself_and_passes():
    left = list(START_LEFT)
    copies = dict(START_COPIES)
    for t in ((6, 3), (6, 2), (3, 1)):
        a, b = t
        left[a] -= 1
        left[b] -= 1
        copies[t] -= 1
    mask = 0b1111111
    block = Block(move=3, tile=(3, 1), side=0, ends=(1, 2), kind="two_three", left=tuple(left), copies=copies,
                  mask=mask)
    assert not had_safe_play(block, [(3, 1), (6, 6), (5, 5)])
    assert had_safe_play(block, [(3, 1), (2, 2)])
    assert had_safe_play(block, [(3, 1), (6, 1)])  # [6:1] on the 1 end leaves 6|2: no block


def test_a_blocker_ending_on_zero_points_keeps_the_blame():
    # Ends 2|1 at move 18: seat 2 blocks (two_three) with [3:1] although his [2:2] fitted the
    # 2, then plays out and ends on 0 points, like seat 1. (A simulated deal, seed 9, deal 37.)
    moves = [{"play": "6:4"}, {"play": "6:5", "to": 6}, {"play": "4:4", "to": 4}, {"play": "5:1", "to": 5},
             {"play": "6:1", "to": 1}, {"play": "6:1", "to": 6}, {"play": "1:1", "to": 1}, {"play": "4:4", "to": 4},
             {"play": "6:4", "to": 4}, {"play": "5:1", "to": 1}, {"play": "6:3", "to": 6}, {"play": "6:5", "to": 5},
             {"play": "6:2", "to": 6}, {"play": "3:1", "to": 3}, {"play": "2:2", "to": 2}, {"pass": "6:6"},
             {"pass": "5:5"}, {"play": "1:1", "to": 1}, {"play": "3:1", "to": 1}, {"pass": "6:6"},
             {"play": "3:3", "to": 3}, {"play": "3:3", "to": 3}, {"play": "2:2", "to": 2}, {"pass": "5:5"}]
    record = {"game": "ding_niu", "seats": SEATS, "moves": moves}
    r = ok(record)
    assert r["suanzhang"] == {"seat": 2, "move": 18, "kind": "two_three", "blamed": True}
    assert r["seats"][2]["points"] == 0 and r["seats"][1]["points"] == 0
    # Seat 1 wins the tie for first as the lower hand; the blocker alone pays him 12.
    assert r["winner"] == 1 and r["transfers"] == [{"from": 2, "to": 1, "amount": 12}]


def test_doubles_after_a_classic_block_do_not_move_the_blame():
    # Layout C then both [3:3] and [2:2] laid: still seat 3 at move 3.
    fragment = LAYOUTS["C"][0] + [{"play": "3:3", "to": 3}, {"play": "3:3", "to": 3}, {"play": "2:2", "to": 2}]
    r = ok(complete(fragment, 4))
    assert r["suanzhang"]["seat"] == 3 and r["suanzhang"]["move"] == 3


def test_suanzhang_field_beside_the_log_must_agree():
    record = complete(LAYOUTS["D"][0], 5)
    found = ok(record)["suanzhang"]
    for field in ({"seat": 3}, dict(found), {"seat": 3, "kind": "fives"}):
        record["suanzhang"] = field
        assert ok(record)["suanzhang"] == found
    record["suanzhang"] = {"seat": 2}
    error_at(record, "suanzhang.seat", "suanzhang_mismatch")
    record["suanzhang"] = {"seat": 3, "kind": "ones"}
    error_at(record, "suanzhang.kind", "suanzhang_mismatch")
    record["suanzhang"] = {"seat": 3, "blamed": not found["blamed"]}
    error_at(record, "suanzhang.blamed", "suanzhang_mismatch")


def test_suanzhang_field_beside_a_log_without_one_is_refused():
    for seed in range(50):
        record = complete(LAYOUTS["G"][0], seed)
        if ok(record)["suanzhang"] is None:
            record["suanzhang"] = {"seat": 1}
            e = error_at(record, "suanzhang", "suanzhang_mismatch")
            assert "no SuanZhang" in e["message"]
            return
    pytest.skip("every completion blocked")


def test_invalid_after_end_example():
    record = {"game": "ding_niu", "seats": SEATS,
              "moves": LAYOUTS["E"][0] + [{"pass": "6:6"}],
              "left_in_hand": [["6:2", "5:1", "3:3", "1:1"], ["6:4", "5:1", "3:3", "1:1"],
                               ["6:4", "5:5", "4:4", "2:2"], ["6:6", "5:5", "4:4", "2:2"]]}
    error_at(record, "moves[7]", "after_end")
