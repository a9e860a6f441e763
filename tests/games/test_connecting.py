"""Jie Long, Ce Deng and Kko-li-but-i-gi (games/connecting.py; RULES.md §2–§5,
ROUND_RECORD.md §2): scoring, worked examples and every validation refusal with its path."""

from __future__ import annotations

import random

import pytest

from games import evaluate
from games.connecting import (ce_deng_status, deck_totals, kko_li_payers, nearest_totals, pair_multiplier,
                              payer_multiplier)
from games.decks import CHINESE_32, DING_NIU_24, KKO_LI_24
from games.simulate import record_from_hands, simulate
from games.tiles import parse_tile

from .helpers import error_at, ok, refused
from .helpers import nets_by_name as nets

FOUR = ["Anna", "Bob", "Celine", "Dominic"]


def tiles(*texts: str) -> list:
    return [parse_tile(t) for t in texts]


# ---------------------------------------------------------------------------------------
# Jie Long

def test_jl4_differences():
    r = ok({"game": "jie_long", "seats": FOUR, "points": [2, 12, 34, 18]})
    assert nets(r) == {"Anna": 58, "Bob": 18, "Celine": -70, "Dominic": -6}
    assert r["winner"] == 0 and r["next_leader"] == 0
    assert [s["place"] for s in r["seats"]] == [1, 2, 4, 3]
    assert r["blocked"] is False and r["suanzhang"] is None
    assert [s["unplayed"] for s in r["seats"]] == [None] * 4


def test_jl5_tie_goes_to_the_lower_hand():
    r = ok({"game": "jie_long", "seats": ["Bob", "Celine", "Dominic", "Anna"], "points": [12, 34, 18, 12]})
    assert nets(r) == {"Anna": 28, "Bob": 28, "Dominic": 4, "Celine": -60}
    assert r["winner"] == 0 and r["next_leader"] == 0
    assert r["seats"][0]["place"] == 1 and r["seats"][3]["place"] == 2
    # Ties move no money between the tied players.
    assert not [t for t in r["transfers"] if {t["from"], t["to"]} == {0, 3}]


def test_jl_net_formula():
    points = [6, 0, 22, 14]
    r = ok({"game": "jie_long", "seats": FOUR, "points": points, "unplayed": [1, 0, 3, 2]})
    assert [s["net"] for s in r["seats"]] == [sum(points) - 4 * v for v in points]


def test_jl6_chip():
    r = ok({"game": "jie_long", "seats": FOUR, "points": [2, 12, 34, 18], "variant": {"settlement": "chip"}})
    assert nets(r) == {"Anna": 3, "Bob": -1, "Celine": -1, "Dominic": -1}


def test_jl_three_and_two_players():
    ok({"game": "jie_long", "seats": FOUR[:3], "points": [40, 0, 12], "unplayed": [4, 0, 2]})
    r = ok({"game": "jie_long", "seats": FOUR[:2], "points": [100, 4], "unplayed": [12, 1]})
    assert nets(r) == {"Anna": -96, "Bob": 96}
    error_at({"game": "jie_long", "seats": FOUR[:3], "points": [1, 2, 3], "unplayed": [11, 0, 0]}, "unplayed[0]")


@pytest.mark.parametrize("players", [4, 3, 2])
@pytest.mark.parametrize("arms", [1, 2])
def test_jl_full_logs(players, arms):
    for record in simulate("jie_long", deals=30, seed=players * 10 + arms, level="moves", players=players,
                           variant={"arms": arms}):
        r = ok(record)
        assert r["warnings"] == [] and r["level"] == "moves"
        assert isinstance(r["blocked"], bool)


# ---------------------------------------------------------------------------------------
# Ce Deng

CD8 = [["6:3"], ["1:1", "1:1", "2:1", "3:1", "3:1", "2:2", "4:1", "3:2"], ["6:6", "6:5", "5:5"], []]


def test_cd8_pair_multipliers():
    r = ok({"game": "ce_deng", "seats": ["Head", "T1", "T2", "T3"], "unplayed_tiles": CD8})
    assert nets(r) == {"Head": 46, "T1": -148, "T2": -98, "T3": 200}
    assert [s["status"] for s in r["seats"]] == ["none", "penalty", "none", "clean"]
    assert [s["points"] for s in r["seats"]] == [9, 29, 33, 0]
    assert r["winner"] == 3 and r["next_leader"] == 3
    payments = {(t["from"], t["to"]): t["amount"] for t in r["transfers"]}
    assert payments == {(1, 0): 40, (2, 0): 24, (0, 3): 18, (2, 1): 8, (1, 3): 116, (2, 3): 66}


def test_cd8_payer_multiplier():
    r = ok({"game": "ce_deng", "seats": ["Head", "T1", "T2", "T3"], "unplayed_tiles": CD8,
            "variant": {"multiplier": "payer"}})
    assert nets(r) == {"Head": 46, "T1": -152, "T2": -94, "T3": 200}


def test_cd8_at_points_level():
    r = ok({"game": "ce_deng", "seats": ["Head", "T1", "T2", "T3"], "points": [9, 29, 33, 0],
            "unplayed": [1, 8, 3, 0]})
    assert nets(r) == {"Head": 46, "T1": -148, "T2": -98, "T3": 200}


def test_cd4_statuses():
    assert ce_deng_status(0, 0, "7/8") == "clean"
    assert ce_deng_status(0, 7, "7/8") == "penalty"
    assert ce_deng_status(0, 6, "7/8") == "none"
    assert ce_deng_status(1, 7, "7/8") == "none"
    assert ce_deng_status(1, 8, "7/8") == "penalty"
    assert ce_deng_status(0, 6, "6/7") == "penalty"
    assert ce_deng_status(2, 7, "6/7") == "penalty"
    assert ce_deng_status(2, 6, "6/7") == "none"


def test_cd6_cd7_multipliers():
    assert pair_multiplier("clean", "penalty") == 4 and pair_multiplier("penalty", "clean") == 4
    assert pair_multiplier("none", "clean") == 2 and pair_multiplier("penalty", "none") == 2
    assert pair_multiplier("none", "none") == 1 and pair_multiplier("penalty", "penalty") == 1
    assert payer_multiplier("penalty", "clean") == 4
    assert payer_multiplier("none", "penalty") == 1
    assert payer_multiplier("penalty", "penalty") == 2
    assert payer_multiplier("penalty", "none") == 2 and payer_multiplier("none", "clean") == 2


def test_cd_head_tail_variant_changes_the_status():
    record = {"game": "ce_deng", "seats": ["Head", "T1", "T2", "T3"], "points": [30, 30, 6, 0],
              "unplayed": [6, 7, 1, 0], "variant": {"head_tail": "6/7"}}
    assert [s["status"] for s in ok(record)["seats"]] == ["penalty", "penalty", "none", "clean"]
    del record["variant"]
    assert [s["status"] for s in ok(record)["seats"]] == ["none", "none", "none", "clean"]


def test_cd_needs_unplayed_at_points_level():
    error_at({"game": "ce_deng", "seats": FOUR, "points": [2, 12, 34, 18]}, "unplayed", "missing_field")


def test_cd_exactly_four_players():
    error_at({"game": "ce_deng", "seats": FOUR[:3], "points": [2, 12, 34], "unplayed": [1, 1, 3]},
             "seats", "wrong_player_count")


def test_cd_head_cannot_have_all_eight_unplayed():
    error_at({"game": "ce_deng", "seats": FOUR, "points": [40, 12, 34, 18], "unplayed": [8, 1, 3, 2]},
             "unplayed[0]", "too_many_unplayed")


SEVEN_DOUBLES = ["6:6", "1:1", "4:4", "5:5", "3:3", "2:2", "6:6", "6:5"]


def _redeal_hands() -> list[list[str]]:
    rest = [t for t, n in sorted(CHINESE_32.items()) for _ in range(n)]
    for text in SEVEN_DOUBLES:
        rest.remove(parse_tile(text))
    random.Random(5).shuffle(rest)
    return [SEVEN_DOUBLES] + [[f"{a}:{b}" for a, b in rest[i * 8:(i + 1) * 8]] for i in range(3)]


def test_cd2_redeal_record():
    r = ok({"game": "ce_deng", "seats": FOUR, "redeal": True, "hands": _redeal_hands()})
    assert r["redeal"] is True and r["next_leader"] == 0 and r["transfers"] == []
    assert [s["net"] for s in r["seats"]] == [0, 0, 0, 0]


def test_cd2_redeal_needs_enough_doubles():
    hands = _redeal_hands()
    error_at({"game": "ce_deng", "seats": FOUR, "redeal": True, "hands": hands,
              "variant": {"redeal_doubles": 8}}, "hands", "no_redeal")
    ok({"game": "ce_deng", "seats": FOUR, "redeal": True, "hands": hands, "variant": {"redeal_doubles": 6}})


def test_cd2_redeal_record_shape():
    hands = _redeal_hands()
    error_at({"game": "ce_deng", "seats": FOUR, "hands": hands}, "redeal", "missing_field")
    error_at({"game": "ce_deng", "seats": FOUR, "redeal": True}, "hands", "missing_field")
    error_at({"game": "ce_deng", "seats": FOUR, "redeal": True, "hands": hands, "points": [0, 0, 0, 0]},
             "points", "unexpected_field")
    short = [h[:] for h in hands]
    short[2] = short[2][:7]
    error_at({"game": "ce_deng", "seats": FOUR, "redeal": True, "hands": short}, "hands[2]", "wrong_count")
    extra = [h[:] for h in hands]
    extra[3][0] = "6:6"  # a third [6:6]
    error_at({"game": "ce_deng", "seats": FOUR, "redeal": True, "hands": extra}, "hands[3][0]", "too_many_copies")
    ok({"game": "ce_deng", "seats": FOUR, "redeal": False, "points": [0, 4, 4, 4], "unplayed": [0, 1, 1, 1]})


def test_cd2_a_seat_with_seven_doubles_among_its_unplayed_tiles_points_to_the_redeal_form():
    unplayed = [["6:3"], list(SEVEN_DOUBLES[:7]), [], ["6:5"]]
    e = error_at({"game": "ce_deng", "seats": FOUR, "unplayed_tiles": unplayed}, "unplayed_tiles[1]", "redeal_deal")
    assert '"redeal": true' in e["message"]
    # Under redeal_doubles 8 the same deal is a normal one.
    ok({"game": "ce_deng", "seats": FOUR, "unplayed_tiles": unplayed, "variant": {"redeal_doubles": 8}})


def test_cd2_a_full_log_of_a_redeal_hand_is_refused():
    hands = [[parse_tile(t) for t in h] for h in _redeal_hands()]
    hands = [hands[1], hands[0], hands[2], hands[3]]  # the doubles sit with seat 1
    record = record_from_hands("ce_deng", hands, rng=random.Random(1), variant={"redeal_doubles": 8})
    assert "moves" in record
    record["variant"] = {}
    error_at(record, "moves", "redeal_deal")


def test_cd_full_logs():
    for record in simulate("ce_deng", deals=40, seed=8, level="moves"):
        r = ok(record)
        assert all(s["status"] in ("clean", "penalty", "none") for s in r["seats"]) or r.get("redeal")


# ---------------------------------------------------------------------------------------
# Kko-li-but-i-gi

KK7 = [2, 12, 34, 31]


def test_kk7_default():
    r = ok({"game": "kko_li_but_i_gi", "seats": FOUR, "points": KK7})
    assert nets(r) == {"Anna": 2, "Bob": 0, "Celine": -1, "Dominic": -1}


def test_kk7_chip():
    r = ok({"game": "kko_li_but_i_gi", "seats": FOUR, "points": KK7, "variant": {"settlement": "chip"}})
    assert nets(r) == {"Anna": 3, "Bob": -1, "Celine": -1, "Dominic": -1}


def test_kk7_points():
    r = ok({"game": "kko_li_but_i_gi", "seats": FOUR, "points": KK7, "variant": {"settlement": "points"}})
    assert nets(r) == {"Anna": 61, "Bob": 0, "Celine": -32, "Dominic": -29}


def test_kk7_tie_case():
    r = ok({"game": "kko_li_but_i_gi", "seats": FOUR, "points": [2, 2, 34, 30]})
    assert nets(r) == {"Anna": 1, "Bob": 0, "Celine": -1, "Dominic": 0}
    assert r["winner"] == 0


def test_kk6_every_non_winner_tied_for_most_pays():
    assert kko_li_payers([2, 20, 20, 10], 0, True) == [1, 2]
    assert kko_li_payers([10, 10, 10, 10], 0, True) == [1, 2, 3]
    r = ok({"game": "kko_li_but_i_gi", "seats": FOUR, "points": [10, 10, 10, 10]})
    assert nets(r) == {"Anna": 3, "Bob": -1, "Celine": -1, "Dominic": -1}
    r = ok({"game": "kko_li_but_i_gi", "seats": FOUR, "points": [10, 10, 10, 10], "variant": {"settlement": "points"}})
    assert r["transfers"] == []


def test_kk5_over_30_only_with_four():
    three = {"game": "kko_li_but_i_gi", "seats": FOUR[:3], "points": [2, 34, 31]}
    assert nets(ok(three)) == {"Anna": 2, "Bob": -1, "Celine": -1}
    three["variant"] = {"over_30_only_with_four": True}
    assert nets(ok(three)) == {"Anna": 1, "Bob": -1, "Celine": 0}
    four = {"game": "kko_li_but_i_gi", "seats": FOUR, "points": KK7, "variant": {"over_30_only_with_four": True}}
    assert nets(ok(four)) == {"Anna": 2, "Bob": 0, "Celine": -1, "Dominic": -1}


def test_kk1_reduced_deck_for_three_and_two():
    error_at({"game": "kko_li_but_i_gi", "seats": FOUR[:3], "unplayed_tiles": [["6:6"], [], ["1:1"]]},
             "unplayed_tiles[0][0]", "not_in_deck")
    ok({"game": "kko_li_but_i_gi", "seats": FOUR[:2], "unplayed_tiles": [["6:5"] * 2, ["1:1"]]})
    error_at({"game": "kko_li_but_i_gi", "seats": FOUR[:2], "unplayed_tiles": [["6:5"] * 12, []]},
             "unplayed_tiles[0]", "too_many_unplayed")


@pytest.mark.parametrize("players", [4, 3, 2])
def test_kk_full_logs(players):
    for record in simulate("kko_li_but_i_gi", deals=30, seed=players, level="moves", players=players):
        assert ok(record)["warnings"] == []


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
