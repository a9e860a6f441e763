"""The record reader: common fields, variants, tiles, the deck check, and the promise that
evaluate() never raises (ROUND_RECORD.md §1, §5, §6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GAMES, VARIANTS, evaluate, variant_defaults
from games.catalog import CATALOG
from games.decks import CHINESE_32
from games.record import Common, Problems, check_deck, check_seat_count, read_common, read_tile_list

VALID_TN = {"game": "tau_ngau", "seats": ["Bank", "Ann", "Bo"], "banker": 0, "stakes": [None, 2, 5],
            "hands": [["6:6", "4:4", "6:4", "5:5", "3:1"], ["2:2", "5:1", "5:5", "6:6", "3:1"],
                      ["6:1", "4:1", "4:3", "6:5", "5:2"]]}


def errors_of(record) -> list[dict]:
    result = evaluate(record)
    assert result["ok"] is False
    assert set(result) == {"ok", "errors"}
    return result["errors"]


def paths_codes(record) -> set[tuple[str, str]]:
    return {(e["path"], e["code"]) for e in errors_of(record)}


def test_valid_record_is_ok():
    assert evaluate(VALID_TN)["ok"] is True


@pytest.mark.parametrize("record,path,code", [
    ([], "", "not_an_object"),
    ("tau_ngau", "", "not_an_object"),
    ({"seats": ["a"]}, "game", "missing_field"),
    ({"game": "poker", "seats": ["a"]}, "game", "unknown_game"),
    ({**VALID_TN, "format": 2}, "format", "unknown_format"),
    ({**VALID_TN, "format": "1"}, "format", "unknown_format"),
    ({**VALID_TN, "format": True}, "format", "unknown_format"),
    ({**VALID_TN, "table": ["6:6", "1:1"]}, "table", "unknown_field"),
    ({**VALID_TN, "variant": []}, "variant", "bad_type"),
    ({**VALID_TN, "variant": {"settlement": "v3"}}, "variant.settlement", "bad_variant"),
    ({**VALID_TN, "variant": {"may_decline_bull": 1}}, "variant.may_decline_bull", "bad_variant"),
    ({**VALID_TN, "variant": {"arms": 2}}, "variant.arms", "unknown_variant"),
    ({**VALID_TN, "seats": "Bank Ann Bo"}, "seats", "bad_type"),
    ({**VALID_TN, "seats": ["Bank", "", "Bo"]}, "seats[1]", "bad_name"),
    ({**VALID_TN, "seats": ["Bank", 7, "Bo"]}, "seats[1]", "bad_name"),
    ({**VALID_TN, "seats": ["Bank", "Ann", "Ann"]}, "seats[2]", "duplicate_name"),
    ({**VALID_TN, "seats": ["Bank", "x" * 101, "Bo"]}, "seats[1]", "bad_name"),
    ({k: v for k, v in VALID_TN.items() if k != "seats"}, "seats", "missing_field"),
])
def test_common_field_errors(record, path, code):
    assert (path, code) in paths_codes(record)


def test_every_error_is_reported_not_only_the_first():
    record = {**VALID_TN, "format": 3, "variant": {"nope": 1}, "extra": 1,
              "seats": ["Bank", "Bank", "Bo"]}
    found = paths_codes(record)
    assert {("format", "unknown_format"), ("variant.nope", "unknown_variant"),
            ("extra", "unknown_field"), ("seats[1]", "duplicate_name")} <= found


def test_da_ling_stakes_variant():
    base = {"game": "da_ling", "seats": ["P1", "P2"], "table": ["6:6", "3:2"],
            "groups": [[["4:3"], ["6:5", "5:1"], ["1:1", "6:3", "3:3"]],
                       [["5:2"], ["6:6", "4:1"], ["2:2", "2:2", "5:4"]]]}
    for bad in ([1, 2], [1, 2, 0], [1, 2, "3"], [1, 2, 3.0], "3,7,15", [True, 2, 3]):
        assert ("variant.stakes", "bad_variant") in paths_codes({**base, "variant": {"stakes": bad}})
    assert evaluate({**base, "variant": {"stakes": [1, 2, 3]}})["ok"] is True


def test_variant_defaults_are_the_first_listed_values():
    assert variant_defaults("tau_ngau") == {"settlement": "v2", "v1_no_bull_pays": "four",
                                            "bank_rotation": "on_banker_bull", "may_decline_bull": False}
    assert variant_defaults("da_ling") == {"stakes": [3, 7, 15], "absolute_tie": "groups",
                                           "casino_chip": False}
    # A copy each time: a caller changing it must not change the defaults.
    variant_defaults("da_ling")["stakes"].append(1)
    assert variant_defaults("da_ling")["stakes"] == [3, 7, 15]


def test_read_common_fills_the_variant():
    p = Problems()
    common = read_common({"game": "tau_ngau", "seats": ["a", "b", "c"], "variant": {"settlement": "v1"}}, p, CATALOG)
    assert not p
    assert common.variant["settlement"] == "v1" and common.variant["bank_rotation"] == "on_banker_bull"
    assert common.n == 3


def test_read_tile_list_paths():
    p = Problems()
    assert read_tile_list(["6:4", "9:9", "x"], "hands[2]", p, "A hand") is None
    assert [(e["path"], e["code"]) for e in p.errors] == [("hands[2][1]", "bad_tile"), ("hands[2][2]", "bad_tile")]
    p = Problems()
    assert read_tile_list(["6:4"], "hands[0]", p, "A hand", length=5) is None
    assert [(e["path"], e["code"]) for e in p.errors] == [("hands[0]", "wrong_count")]
    assert read_tile_list(["[4:6]", "1:3"], "x", Problems(), "x") == [(6, 4), (3, 1)]


def test_check_deck_names_the_first_copy_beyond_the_deck():
    p = Problems()
    placed = [((6, 6), "a[0]"), ((4, 2), "a[1]"), ((6, 6), "b[0]"), ((4, 2), "b[1]"), ((6, 6), "c[0]")]
    assert check_deck(placed, CHINESE_32, p) is False
    assert [(e["path"], e["code"]) for e in p.errors] == [("b[1]", "too_many_copies"), ("c[0]", "too_many_copies")]


def test_check_seat_count_message():
    p = Problems()
    assert not check_seat_count(Common("tau_ngau", {}, ["a", "b"], name="Tau Ngau"), range(3, 7), p)
    assert p.errors[0]["code"] == "wrong_player_count" and "3 to 6" in p.errors[0]["message"]


def test_messages_are_one_plain_sentence():
    record = {**VALID_TN, "format": 3, "variant": {"nope": 1}, "hands": [["7:7"] * 5] * 3}
    for e in errors_of(record):
        assert e["message"] and not e["message"][0].islower() and e["message"].endswith(".")
        assert "\n" not in e["message"] and "Traceback" not in e["message"]


# ---------------------------------------------------------------------------------------
# Never raises: random JSON-like garbage of any shape, for every game.

json_scalars = st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=8) \
    | st.sampled_from(["6:4", "4:2", "2:1", "6:6", "1:1", "[3:1]", "7:1", "v1", "push", "fixed"])
json_like = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=6)
                         | st.dictionaries(st.text(max_size=10), inner, max_size=6), max_leaves=20)
FIELDS = ["format", "variant", "seats", "points", "unplayed", "unplayed_tiles", "moves", "left_in_hand",
          "redeal", "hands", "suanzhang", "banker", "stakes", "bet", "declared", "table", "groups", "values",
          "winners"]
VARIANT_KEYS = sorted({k for v in VARIANTS.values() for k in v})


@st.composite
def garbage_records(draw):
    record = {"game": draw(st.sampled_from(GAMES) | json_scalars)}
    for key in draw(st.lists(st.sampled_from(FIELDS), max_size=8, unique=True)):
        record[key] = draw(json_like)
    if draw(st.booleans()):
        record["variant"] = draw(st.dictionaries(st.sampled_from(VARIANT_KEYS), json_like, max_size=4))
    if draw(st.booleans()):
        record["seats"] = draw(st.lists(st.sampled_from(["A", "B", "C", "D", "E", "F"]), min_size=0,
                                        max_size=7, unique=True))
    return record


def assert_well_formed(result) -> None:
    assert isinstance(result, dict)
    if result["ok"] is True:
        assert isinstance(result["seats"], list) and isinstance(result["warnings"], list)
        return
    assert result["ok"] is False and set(result) == {"ok", "errors"}
    assert result["errors"]
    for e in result["errors"]:
        assert set(e) == {"path", "code", "message"}
        assert isinstance(e["path"], str) and isinstance(e["code"], str) and e["code"]
        assert isinstance(e["message"], str) and e["message"]


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(json_like)
def test_never_raises_on_any_value(value):
    assert_well_formed(evaluate(value))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(garbage_records())
def test_never_raises_on_garbage_records(record):
    assert_well_formed(evaluate(record))


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data())
def test_never_raises_for_each_game(game, data):
    record = data.draw(garbage_records())
    record["game"] = game
    assert_well_formed(evaluate(record))


EXAMPLE_RECORDS = [json.loads(p.read_text(encoding="utf-8"))["record"]
                   for p in sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.json"))]


def _mutate(value, steps: list[int], replacement):
    """A copy of value with the container entry picked by steps replaced."""
    if not steps or not isinstance(value, (list, dict)) or not value:
        return replacement
    keys = list(value) if isinstance(value, dict) else list(range(len(value)))
    key = keys[steps[0] % len(keys)]
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[key] = _mutate(value[key], steps[1:], replacement)
    return copy


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.sampled_from(EXAMPLE_RECORDS), st.lists(st.integers(0, 50), min_size=1, max_size=5), json_like)
def test_never_raises_on_nearly_valid_records(record, steps, replacement):
    """One entry of a real record swapped for garbage reaches the deeper checks of each game."""
    assert_well_formed(evaluate(_mutate(record, steps, replacement)))


@pytest.mark.parametrize("game", GAMES)
def test_deep_nesting_does_not_raise(game):
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    for field in ("hands", "groups", "moves", "seats", "variant", "declared", "values", "winners"):
        assert_well_formed(evaluate({"game": game, "seats": ["A", "B", "C", "D"], field: deep}))


def test_huge_lists_are_refused_unread():
    result = evaluate({"game": "da_ling", "seats": ["A", "B"], "table": ["6:6"] * 10**6})
    assert result["ok"] is False
