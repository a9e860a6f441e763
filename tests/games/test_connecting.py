"""The record levels the connecting games share (games/connecting.py; ROUND_RECORD.md §2a–2c):
points, unplayed_tiles and the moves log, every validation refusal with its path, the output
shape, and junk that never raises."""

from __future__ import annotations

import pytest

from games import evaluate
from games.connecting import deck_totals, nearest_totals
from games.decks import CHINESE_32, DING_NIU_24, KKO_LI_24
from games.simulate import simulate
from games.tiles import parse_tile

from .helpers import error_at, ok, refused

FOUR = ["Anna", "Bob", "Celine", "Dominic"]


def tiles(*texts: str) -> list:
    return [parse_tile(t) for t in texts]


# ---------------------------------------------------------------------------------------
# Points level checks (§2a)

def test_reachable_totals():
    dn = deck_totals(DING_NIU_24, 6)
    assert 5 not in dn.other and 4 in dn.other and 6 in dn.other
    assert dn.by_count[1] == frozenset(a + b for a, b in DING_NIU_24)
    assert 0 in dn.by_count[0] and len(dn.by_count[0]) == 1
    big = deck_totals(CHINESE_32, 16)
    assert max(big.by_count[16]) <= 227 and max(big.other) == max(big.by_count[16])
    assert deck_totals(KKO_LI_24, 8).pips == 155
    assert nearest_totals(5, dn.other) == "4 or 6 are"


def test_points_not_possible_with_the_deck_names_the_nearest():
    e = error_at({"game": "ding_niu", "seats": FOUR, "points": [5, 6, 6, 10]}, "points[0]", "impossible_points")
    assert "5 is not possible" in e["message"] and "4 or 6 are" in e["message"]


def test_points_with_a_count_must_be_made_by_that_many_tiles():
    e = error_at({"game": "jie_long", "seats": FOUR, "points": [2, 13, 6, 6], "unplayed": [1, 1, 1, 1]},
                 "points[1]", "impossible_points")
    assert "12 is" in e["message"]
    # 3 is a pip total of one tile of the 32 set ([2:1]) but of no two tiles.
    error_at({"game": "jie_long", "seats": FOUR, "points": [2, 3, 6, 6], "unplayed": [1, 2, 1, 1]}, "points[1]")


@pytest.mark.parametrize("record, path, code", [
    ({"points": [2, 12, 34]}, "points", "wrong_count"),
    ({"points": "2 12 34 18"}, "points", "bad_type"),
    ({"points": [2, -12, 34, 18]}, "points[1]", "bad_points"),
    ({"points": [2, 12.5, 34, 18]}, "points[1]", "bad_points"),
    ({"points": [2, True, 34, 18]}, "points[1]", "bad_points"),
    ({"points": [2, 10 ** 9, 34, 18]}, "points[1]", "impossible_points"),
    ({"points": [2, 12, 34, 18], "unplayed": [1, 1, 9, 2]}, "unplayed[2]", "too_many_unplayed"),
    ({"points": [2, 12, 34, 18], "unplayed": [8, 1, 3, 2]}, "unplayed[0]", "too_many_unplayed"),
    ({"points": [2, 12, 34, 18], "unplayed": [1, 1, -3, 2]}, "unplayed[2]", "bad_unplayed"),
    ({"points": [2, 12, 34, 18], "unplayed": [1, 1, 3]}, "unplayed", "wrong_count"),
    ({"points": [2, 12, 34, 18], "unplayed": [1, 0, 3, 2]}, "points[1]", "impossible_points"),
    ({"points": [2, 0, 34, 18], "unplayed": [1, 1, 3, 2]}, "points[1]", "impossible_points"),
    ({"points": [70, 80, 80, 0]}, "points", "impossible_points"),
    ({"points": [2, 12, 34, 18], "moves": []}, "moves", "two_levels"),
    ({"unplayed_tiles": [[], [], [], []], "points": [0, 0, 0, 0]}, "unplayed_tiles", "two_levels"),
    ({}, "", "missing_level"),
    ({"unplayed": [1, 1, 1, 1]}, "", "missing_level"),
    ({"unplayed_tiles": [[], [], [], ["6:6"]], "unplayed": [0, 0, 0, 1]}, "unplayed", "unexpected_field"),
    ({"points": [2, 12, 34, 18], "left_in_hand": [[], [], [], []]}, "left_in_hand", "unexpected_field"),
    ({"points": [2, 12, 34, 18], "suanzhang": {"seat": 1}}, "suanzhang", "unknown_field"),
])
def test_points_level_refusals(record, path, code):
    error_at({"game": "jie_long", "seats": FOUR, **record}, path, code)


def test_seven_tiles_of_the_leader_are_fine_eight_are_not():
    ok({"game": "jie_long", "seats": FOUR, "points": [30, 12, 34, 18], "unplayed": [7, 1, 3, 2]})


# ---------------------------------------------------------------------------------------
# Unplayed tiles level (§2b)

@pytest.mark.parametrize("unplayed_tiles, path, code", [
    ([["6:6"], ["7:1", "3:3"], [], ["1:1"]], "unplayed_tiles[1][0]", "bad_tile"),
    ([["6:6"], ["6:6", "6:6"], [], ["1:1"]], "unplayed_tiles[1][1]", "too_many_copies"),
    ([["6:6"], "3:3", [], ["1:1"]], "unplayed_tiles[1]", "bad_type"),
    ([["6:6"], [], []], "unplayed_tiles", "wrong_count"),
    ([["6:6"] * 1 + ["5:5"] * 2 + ["4:4"] * 2 + ["3:3"] * 2 + ["2:2"], [], [], []], "unplayed_tiles[0]",
     "too_many_unplayed"),
    ([[], ["6:5"] * 2 + ["6:4"] * 2 + ["6:1"] * 2 + ["5:1"] * 2 + ["3:1"], [], []], "unplayed_tiles[1]",
     "too_many_unplayed"),
])
def test_unplayed_tiles_refusals(unplayed_tiles, path, code):
    error_at({"game": "jie_long", "seats": FOUR, "unplayed_tiles": unplayed_tiles}, path, code)


def test_unplayed_tiles_give_points_and_counts():
    r = ok({"game": "jie_long", "seats": FOUR, "unplayed_tiles": [["[6:4]"], ["1:3", "2:1"], [], ["5:5"]]})
    assert [(s["points"], s["unplayed"]) for s in r["seats"]] == [(10, 1), (7, 2), (0, 0), (10, 1)]
    assert r["winner"] == 2 and r["level"] == "unplayed_tiles"


# ---------------------------------------------------------------------------------------
# Moves level (§2c)

def _log(seed: int = 11, game: str = "jie_long", **kw) -> dict:
    return next(simulate(game, deals=1, seed=seed, level="moves", **kw))


def _blocked_log(game: str = "jie_long") -> dict:
    for seed in range(200):
        record = _log(seed, game)
        if "left_in_hand" in record:
            return record
    raise AssertionError("no blocked deal")


def test_log_refusals_wrong_player_count():
    error_at({"game": "jie_long", "seats": FOUR + ["Eve"], "points": [0, 1, 2, 3, 4]}, "seats", "wrong_player_count")


def test_log_not_matching_names_the_first_offending_move():
    record = _log()
    moves = record["moves"]
    k = next(i for i, m in enumerate(moves) if i > 0 and "play" in m)
    # Swap the tile of that play with a face-down one that does not fit, keeping the deck intact.
    open_pip = _open_end_before(moves, k)
    j = next((i for i, m in enumerate(moves) if "pass" in m and open_pip not in parse_tile(m["pass"])), None)
    if j is None:
        pytest.skip("no suitable pass in this deal")
    moves[k], moves[j] = {"play": moves[j]["pass"]}, {"pass": moves[k]["play"]}
    e = error_at(record, f"moves[{k}].play", "not_matching")
    assert e["message"].endswith(f"does not match the open end {open_pip}.")


def _open_end_before(moves: list[dict], k: int) -> int:
    pip = moves[0]["open"]
    for m in moves[1:k]:
        if "play" in m:
            a, b = parse_tile(m["play"])
            pip = a + b - pip
    return pip


def test_log_stopping_early_needs_left_in_hand():
    record = _blocked_log()
    del record["left_in_hand"]
    error_at(record, "left_in_hand", "missing_field")


def test_log_seats_hold_exactly_the_deal_size():
    record = _blocked_log()
    row = next(i for i, r in enumerate(record["left_in_hand"]) if r)
    moved = record["left_in_hand"][row].pop()
    other = (row + 1) % 4
    record["left_in_hand"][other].append(moved)
    errors = refused(record)
    assert {e["path"] for e in errors} == {f"left_in_hand[{row}]", f"left_in_hand[{other}]"}
    assert {e["code"] for e in errors} == {"wrong_count"}


def test_log_that_stops_before_the_end():
    record = _log()
    record["moves"] = record["moves"][:5]
    record.pop("left_in_hand", None)
    error_at(record, "moves", "log_incomplete")


def test_log_going_on_after_a_block():
    record = _blocked_log()
    seat = len(record["moves"]) % 4
    if not record["left_in_hand"][seat]:
        pytest.skip("that seat kept nothing")
    record["moves"].append({"pass": record["left_in_hand"][seat].pop()})
    k = len(record["moves"]) - 1
    error_at(record, f"moves[{k}]", "after_end")


def test_log_going_on_after_all_tiles():
    for seed in range(100):
        record = _log(seed)
        if "left_in_hand" not in record:
            break
    record["moves"].append({"pass": "6:6"})
    error_at(record, "moves[32]", "after_end")


def test_log_deck_check_names_the_copy_beyond_the_deck():
    record = _log()
    k = next(i for i, m in enumerate(record["moves"]) if "pass" in m or i > 3)
    record["moves"][k] = {"pass": "2:1"} if "pass" in record["moves"][k] else record["moves"][k]
    record["moves"][0] = {"play": "6:6", "open": 6}
    record["moves"][1] = {"play": "6:6"}
    record["moves"][2] = {"play": "6:6"}
    errors = refused(record)
    assert any(e["path"] == "moves[2].play" and e["code"] == "too_many_copies" for e in errors)


def test_kko_li_three_players_log_refuses_a_tile_of_the_32_set():
    record = _log(3, "kko_li_but_i_gi", players=3)
    record["moves"][0] = {"play": "6:6", "open": 6}
    error_at(record, "moves[0].play", "not_in_deck")


def test_jie_long_three_players_leave_two_tiles_undealt():
    for record in simulate("jie_long", deals=20, seed=5, level="moves", players=3):
        r = ok(record)
        used = sum(1 for _ in record["moves"]) + sum(len(h) for h in record.get("left_in_hand", []))
        assert used == 30 and r["warnings"] == []


def test_must_play_warning_and_voluntary_pass():
    warned = 0
    for record in simulate("jie_long", deals=30, seed=2, level="moves", pass_rate=0.3):
        r = ok(record)
        for w in r["warnings"]:
            assert w["code"] == "must_play" and w["path"].startswith("moves[")
            k = int(w["path"][6:-1])
            assert "pass" in record["moves"][k]
            warned += 1
        record["variant"] = {"voluntary_pass": True}
        assert ok(record)["warnings"] == []
    assert warned > 0


def test_forced_passes_give_no_warning():
    for record in simulate("kko_li_but_i_gi", deals=30, seed=2, level="moves"):
        assert ok(record)["warnings"] == []


def test_output_shape():
    r = ok(_log(4))
    assert set(r) >= {"ok", "game", "format", "seats", "winner", "next_leader", "blocked", "suanzhang",
                      "transfers", "warnings"}
    for s in r["seats"]:
        assert set(s) >= {"name", "points", "unplayed", "place", "net"}
    assert sorted(s["place"] for s in r["seats"]) == [1, 2, 3, 4]
    assert r["seats"][r["winner"]]["place"] == 1 and r["next_leader"] == r["winner"]


# ---------------------------------------------------------------------------------------
# Never raises (ROUND_RECORD.md §5)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.floats(allow_nan=False, width=16)
    | st.sampled_from(["6:4", "4:6", "[6:6]", "1:1", "2:1", "7:1", "", "x"]),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(
        st.sampled_from(["play", "pass", "to", "open", "seat", "move", "kind", "blamed", "x"]), inner, max_size=4),
    max_leaves=30)
_FIELDS = ["points", "unplayed", "unplayed_tiles", "moves", "left_in_hand", "suanzhang", "redeal", "hands"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["jie_long", "ce_deng", "kko_li_but_i_gi", "ding_niu"]),
       players=st.integers(1, 5), fields=st.dictionaries(st.sampled_from(_FIELDS), _JSON, max_size=3))
def test_junk_never_raises(game, players, fields):
    result = evaluate({"game": game, "seats": FOUR[:players] + ["Eve"] * (players > 4), **fields})
    assert result["ok"] in (True, False)
    if not result["ok"]:
        assert result["errors"] and all(set(e) == {"path", "code", "message"} for e in result["errors"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), game=st.sampled_from(["jie_long", "ding_niu", "kko_li_but_i_gi"]),
       junk=_JSON, where=st.integers(0, 40), key=st.sampled_from(["play", "pass", "to", "open", "x"]))
def test_junk_inside_a_real_log_never_raises(seed, game, junk, where, key):
    record = next(simulate(game, deals=1, seed=seed, level="moves"))
    moves = record["moves"]
    moves[where % len(moves)][key] = junk
    result = evaluate(record)
    assert result["ok"] in (True, False)
