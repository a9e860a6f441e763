"""Da Ling (RULES.md §8): target and colour, matching with wild tiles, absolute winner,
group-by-group settlement, the variants, record checks and properties over random deals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.da_ling import colour_pips, matches, residues, settle, target_and_colour
from games.decks import CHINESE_32
from games.tiles import parse_tile, tile_str

from .helpers import error_set as errors
from .helpers import nets_in_order as nets
from .helpers import ok

DECK_LIST = [tile_str(t) for t, n in sorted(CHINESE_32.items()) for _ in range(n)]


def tiles(text: str) -> list:
    return [parse_tile(x) for x in text.split()]


def groups(text: str) -> list[list[str]]:
    """'a | b c | d e f' -> [[a], [b, c], [d, e, f]]"""
    return [part.split() for part in text.split("|")]


def record(table: str, *hands: str, variant=None) -> dict:
    rec = {"game": "da_ling", "seats": [f"P{i + 1}" for i in range(len(hands))], "table": table.split(),
           "groups": [groups(h) for h in hands]}
    if variant:
        rec["variant"] = variant
    return rec


# ---------------------------------------------------------------------------------------
# Table (DL-3, DL-4) and matching (DL-5)

@pytest.mark.parametrize("table,target,colour", [
    ("6:6 3:2", 7, "red"),     # red 6 + 0
    ("6:5 2:1", 4, "black"),   # [2:1] at face value 3, red 1
    ("2:2 1:1", 6, "black"),   # red 2
    ("4:2 1:1", 8, "red"),     # [4:2] at face value 6, red 4 + 2 = 6
    ("4:1 5:5", 5, "red"),     # red 5
    ("4:3 2:2", 1, "red"),     # red exactly 4
    ("3:1 2:1", 7, "black"),   # red 1 + 1
    ("5:5 5:5", 0, "black"),   # target 0: groups must make a multiple of 10
])
def test_target_and_colour(table, target, colour):
    assert target_and_colour(tiles(table)) == (target, colour)


def test_wild_tiles_count_either_way_in_groups():
    assert residues(tiles("4:2")) == {3, 6}
    assert residues(tiles("4:2 2:1")) == {6, 9, 2}
    assert matches(tiles("4:2 6:5"), 4) and matches(tiles("4:2 6:5"), 7)
    assert not matches(tiles("6:6 5:5 3:3"), 4)
    assert matches(tiles("5:5"), 0) and matches(tiles("6:4 5:5 3:2"), 5)


def test_colour_pips_use_face_value():
    assert colour_pips(tiles("4:2 6:5"), "black") == 13
    assert colour_pips(tiles("4:2 6:5"), "red") == 4
    assert colour_pips(tiles("6:6"), "red") == colour_pips(tiles("6:6"), "black") == 6


# ---------------------------------------------------------------------------------------
# §8.4 worked examples

EX1 = ("6:6 3:2", "4:3 | 6:5 5:1 | 1:1 6:3 3:3", "5:2 | 6:6 4:1 | 2:2 2:2 5:4")


def test_example_1_absolute_winner_by_colour():
    result = ok(record(*EX1))
    assert (result["target"], result["colour"]) == (7, "red")
    assert result["absolute_winner"] == 1 and result["group_winners"] == [None, None, None]
    assert [s["colour_pips"] for s in result["seats"]] == [7, 15]
    assert [[g["colour_pips"] for g in s["groups"]] for s in result["seats"]] == [[4, 1, 2], [0, 11, 4]]
    assert all(g["matches"] for s in result["seats"] for g in s["groups"])
    assert nets(result) == [-25, 25] and result["house"] == 0
    assert result["transfers"] == [{"from": 0, "to": 1, "amount": 25}]


def test_example_1_casino_chip():
    result = ok(record(*EX1, variant={"casino_chip": True}))
    assert nets(result) == [-25, 24] and result["house"] == 1
    assert {"from": 1, "to": None, "amount": 1} in result["transfers"]
    assert sum(nets(result)) + result["house"] == 0


def test_example_2_groups():
    result = ok(record("6:5 2:1", "2:2 | 4:2 6:5 | 6:6 5:5 3:3", "3:1 | 6:6 1:1 | 6:4 3:3 2:2"))
    assert (result["target"], result["colour"]) == (4, "black")
    assert result["absolute_winner"] is None
    assert result["group_winners"] == [0, 0, None]
    assert [[(g["matches"], g["colour_pips"]) for g in s["groups"]] for s in result["seats"]] == [
        [(True, 4), (True, 13), (False, 22)], [(True, 3), (True, 6), (False, 16)]]
    assert nets(result) == [10, -10]


def test_example_2_tie_on_the_one_tile_group():
    result = ok(record("6:5 2:1", "2:2 | 4:2 6:5 | 6:6 5:5 3:3", "2:2 | 6:6 1:1 | 6:4 3:3 3:1"))
    assert result["group_winners"] == [None, 0, None]
    assert nets(result) == [7, -7]


def test_example_3_with_4_2_in_place_of_the_second_2_1():
    result = ok(record("2:2 1:1", "4:2 | 6:4 2:1 | 5:3 6:5 6:1", "3:3 | 3:3 6:4 | 3:1 6:1 4:1"))
    assert (result["target"], result["colour"]) == (6, "black")
    assert [s["colour_pips"] for s in result["seats"]] == [35, 27]
    assert result["absolute_winner"] == 0 and nets(result) == [25, -25]


def test_example_3_as_written_is_refused_by_the_deck_check():
    assert ("groups[0][1][1]", "too_many_copies") in errors(
        record("2:2 1:1", "2:1 | 6:4 2:1 | 5:3 6:5 6:1", "3:3 | 3:3 6:4 | 3:1 6:1 4:1"))


# ---------------------------------------------------------------------------------------
# Winners and variants

def test_a_single_full_match_wins_even_with_fewer_colour_pips():
    # Target 7, red. P1 matches all three groups; P2 matches two with more red pips.
    result = ok(record("6:6 3:2", "6:1 | 6:5 2:1 | 2:2 6:3 3:1", "4:3 | 1:1 6:1 | 3:1 4:1 6:2",
                       "3:3 | 5:1 5:5 | 5:2 4:4 5:4"))
    p1, p2 = result["seats"][0], result["seats"][1]
    assert [g["matches"] for g in p2["groups"]].count(True) == 2 and p2["colour_pips"] > p1["colour_pips"]
    assert result["absolute_winner"] == 0 and result["group_winners"] == [None, None, None]
    assert nets(result) == [50, -25, -25]


# Target 6, black. Both match in full with 23 black pips each (6+8+9 and 2+8+13).
TIE = ("2:2 1:1", "3:3 | 5:3 4:4 | 1:1 3:1 6:4", "4:2 | 6:2 4:4 | 3:1 5:1 5:1")


def test_absolute_tie_falls_back_to_groups():
    result = ok(record(*TIE))
    seats = result["seats"]
    assert all(g["matches"] for s in seats for g in s["groups"])
    assert seats[0]["colour_pips"] == seats[1]["colour_pips"] == 23
    assert result["absolute_winner"] is None
    assert result["group_winners"] == [0, None, 1]  # 6 > 2; 8 = 8 (no winner); 9 < 13
    assert nets(result) == [3 - 15, 15 - 3]


def test_absolute_tie_push_variant():
    result = ok(record(*TIE, variant={"absolute_tie": "push"}))
    assert result["absolute_winner"] is None and result["group_winners"] == [None, None, None]
    assert nets(result) == [0, 0] and result["transfers"] == [] and result["house"] == 0


def test_absolute_tie_push_does_not_touch_a_clear_winner():
    assert nets(ok(record(*EX1, variant={"absolute_tie": "push"}))) == [-25, 25]


def test_group_winner_collects_from_everyone_including_non_matching_players():
    # Target 4, black. Only P1 matches the 1-tile group, only P3 the 2-tile group; P2 wins the 3-tile.
    result = ok(record("6:5 2:1", "3:1 | 2:2 4:3 | 1:1 6:6 4:1", "5:1 | 6:5 5:3 | 6:4 4:4 3:3",
                       "5:1 | 6:4 3:1 | 3:3 5:5 5:4"))
    assert [[g["matches"] for g in s["groups"]][:2] for s in result["seats"]] == [
        [True, False], [False, False], [False, True]]
    assert result["absolute_winner"] is None and result["group_winners"] == [0, 2, 1]
    assert nets(result) == [6 - 7 - 15, -3 - 7 + 30, -3 + 14 - 15]


def test_custom_stakes():
    result = ok(record(*EX1, variant={"stakes": [1, 2, 3]}))
    assert nets(result) == [-6, 6]
    result = ok(record("6:5 2:1", "2:2 | 4:2 6:5 | 6:6 5:5 3:3", "3:1 | 6:6 1:1 | 6:4 3:3 2:2",
                       variant={"stakes": [1, 2, 3]}))
    assert nets(result) == [3, -3]


def test_casino_chip_only_with_an_absolute_winner():
    result = ok(record("6:5 2:1", "2:2 | 4:2 6:5 | 6:6 5:5 3:3", "3:1 | 6:6 1:1 | 6:4 3:3 2:2",
                       variant={"casino_chip": True}))
    assert result["house"] == 0 and nets(result) == [10, -10]


def test_settle_directly():
    m = [[True, True, True], [True, True, True], [False, True, False]]
    pips = [[1, 1, 1], [1, 1, 2], [0, 9, 0]]
    out = settle(m, pips, [3, 7, 15], casino_chip=True)
    assert out["absolute_winner"] == 1 and out["house"] == 1
    assert out["transfers"] == [{"from": 0, "to": 1, "amount": 25}, {"from": 2, "to": 1, "amount": 25},
                                {"from": 1, "to": None, "amount": 1}]
    out = settle([[False] * 3] * 3, pips, [3, 7, 15])
    assert out["group_winners"] == [None, None, None] and out["transfers"] == []


# ---------------------------------------------------------------------------------------
# Record checks

@pytest.mark.parametrize("change,path,code", [
    ({"seats": ["A"]}, "seats", "wrong_player_count"),
    ({"seats": list("ABCDEF")}, "seats", "wrong_player_count"),
    ({"table": ["6:6"]}, "table", "wrong_count"),
    ({"table": ["6:6", "9:1"]}, "table[1]", "bad_tile"),
    ({"groups": [[["4:3"], ["6:5", "5:1"], ["1:1", "6:3", "3:3"]]]}, "groups", "wrong_count"),
    ({"groups": [[["4:3"], ["6:5", "5:1"]], [["5:2"], ["6:6", "4:1"], ["2:2", "2:2", "5:4"]]]},
     "groups[0]", "wrong_count"),
    ({"groups": [[["4:3"], ["6:5", "5:1"], ["1:1", "6:3", "3:3"]],
                 [["5:2"], ["6:6", "4:1"], ["2:2", "2:2", "5:4", "1:1"]]]}, "groups[1][2]", "wrong_count"),
    ({"groups": [[["4:3"], ["6:5", "5:1"], ["1:1", "6:3", "3:3"]],
                 [["5:2"], ["6:6", "4:1"], ["2:2", "2:2", "5:0"]]]}, "groups[1][2][2]", "bad_tile"),
    ({"groups": [[["4:3"], ["6:5", "5:1"], ["1:1", "6:3", "3:3"]],
                 [["4:3"], ["6:6", "4:1"], ["2:2", "2:2", "5:4"]]]}, "groups[1][0][0]", "too_many_copies"),
    ({"table": ["6:6", "6:6"]}, "groups[1][1][0]", "too_many_copies"),
    ({"groups": "x"}, "groups", "bad_type"),
    ({"extra": 1}, "extra", "unknown_field"),
    ({"variant": {"stakes": [3, 7]}}, "variant.stakes", "bad_variant"),
    ({"variant": {"absolute_tie": "split"}}, "variant.absolute_tie", "bad_variant"),
    ({"variant": {"casino_chip": "yes"}}, "variant.casino_chip", "bad_variant"),
])
def test_record_errors(change, path, code):
    rec = record(*EX1)
    rec.update(change)
    assert (path, code) in errors(rec)


def test_missing_fields():
    # Neither level (§4b): the record says nothing of the deal; the groups need the table.
    assert errors({"game": "da_ling", "seats": ["A", "B"]}) == {("", "missing_level")}
    rec = record(*EX1)
    del rec["table"]
    assert errors(rec) == {("table", "missing_field")}


def test_five_players_use_the_whole_deck():
    deck = list(DECK_LIST)
    table, hands = deck[:2], [deck[2 + 6 * i: 8 + 6 * i] for i in range(5)]
    rec = {"game": "da_ling", "seats": list("ABCDE"), "table": table,
           "groups": [[h[:1], h[1:3], h[3:]] for h in hands]}
    result = ok(rec)
    assert sum(nets(result)) + result["house"] == 0


# ---------------------------------------------------------------------------------------
# Properties over random deals

VARIANTS = st.fixed_dictionaries({}, optional={
    "stakes": st.lists(st.integers(1, 50), min_size=3, max_size=3),
    "absolute_tie": st.sampled_from(["groups", "push"]),
    "casino_chip": st.booleans(),
})


@st.composite
def deals(draw):
    n = draw(st.integers(2, 5))
    deck = draw(st.permutations(DECK_LIST))
    hands = [deck[2 + 6 * i: 8 + 6 * i] for i in range(n)]
    return {"game": "da_ling", "seats": [f"S{i}" for i in range(n)], "table": deck[:2],
            "groups": [[h[:1], h[1:3], h[3:]] for h in hands], "variant": draw(VARIANTS)}


@settings(max_examples=400, deadline=None)
@given(deals())
def test_nets_and_house_sum_to_zero(rec):
    result = ok(rec)
    assert sum(nets(result)) + result["house"] == 0
    stakes = rec["variant"].get("stakes", [3, 7, 15])
    w = result["absolute_winner"]
    if w is not None:
        assert all(all(g["matches"] for g in s["groups"]) for s in [result["seats"][w]])
        assert result["group_winners"] == [None, None, None]
        n = len(rec["seats"])
        assert nets(result)[w] == sum(stakes) * (n - 1) - result["house"]
    for g, winner in enumerate(result["group_winners"]):
        if winner is not None:
            assert result["seats"][winner]["groups"][g]["matches"]
    # Every seat's whole-hand colour pips is the sum over its groups.
    for s in result["seats"]:
        assert s["colour_pips"] == sum(g["colour_pips"] for g in s["groups"])


@settings(max_examples=300, deadline=None)
@given(deals(), st.data())
def test_permuting_seats_permutes_the_result(rec, data):
    n = len(rec["seats"])
    perm = data.draw(st.permutations(range(n)))  # new seat i is old seat perm[i]
    moved = {**rec, "seats": [rec["seats"][j] for j in perm], "groups": [rec["groups"][j] for j in perm]}
    a, b = ok(rec), ok(moved)
    old_to_new = {old: new for new, old in enumerate(perm)}
    assert [s["net"] for s in b["seats"]] == [a["seats"][j]["net"] for j in perm]
    assert [s["groups"] for s in b["seats"]] == [a["seats"][j]["groups"] for j in perm]
    assert b["absolute_winner"] == (None if a["absolute_winner"] is None else old_to_new[a["absolute_winner"]])
    assert b["group_winners"] == [None if w is None else old_to_new[w] for w in a["group_winners"]]
    assert (a["target"], a["colour"], a["house"]) == (b["target"], b["colour"], b["house"])
