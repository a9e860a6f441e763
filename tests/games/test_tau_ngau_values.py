"""Tau Ngau's quick level (ROUND_RECORD.md §3b): the values the table agreed, settled exactly
as the full level settles the values it finds in the hands."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import evaluate, get_game
from games.entry import SeatValue
from games.simulate import quick_record, simulate
from games.tau_ngau import VALUE_RANGES

from .helpers import error_at, nets_by_name, nets_in_order, ok, refused
from .helpers import error_set as errors

#: The worked example of §3b.
EXAMPLE = {"game": "tau_ngau", "seats": ["Bank", "Ann", "Bo", "Cy"], "banker": 0,
           "stakes": [None, 2, 5, 1], "values": [7, None, 0, 9]}


def quick(values, banker=0, stakes=None, variant=None, **extra) -> dict:
    names = ["Bank", "Ann", "Bo", "Cy", "Di", "Ed"][:len(values)]
    rec = {"game": "tau_ngau", "seats": names, "banker": banker, "values": list(values)}
    if stakes is None and "bet" not in extra:
        stakes = [None if s == banker else 1 for s in range(len(values))]
    if stakes is not None:
        rec["stakes"] = stakes
    if variant:
        rec["variant"] = variant
    rec.update(extra)
    return rec


# ---------------------------------------------------------------------------------------
# The worked example and the output's shape

def test_worked_example_v2():
    result = ok(EXAMPLE)
    # Ann no bull vs 7 → −2; Bo 0 vs 7 → −5; Cy 9 vs 7 → +1; the bank +6.
    assert nets_by_name(result) == {"Bank": 6, "Ann": -2, "Bo": -5, "Cy": 1}
    assert result["next_banker"] == 1  # the banker formed a bull (TN-V2-5)
    assert result["banker"] == 0
    assert [(s["value"], s["has_bull"]) for s in result["seats"]] == [(7, True), (0, False), (0, True), (9, True)]
    assert evaluate({**EXAMPLE, "variant": {"settlement": "v2"}}) == result


def test_output_per_seat_has_value_and_has_bull_but_no_bull_or_best_value():
    result = ok(EXAMPLE)
    for seat in result["seats"]:
        assert {"value", "has_bull", "net"} <= set(seat)
        assert "bull" not in seat and "best_value" not in seat
        assert type(seat["value"]) is int and type(seat["has_bull"]) is bool
    assert {"next_banker", "transfers", "warnings"} <= set(result)
    assert "place" not in result["seats"][0]


def test_unverified_once_at_values():
    result = ok(EXAMPLE)
    assert [(w["path"], w["code"]) for w in result["warnings"]] == [("values", "unverified")]
    assert result["warnings"][0]["message"]


# ---------------------------------------------------------------------------------------
# Refusals

def test_neither_level_is_missing_level():
    rec = dict(EXAMPLE)
    del rec["values"]
    assert errors(rec) == {("", "missing_level")}


def test_both_levels_is_two_levels_at_values():
    hands = [["6:6", "4:4", "6:4", "5:5", "3:1"], ["2:2", "5:1", "5:5", "6:6", "3:1"],
             ["6:1", "4:1", "4:3", "6:5", "5:2"], ["5:4", "1:1", "6:6", "4:4", "2:2"]]
    found = error_at({**EXAMPLE, "hands": hands}, "values", "two_levels")
    assert "hands" in found["message"] and "values" in found["message"]


@pytest.mark.parametrize("bad", [-1, 10, 11, 2.5, 7.0, True, False, "7", [7], {"value": 7}])
def test_a_value_out_of_range_under_v2(bad):
    values = [7, None, bad, 9]
    found = error_at(quick(values), "values[2]", "bad_value")
    assert "0 to 9" in found["message"]


@pytest.mark.parametrize("bad", [0, 11, -3, 1.5, True])
def test_a_value_out_of_range_under_v1(bad):
    found = error_at(quick([7, bad, 3], variant={"settlement": "v1"}), "values[1]", "bad_value")
    assert "1 to 10" in found["message"]


def test_every_bad_value_is_reported():
    assert errors(quick([10, -1, None, "x"])) == {("values[0]", "bad_value"), ("values[1]", "bad_value"),
                                                  ("values[3]", "bad_value")}


@pytest.mark.parametrize("values, code", [([7, None], "wrong_count"), ([7, None, 0, 9, 1], "wrong_count"),
                                          ("7 - 0 9", "bad_type"), ({"0": 7}, "bad_type"), (None, "bad_type")])
def test_the_values_list(values, code):
    assert (("values", code)) in errors({**EXAMPLE, "values": values})


@pytest.mark.parametrize("declared", [None, [None, None, None, None], [None, {"bull": None}, None, None]])
def test_declared_is_unknown_beside_values(declared):
    assert errors({**EXAMPLE, "declared": declared}) == {("declared", "unknown_field")}


def test_the_common_checks_still_apply():
    assert ("stakes[0]", "banker_stake") in errors({**EXAMPLE, "stakes": [1, 2, 5, 1]})
    assert ("banker", "bad_banker") in errors({**EXAMPLE, "banker": 4})
    assert ("bet", "bet_needs_v1") in errors({**EXAMPLE, "bet": 2})
    assert ("seats", "wrong_player_count") in errors({**EXAMPLE, "seats": ["A", "B"], "values": [1, 2]})
    # Errors of the stakes and of the values together, not only the first.
    assert errors({**EXAMPLE, "stakes": [None, 0, 5, 1], "values": [7, None, 12, 9]}) == {
        ("stakes[1]", "bad_stake"), ("values[2]", "bad_value")}


def test_refusals_carry_no_warning():
    assert set(evaluate(quick([12, None, 3]))) == {"ok", "errors"}
    refused(quick([12, None, 3]))


# ---------------------------------------------------------------------------------------
# v1 ranges and settlement (TN-V1-*)

def test_v1_ten_is_the_remainder_zero_and_the_best_value():
    v1 = {"settlement": "v1"}
    # TN-V1-5: a player's 6 against a banker's 10 pays 4; against a banker without a bull +6.
    assert nets_in_order(ok(quick([10, 6, 6], variant=v1))) == [8, -4, -4]
    assert nets_in_order(ok(quick([None, 6, 10], variant=v1))) == [-16, 6, 10]
    # A player's 1 against the banker's 10 pays 9, more than the 4 of no bull.
    assert nets_in_order(ok(quick([10, 1, None], variant=v1))) == [13, -9, -4]


def test_v1_no_bull_pays_four_or_the_banker_value():
    assert nets_in_order(ok(quick([None, None, 3], variant={"settlement": "v1"}))) == [1, -4, 3]
    banker_value = {"settlement": "v1", "v1_no_bull_pays": "banker_value"}
    assert nets_in_order(ok(quick([7, None, None], variant=banker_value))) == [14, -7, -7]
    assert nets_in_order(ok(quick([None, None, 2], variant=banker_value))) == [2, -4, 2]


def test_v1_one_bet_for_everyone():
    result = ok(quick([5, 8, None], stakes=None, bet=3, variant={"settlement": "v1"}))
    assert nets_in_order(result) == [-9 + 12, 9, -12]
    assert [s["stake"] for s in result["seats"]] == [None, 3, 3]


def test_v2_zero_beats_no_bull_and_no_bull_against_no_bull_is_a_push():
    assert nets_in_order(ok(quick([None, 0, None]))) == [-1, 1, 0]
    assert nets_in_order(ok(quick([0, 0, None]))) == [1, 0, -1]


def test_the_bank_rotation_follows_the_banker_value():
    assert ok(quick([None, 3, 4], banker=2))["next_banker"] == 0
    assert ok(quick([None, 3, 4], banker=0))["next_banker"] == 0
    assert ok(quick([0, 3, 4], banker=0))["next_banker"] == 1  # a bull worth 0 is a bull
    assert ok(quick([None, 3, 4], variant={"bank_rotation": "every_round"}))["next_banker"] == 1
    assert ok(quick([7, 3, 4], variant={"bank_rotation": "fixed"}))["next_banker"] == 0


def test_may_decline_bull_changes_nothing():
    rec = quick([7, None, 3])
    plain = ok(rec)
    assert ok({**rec, "variant": {"may_decline_bull": True}}) == plain


# ---------------------------------------------------------------------------------------
# Settlement exactly as the full level: the quick record of a full deal settles the same

def quick_of(record: dict, result: dict) -> dict:
    """The values a table would agree for a full record, read off its result."""
    rec = {k: v for k, v in record.items() if k not in ("hands", "declared")}
    rec["values"] = [s["value"] if s["bull"] is not None else None for s in result["seats"]]
    return rec


VARIANTS = [None, {"settlement": "v1"}, {"settlement": "v1", "v1_no_bull_pays": "banker_value"},
            {"bank_rotation": "every_round"}, {"settlement": "v1", "bank_rotation": "fixed"}]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), players=st.integers(3, 6), variant=st.sampled_from(VARIANTS))
def test_quick_level_settles_as_the_full_level(seed, players, variant):
    record = next(simulate("tau_ngau", deals=1, seed=seed, players=players, variant=variant))
    full = ok(record)
    fast = ok(quick_of(record, full))
    assert fast["transfers"] == full["transfers"]
    assert nets_in_order(fast) == nets_in_order(full)
    assert sum(nets_in_order(fast)) == 0
    assert (fast["banker"], fast["next_banker"]) == (full["banker"], full["next_banker"])
    for a, b in zip(full["seats"], fast["seats"]):
        assert (a["name"], a["value"], a["stake"]) == (b["name"], b["value"], b["stake"])
        assert b["has_bull"] == (a["bull"] is not None)
    # The simulator's quick record is this one.
    assert quick_record(record) == quick_of(record, full)


def test_simulate_values_level():
    for record in simulate("tau_ngau", deals=20, seed=5, level="values", players=5, variant={"settlement": "v1"}):
        assert "hands" not in record and len(record["values"]) == 5
        result = ok(record)
        assert [w["code"] for w in result["warnings"]] == ["unverified"]
    with pytest.raises(ValueError, match="level"):
        list(simulate("tau_ngau", deals=1, seed=0, level="winners"))


# ---------------------------------------------------------------------------------------
# The deal form's description

def test_the_form_offers_hands_or_values():
    entry = get_game("tau_ngau").entry
    assert [level for level, _label in entry.levels] == ["hands", "values"]
    by_name = {inp.name: inp for inp in entry.inputs}
    assert by_name["hand"].level == by_name["bull"].level == "hands"
    assert by_name["banker"].level is None and by_name["stake"].level is None
    value = by_name["value"]
    assert isinstance(value, SeatValue) and value.per_seat and value.fills == "values" and value.level == "values"
    defaults = get_game("tau_ngau").variant_defaults()
    assert value.bounds(defaults) == VALUE_RANGES["v2"] == (0, 9)
    assert value.bounds({**defaults, "settlement": "v1"}) == VALUE_RANGES["v1"] == (1, 10)
    assert [v for v, _label in value.choices(defaults)] == [None, *range(10)]
    assert [v for v, _label in value.choices({"settlement": "v1"})] == [None, *range(1, 11)]


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_every_choice_the_form_offers_is_a_value_the_engine_takes(version):
    value = next(inp for inp in get_game("tau_ngau").entry.inputs if isinstance(inp, SeatValue))
    low, high = value.bounds({"settlement": version})
    for choice, _label in value.choices({"settlement": version}):
        assert evaluate(quick([choice, 5, None], variant={"settlement": version}))["ok"]
    for outside in (low - 1, high + 1):
        assert ("values[0]", "bad_value") in errors(quick([outside, 5, None], variant={"settlement": version}))
