"""Ce Deng (games/ce_deng.py; RULES.md §4): statuses, multipliers, the CD-8 worked example and
redeals."""

from __future__ import annotations

import random

from games.ce_deng import ce_deng_status, pair_multiplier, payer_multiplier
from games.decks import CHINESE_32
from games.simulate import record_from_hands, simulate
from games.tiles import parse_tile

from .helpers import error_at, ok
from .helpers import nets_by_name as nets

FOUR = ["Anna", "Bob", "Celine", "Dominic"]


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
