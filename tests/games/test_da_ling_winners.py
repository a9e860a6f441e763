"""Da Ling's quick level (ROUND_RECORD.md §4b): the winners the table agreed, paid exactly as
the full level pays the winners its groups give (DL-6 … DL-12)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import get_game
from games.da_ling import matches, target_and_colour
from games.entry import Winner
from games.simulate import quick_record, simulate
from games.tiles import parse_tile

from .helpers import error_at, nets_by_name, nets_in_order, ok
from .helpers import error_set as errors

#: The worked example of §4b.
EXAMPLE = {"game": "da_ling", "seats": ["P1", "P2", "P3"],
           "winners": {"absolute": None, "groups": [2, None, 0]}}


def quick(absolute=None, groups=(None, None, None), players=3, variant=None, **extra) -> dict:
    winners: dict = {"absolute": absolute}
    if groups is not None:
        winners["groups"] = list(groups)
    rec = {"game": "da_ling", "seats": [f"P{i + 1}" for i in range(players)], "winners": winners}
    if variant:
        rec["variant"] = variant
    rec.update(extra)
    return rec


# ---------------------------------------------------------------------------------------
# The worked example and the output's shape

def test_worked_example_default_stakes():
    result = ok(EXAMPLE)
    # P3 takes 3 from each of two for the 1-tile group, P1 15 from each for the 3-tile group.
    assert nets_by_name(result) == {"P1": 27, "P2": -18, "P3": -9}
    assert result["absolute_winner"] is None and result["group_winners"] == [2, None, 0]
    assert result["house"] == 0


def test_output_shape():
    result = ok(EXAMPLE)
    assert {"absolute_winner", "group_winners", "house", "seats", "transfers", "warnings"} <= set(result)
    assert "target" not in result and "colour" not in result  # no table given
    for seat in result["seats"]:
        assert "net" in seat and "groups" not in seat and "colour_pips" not in seat
    assert [(w["path"], w["code"]) for w in result["warnings"]] == [("winners", "unverified")]


def test_the_table_when_given_adds_target_and_colour():
    result = ok({**EXAMPLE, "table": ["6:6", "3:2"]})
    assert (result["target"], result["colour"]) == (7, "red")  # RULES §8.4 example 1
    assert nets_in_order(result) == nets_in_order(ok(EXAMPLE))
    assert (ok({**EXAMPLE, "table": ["6:5", "2:1"]})["target"], ok({**EXAMPLE, "table": ["6:5", "2:1"]})["colour"]) \
        == (4, "black")


# ---------------------------------------------------------------------------------------
# Absolute winner, casino chip, stakes

@pytest.mark.parametrize("groups", [None, (None, None, None)])
def test_absolute_winner_takes_every_whole_stake(groups):
    result = ok(quick(absolute=1, groups=groups, players=4))
    assert nets_in_order(result) == [-25, 75, -25, -25]
    assert result["absolute_winner"] == 1 and result["group_winners"] == [None, None, None]
    assert result["house"] == 0


def test_casino_chip_with_an_absolute_winner():
    result = ok(quick(absolute=1, players=2, variant={"casino_chip": True}))
    assert nets_in_order(result) == [-25, 24] and result["house"] == 1  # RULES §8.4 example 1
    assert {"from": 1, "to": None, "amount": 1} in result["transfers"]
    assert sum(nets_in_order(result)) + result["house"] == 0


def test_casino_chip_without_an_absolute_winner_takes_nothing():
    result = ok(quick(groups=(0, 1, None), variant={"casino_chip": True}))
    assert result["house"] == 0 and all(t["to"] is not None for t in result["transfers"])


def test_stakes_from_the_variant():
    assert nets_in_order(ok(quick(groups=(0, 0, 1), variant={"stakes": [1, 2, 3]}))) == [6 - 3, 6 - 3, -6]
    assert nets_in_order(ok(quick(absolute=2, variant={"stakes": [1, 2, 3]}))) == [-6, -6, 12]


def test_no_winner_anywhere_is_a_push():
    result = ok(quick(groups=(None, None, None)))
    assert nets_in_order(result) == [0, 0, 0] and result["transfers"] == []


def test_one_seat_may_win_several_groups():
    assert nets_in_order(ok(quick(groups=(1, 1, 1), players=2))) == [-25, 25]


# ---------------------------------------------------------------------------------------
# Refusals

def test_neither_level_is_missing_level():
    assert errors({"game": "da_ling", "seats": ["A", "B"], "table": ["6:6", "3:2"]}) == {("", "missing_level")}
    # The table is still read: its errors come too.
    assert errors({"game": "da_ling", "seats": ["A", "B"], "table": ["6:6"]}) == {
        ("", "missing_level"), ("table", "wrong_count")}


def test_both_levels_is_two_levels_at_winners():
    groups = [[["4:3"], ["6:5", "5:1"], ["1:1", "6:3", "3:3"]], [["5:2"], ["6:6", "4:1"], ["2:2", "2:2", "5:4"]],
              [["6:1"], ["4:4", "5:5"], ["3:1", "6:2", "1:1"]]]
    found = error_at({**EXAMPLE, "table": ["6:6", "3:2"], "groups": groups}, "winners", "two_levels")
    assert "groups" in found["message"] and "winners" in found["message"]


@pytest.mark.parametrize("winners, path, code", [
    ([None, [2, None, 0]], "winners", "bad_type"),
    (None, "winners", "bad_type"),
    ({"absolute": None, "groups": [2, None, 0], "house": 1}, "winners.house", "unknown_field"),
    ({"groups": [2, None, 0]}, "winners.absolute", "missing_field"),
    ({"absolute": None}, "winners.groups", "missing_field"),
    ({"absolute": None, "groups": [2, None]}, "winners.groups", "wrong_count"),
    ({"absolute": None, "groups": [2, None, 0, 1]}, "winners.groups", "wrong_count"),
    ({"absolute": None, "groups": None}, "winners.groups", "bad_type"),
    ({"absolute": None, "groups": "2 - 0"}, "winners.groups", "bad_type"),
    ({"absolute": 3, "groups": None}, "winners.absolute", "bad_seat"),
    ({"absolute": -1}, "winners.absolute", "bad_seat"),
    ({"absolute": True}, "winners.absolute", "bad_seat"),
    ({"absolute": "P1"}, "winners.absolute", "bad_seat"),
    ({"absolute": 1.0}, "winners.absolute", "bad_seat"),
    ({"absolute": None, "groups": [3, None, 0]}, "winners.groups[0]", "bad_seat"),
    ({"absolute": None, "groups": [None, -1, 0]}, "winners.groups[1]", "bad_seat"),
    ({"absolute": None, "groups": [None, None, False]}, "winners.groups[2]", "bad_seat"),
    ({"absolute": 0, "groups": [None, None, 2]}, "winners.groups[2]", "unexpected_field"),
    ({"absolute": 0, "groups": [0, None, None]}, "winners.groups[0]", "unexpected_field"),
])
def test_winners_refusals(winners, path, code):
    assert (path, code) in errors({**EXAMPLE, "winners": winners})


def test_every_winners_error_is_reported():
    assert errors({**EXAMPLE, "winners": {"absolute": 1, "groups": [5, 2, None], "x": 0}}) == {
        ("winners.x", "unknown_field"), ("winners.groups[0]", "bad_seat"), ("winners.groups[1]", "unexpected_field")}


def test_the_seat_range_follows_the_player_count():
    assert ok(quick(absolute=4, players=5))["absolute_winner"] == 4
    found = error_at(quick(absolute=4, players=4), "winners.absolute", "bad_seat")
    assert "0 to 3" in found["message"]


@pytest.mark.parametrize("table, path, code", [
    (["6:6"], "table", "wrong_count"),
    (["6:6", "7:1"], "table[1]", "bad_tile"),
    (["4:2", "4:2"], "table[1]", "too_many_copies"),
    ("6:6 3:2", "table", "bad_type"),
])
def test_a_given_table_is_checked(table, path, code):
    assert (path, code) in errors({**EXAMPLE, "table": table})


def test_the_common_checks_still_apply():
    assert ("seats", "wrong_player_count") in errors({**EXAMPLE, "seats": ["A"]})
    assert ("variant.stakes", "bad_variant") in errors({**EXAMPLE, "variant": {"stakes": [1, 2]}})


# ---------------------------------------------------------------------------------------
# Paid exactly as the full level: the quick record of a full deal pays the same

def quick_of(record: dict, result: dict, *, keep_table: bool) -> dict:
    """The winners a table would agree for a full record, read off its result."""
    rec = {k: v for k, v in record.items() if k not in ("groups", "table")}
    if keep_table:
        rec["table"] = record["table"]
    rec["winners"] = {"absolute": result["absolute_winner"], "groups": result["group_winners"]}
    return rec


VARIANTS = [None, {"casino_chip": True}, {"absolute_tie": "push"}, {"stakes": [1, 2, 3], "casino_chip": True}]


def best_groups(record: dict, seed: int) -> dict:
    """The same deal with every seat that can match all three groups splitting its six tiles so
    (one such split, picked by ``seed``): random splits almost never give an absolute winner."""
    target, _colour = target_and_colour([parse_tile(t) for t in record["table"]])
    rng = random.Random(seed)
    groups = []
    for three in record["groups"]:
        hand = [t for grp in three for t in grp]
        splits = []
        for one in range(6):
            rest = [i for i in range(6) if i != one]
            for pair in combinations(rest, 2):
                trio = [i for i in rest if i not in pair]
                split = [[hand[one]], [hand[i] for i in pair], [hand[i] for i in trio]]
                if all(matches([parse_tile(t) for t in grp], target) for grp in split):
                    splits.append(split)
        groups.append(rng.choice(splits) if splits else three)
    return {**record, "groups": groups}


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), players=st.integers(2, 5), variant=st.sampled_from(VARIANTS),
       keep_table=st.booleans(), arranged=st.booleans())
def test_quick_level_pays_as_the_full_level(seed, players, variant, keep_table, arranged):
    record = next(simulate("da_ling", deals=1, seed=seed, players=players, variant=variant))
    if arranged:
        record = best_groups(record, seed)
    full = ok(record)
    fast = ok(quick_of(record, full, keep_table=keep_table))
    assert fast["transfers"] == full["transfers"]
    assert nets_in_order(fast) == nets_in_order(full)
    assert sum(nets_in_order(fast)) + fast["house"] == 0
    for key in ("absolute_winner", "group_winners", "house"):
        assert fast[key] == full[key]
    if keep_table:
        assert (fast["target"], fast["colour"]) == (full["target"], full["colour"])
    else:
        assert "target" not in fast
    assert quick_record(record) == quick_of(record, full, keep_table=False)


def test_absolute_winners_and_ties_turn_up_in_the_arranged_deals():
    # The property test above means little unless its deals hold absolute winners, ties
    # between them (DL-8) and group winners; a tie under "push" is pinned here.
    deals = list(simulate("da_ling", deals=100, seed=2, players=5, variant={"absolute_tie": "push"}))
    arranged = [best_groups(r, i) for i, r in enumerate(deals)]
    results = [ok(r) for r in arranged]
    assert sum(r["absolute_winner"] is not None for r in results) > 10
    assert sum(r["absolute_winner"] is None and any(w is not None for w in r["group_winners"]) for r in results) > 10
    tied = [(rec, r) for rec, r in zip(arranged, results) if r["absolute_winner"] is None
            and sum(all(g["matches"] for g in s["groups"]) for s in r["seats"]) > 1]
    assert tied
    for rec, full in tied:
        assert full["transfers"] == [] and full["group_winners"] == [None, None, None]
        assert ok(quick_of(rec, full, keep_table=False))["transfers"] == []


def test_simulate_winners_level():
    for record in simulate("da_ling", deals=20, seed=7, level="winners", players=4, variant={"casino_chip": True}):
        assert "groups" not in record and "table" not in record
        assert [w["code"] for w in ok(record)["warnings"]] == ["unverified"]
    with pytest.raises(ValueError, match="level"):
        list(simulate("da_ling", deals=1, seed=0, level="values"))


# ---------------------------------------------------------------------------------------
# The deal form's description

def test_the_form_offers_groups_or_winners():
    entry = get_game("da_ling").entry
    assert [level for level, _label in entry.levels] == ["groups", "winners"]
    winners = [inp for inp in entry.inputs if inp.level == "winners"]
    assert all(isinstance(inp, Winner) and inp.fills == "winners" and not inp.per_seat for inp in winners)
    assert [(inp.key, inp.part) for inp in winners] == [("absolute", None), ("groups", 0), ("groups", 1), ("groups", 2)]
    assert all(inp.blank for inp in winners)
    # The table goes with the groups; beside the winners it may be left out.
    assert {inp.name: inp.level for inp in entry.inputs}["table_tiles"] == "groups"
