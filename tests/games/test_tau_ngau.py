"""Tau Ngau (RULES.md §7): hand values, settlement v1/v2, declarations, bank rotation,
record checks, and an exhaustive check of every hand against a plain brute force."""

from __future__ import annotations

import time
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import evaluate
from games.bulls import build_table, distinct_hands, hand_value, is_bull, rest_values
from games.decks import CHINESE_32
from games.tau_ngau import SeatPlay, next_banker, settle
from games.tiles import parse_tile, tile_str

from .helpers import error_set as errors
from .helpers import nets_in_order as nets
from .helpers import ok

DECK_LIST = [tile_str(t) for t, n in sorted(CHINESE_32.items()) for _ in range(n)]


def tiles(text: str) -> list:
    return [parse_tile(x) for x in text.split()]


def deal(hands) -> list:
    """The given hands (strings or lists); each None is filled from what the deck has left."""
    hands = [h.split() if isinstance(h, str) else h for h in hands]
    left = list(DECK_LIST)
    for h in hands:
        for t in h or []:
            t = tile_str(parse_tile(t))
            if t in left:  # a record over the deck is left for the engine to refuse
                left.remove(t)
    return [h if h is not None else [left.pop() for _ in range(5)] for h in hands]


def record(hands, banker=0, stakes=None, variant=None, **extra) -> dict:
    names = ["Bank", "Ann", "Bo", "Cy", "Di", "Ed"][:len(hands)]
    rec = {"game": "tau_ngau", "seats": names, "banker": banker, "hands": deal(hands)}
    if stakes is None and "bet" not in extra:
        stakes = [None if s == banker else 1 for s in range(len(hands))]
    if stakes is not None:
        rec["stakes"] = stakes
    if variant:
        rec["variant"] = variant
    rec.update(extra)
    return rec


# ---------------------------------------------------------------------------------------
# TN-8 worked hands

TN8 = [  # hand, has bull, v1, v2
    ("2:2 5:1 5:5 6:6 3:1", True, 6, 6),
    ("6:1 4:1 4:3 6:5 5:2", False, 0, 0),
    ("6:6 4:4 6:4 5:5 5:5", True, 10, 0),
    ("4:2 2:1 4:4 5:5 6:6", True, 9, 9),
    ("4:2 3:3 3:1 6:4 5:5", True, 6, 6),
    ("1:1 1:1 2:1 3:1 4:2", True, 10, 7),
    ("5:4 1:1 6:6 4:4 2:2", False, 0, 0),
]


@pytest.mark.parametrize("hand,has_bull,v1,v2", TN8, ids=[f"row{i}" for i in range(1, 8)])
def test_tn8_rows(hand, has_bull, v1, v2):
    hv = hand_value(tiles(hand))
    assert (hv.has_bull, hv.v1, hv.v2) == (has_bull, v1, v2)
    if has_bull:
        for bull in (hv.bull_v1, hv.bull_v2):
            assert is_bull(bull) and list(bull) == sorted(bull, reverse=True)
    else:
        assert hv.bull_v1 is None and hv.bull_v2 is None


@pytest.mark.parametrize("hand,has_bull,v1,v2", TN8, ids=[f"row{i}" for i in range(1, 8)])
def test_tn8_rows_through_the_engine(hand, has_bull, v1, v2):
    for version, value in (("v1", v1), ("v2", v2)):
        rec = record([None, hand, None], variant={"settlement": version})
        seat = ok(rec)["seats"][1]
        assert seat["value"] == value and seat["best_value"] == value
        assert (seat["bull"] is not None) == has_bull


def test_row4_best_bull_is_not_the_wasteful_one():
    hv = hand_value(tiles("4:2 2:1 4:4 5:5 6:6"))
    assert hv.bull_v1 == hv.bull_v2 == ((6, 6), (5, 5), (4, 4))
    assert rest_values(tiles("5:5 6:6")) == (2, 2)  # what the wasteful [4:2][2:1][4:4] bull leaves


def test_wild_choice_inside_the_bull_is_independent_of_the_rest():
    # Row 6: [2:1] counts 6 in the bull, [4:2] counts 6 (v1) or 3 (v2) in the rest.
    assert is_bull(tiles("1:1 1:1 2:1"))
    assert rest_values(tiles("3:1 4:2")) == (10, 7)
    assert rest_values(tiles("2:1 4:2")) == (9, 9)  # 3 + 6
    assert rest_values(tiles("6:4 5:5")) == (10, 0)


def test_hand_order_does_not_matter():
    a = hand_value(tiles("4:2 2:1 4:4 5:5 6:6"))
    b = hand_value(tiles("6:6 5:5 2:1 4:4 4:2"))
    assert a == b


# ---------------------------------------------------------------------------------------
# The exhaustive check: every distinct hand of the 32 set against a plain brute force.

def brute_force(hand: tuple) -> tuple[bool, int, int]:
    """(has bull, v1 value, v2 value), trying every 3-tile bull and every wild choice."""
    def choices(t):
        return (3, 6) if t in ((4, 2), (2, 1)) else (t[0] + t[1],)

    has_bull, best1, best2 = False, 0, 0
    for trio in combinations(range(5), 3):
        rest = [hand[i] for i in range(5) if i not in trio]
        bull_sums = [sum(c) for c in product(*(choices(hand[i]) for i in trio))]
        if not any(s % 10 == 0 for s in bull_sums):
            continue
        has_bull = True
        for c in product(*(choices(t) for t in rest)):
            r = sum(c) % 10
            best1 = max(best1, 10 if r == 0 else r)
            best2 = max(best2, r)
    return has_bull, best1, best2


def test_every_hand_of_the_deck_against_brute_force():
    start = time.perf_counter()
    hands = list(distinct_hands())
    assert len(hands) == 33_934
    assert len(set(hands)) == len(hands)
    bulls = 0
    for hand in hands:
        hv = hand_value(hand)
        expected = brute_force(hand)
        assert (hv.has_bull, hv.v1, hv.v2) == expected, hand
        if hv.has_bull:
            bulls += 1
            # The reported bulls are bulls of this hand and leave exactly the reported values.
            for bull, version in ((hv.bull_v1, 0), (hv.bull_v2, 1)):
                rest = list(hand)
                for t in bull:
                    rest.remove(t)
                assert is_bull(bull)
                assert rest_values(rest)[version] == (hv.v1, hv.v2)[version]
    assert 0 < bulls < len(hands)
    assert time.perf_counter() - start < 60


def test_table_holds_every_deck_hand():
    table = build_table()
    assert len(table) >= 33_934  # plus any hand outside the deck valued on request
    weight = {t: 1 << (3 * i) for i, t in enumerate(sorted(CHINESE_32, reverse=True))}
    assert all(sum(weight[t] for t in hand) in table for hand in distinct_hands())


# ---------------------------------------------------------------------------------------
# Settlement. Named hands, chosen so that the ones used together fit the deck.

TEN = "6:3 6:1 3:1 6:6 4:4"       # bull [6:3][6:1][3:1] = 20, rest [6:6][4:4] = 20: v1 10, v2 0
SIX = "5:5 5:5 6:4 6:5 4:1"       # bull 30, rest [6:5][4:1] = 16: 6
SIX_B = "6:6 6:4 6:2 3:1 1:1"     # bull 30, rest [3:1][1:1]: 6
THREE = "6:3 6:1 3:1 5:4 2:2"     # every bull leaves 13: 3
NONE = "6:1 4:3 6:5 5:2 3:2"      # five odd tiles: no bull
NONE_B = "5:4 1:1 6:6 4:4 2:2"    # TN-8 row 7: no bull
ZERO = "6:6 4:4 6:4 5:5 5:5"      # TN-8 row 3: v1 10, v2 bull worth 0

def test_tn_v1_5_figures():
    player = SeatPlay(True, 6)  # other two [6:5][4:1] = 16 -> 6
    cases = [
        (SeatPlay(False, 0), 6),   # banker without bull
        (SeatPlay(True, 10), -4),  # banker [6:6][4:4] = 20 -> 10
        (SeatPlay(True, 6), 0),    # banker [3:1][1:1] -> 6
        (SeatPlay(True, 3), 3),    # banker [5:4][2:2] = 13 -> 3
    ]
    for bank, expected in cases:
        t = settle([bank, player, SeatPlay(False, 0)], 0, [None, 1, 1], "v1")
        net = sum(x["amount"] for x in t if x["to"] == 1) - sum(x["amount"] for x in t if x["from"] == 1)
        assert net == expected
    # A bull worth 1 against the banker's 10 pays 9, more than the 4 of no bull.
    t = settle([SeatPlay(True, 10), SeatPlay(True, 1), SeatPlay(False, 0)], 0, [None, 1, 1], "v1")
    assert {(x["from"], x["amount"]) for x in t} == {(1, 9), (2, 4)}


def test_tn_v1_5_through_records():
    for banker_hand, expected in [(NONE_B, 6), (TEN, -4), (SIX_B, 0), (THREE, 3)]:
        hands = [banker_hand, SIX, NONE]
        result = ok(record(hands, variant={"settlement": "v1"}, stakes=None, bet=1))
        assert result["seats"][1]["net"] == expected, banker_hand
        assert result["seats"][2]["net"] == -4
        assert sum(nets(result)) == 0


def test_v1_bet_multiplies_and_stakes_are_per_seat():
    hands = [TEN, SIX, NONE]
    assert nets(ok(record(hands, variant={"settlement": "v1"}, stakes=None, bet=3))) == [24, -12, -12]
    assert nets(ok(record(hands, variant={"settlement": "v1"}, stakes=[None, 2, 5]))) == [28, -8, -20]
    # No stakes and no bet under v1: one bet of 1.
    rec = record(hands, variant={"settlement": "v1"})
    del rec["stakes"]
    assert nets(ok(rec)) == [8, -4, -4]


def test_v1_no_bull_pays_banker_value():
    hands = [THREE, NONE, SIX]
    four = ok(record(hands, variant={"settlement": "v1"}, stakes=[None, 2, 1]))
    scaled = ok(record(hands, variant={"settlement": "v1", "v1_no_bull_pays": "banker_value"},
                       stakes=[None, 2, 1]))
    assert four["seats"][1]["net"] == -8 and scaled["seats"][1]["net"] == -6
    assert four["seats"][2]["net"] == scaled["seats"][2]["net"] == 3
    # Neither has a bull: still 4 bets.
    hands = [NONE_B, NONE, SIX]
    scaled = ok(record(hands, variant={"settlement": "v1", "v1_no_bull_pays": "banker_value"},
                       stakes=[None, 2, 1]))
    assert scaled["seats"][1]["net"] == -8


def test_v1_no_bull_ignores_settlement_v2():
    hands = [THREE, NONE, SIX]
    v2 = ok(record(hands, variant={"v1_no_bull_pays": "banker_value"}, stakes=[None, 2, 1]))
    assert nets(v2) == [1, -2, 1]  # v2: stakes once each way; the v1 key changes nothing


@pytest.mark.parametrize("banker_hand,player_hand,expected", [
    (THREE, SIX, 5),     # both bulls, 6 > 3
    (SIX, THREE, -5),    # both bulls, 3 < 6
    (SIX, SIX_B, 0),     # equal values: push
    (NONE, ZERO, 5),     # only the player has a bull, worth 0 (TN-6)
    (ZERO, NONE, -5),    # only the banker has a bull, worth 0
    (NONE, NONE_B, 0),   # neither: push
])
def test_v2_settlement(banker_hand, player_hand, expected):
    result = ok(record([banker_hand, player_hand, None], stakes=[None, 5, 1]))
    assert result["seats"][1]["net"] == expected
    assert sum(nets(result)) == 0


def test_transfers_add_up_to_nets():
    result = ok(record([TEN, SIX, NONE, None], variant={"settlement": "v1"}, stakes=[None, 2, 3, 4]))
    per = [0] * 4
    for t in result["transfers"]:
        assert t["amount"] > 0 and t["from"] != t["to"]
        assert 0 in (t["from"], t["to"])  # every player settles with the banker alone
        per[t["from"]] -= t["amount"]
        per[t["to"]] += t["amount"]
    assert per == nets(result)
    assert [s["stake"] for s in result["seats"]] == [None, 2, 3, 4]


# ---------------------------------------------------------------------------------------
# Bank rotation (TN-V2-5)

@pytest.mark.parametrize("rotation,banker_bull,expected", [
    ("on_banker_bull", True, 2), ("on_banker_bull", False, 1),
    ("every_round", True, 2), ("every_round", False, 2),
    ("fixed", True, 1), ("fixed", False, 1),
])
def test_bank_rotation(rotation, banker_bull, expected):
    hands = [SIX, TEN if banker_bull else NONE, None]
    variant = None if rotation == "on_banker_bull" else {"bank_rotation": rotation}
    assert ok(record(hands, banker=1, variant=variant))["next_banker"] == expected
    assert next_banker(1, 3, banker_bull, rotation) == expected


def test_bank_wraps_to_seat_zero():
    result = ok(record([SIX, NONE, TEN], banker=2))
    assert result["banker"] == 2 and result["next_banker"] == 0


# ---------------------------------------------------------------------------------------
# Declarations (TN-7)

ROW4 = "4:2 2:1 4:4 5:5 6:6"
OTHERS = ["6:5 6:5 6:3 6:2 5:3", "6:1 4:3 5:2 4:1 3:2"]


def test_declared_best_bull_gives_no_warning():
    result = ok(record([OTHERS[0], ROW4, OTHERS[1]], declared=[None, {"bull": ["5:5", "6:6", "4:4"]}, None]))
    assert result["warnings"] == []
    assert result["seats"][1]["bull"] == ["5:5", "6:6", "4:4"] and result["seats"][1]["value"] == 9


def test_declared_mistake_bull_stands_with_a_warning():
    result = ok(record([OTHERS[0], ROW4, OTHERS[1]], declared=[None, {"bull": ["[2:4]", "1:2", "4:4"]}, None]))
    seat = result["seats"][1]
    assert (seat["bull"], seat["value"], seat["best_value"]) == (["4:2", "2:1", "4:4"], 2, 9)
    assert [(w["path"], w["code"]) for w in result["warnings"]] == [("declared[1].bull", "suboptimal")]
    # Settled on the declared value: banker [6:5][6:5][6:2] -> [6:3][5:3] = 17 -> 7 beats 2.
    assert seat["net"] == -1


def test_declared_bull_must_be_in_the_hand():
    assert ("declared[1].bull[2]", "not_in_hand") in errors(
        record([OTHERS[0], ROW4, OTHERS[1]], declared=[None, {"bull": ["6:6", "5:5", "3:3"]}, None]))
    # Two copies declared, one held.
    assert ("declared[1].bull[1]", "not_in_hand") in errors(
        record([OTHERS[0], ROW4, OTHERS[1]], declared=[None, {"bull": ["5:5", "5:5", "6:6"]}, None]))


def test_declared_tiles_must_be_a_bull():
    assert ("declared[1].bull", "not_a_bull") in errors(
        record([OTHERS[0], ROW4, OTHERS[1]], declared=[None, {"bull": ["6:6", "5:5", "2:1"]}, None]))


@pytest.mark.parametrize("bad,path,code", [
    ("bull", "declared[1]", "bad_type"),
    ({}, "declared[1].bull", "missing_field"),
    ({"bull": ["6:6", "5:5"]}, "declared[1].bull", "wrong_count"),
    ({"bull": ["6:6", "5:5", "7:7"]}, "declared[1].bull[2]", "bad_tile"),
    ({"bull": None, "rest": []}, "declared[1].rest", "unknown_field"),
])
def test_declaration_shape(bad, path, code):
    assert (path, code) in errors(record([OTHERS[0], ROW4, OTHERS[1]], declared=[None, bad, None]))


def test_declared_list_length():
    assert ("declared", "wrong_count") in errors(record([OTHERS[0], ROW4, OTHERS[1]], declared=[None, None]))


def test_declining_a_bull_is_refused_by_default():
    assert ("declared[1].bull", "bull_exists") in errors(
        record([OTHERS[0], ROW4, OTHERS[1]], declared=[None, {"bull": None}, None]))


def test_declaring_no_bull_without_one_is_fine():
    result = ok(record([OTHERS[0], OTHERS[1], ROW4], declared=[None, {"bull": None}, None]))
    assert result["warnings"] == [] and result["seats"][1]["bull"] is None


def test_declining_with_the_variant_stands_with_a_warning():
    result = ok(record([OTHERS[0], ROW4, OTHERS[1]], declared=[None, {"bull": None}, None],
                       variant={"may_decline_bull": True}))
    seat = result["seats"][1]
    assert seat["bull"] is None and seat["value"] == 0 and seat["best_value"] == 9
    assert [w["code"] for w in result["warnings"]] == ["suboptimal"]
    assert seat["net"] == -1  # the banker's bull beats no bull


def test_banker_who_declines_counts_as_no_bull():
    hands = [TEN, SIX, NONE]  # the banker's best is 10
    plain = ok(record(hands, variant={"settlement": "v1"}))
    declined = ok(record(hands, variant={"settlement": "v1", "may_decline_bull": True},
                         declared=[{"bull": None}, None, None]))
    assert plain["next_banker"] == 1 and declined["next_banker"] == 0
    assert nets(plain) == [8, -4, -4]
    assert nets(declined) == [-2, 6, -4]  # the player's 6 is paid against 0; no bull still pays 4


def test_declaring_a_bull_worth_zero_under_v2_is_suboptimal_only_if_better_exists():
    hand = "6:6 4:4 6:4 5:5 5:5"  # every bull leaves 0 under v2
    result = ok(record([OTHERS[0], hand, OTHERS[1]], declared=[None, {"bull": ["5:5", "5:5", "6:4"]}, None]))
    assert result["warnings"] == [] and result["seats"][1]["value"] == 0


# ---------------------------------------------------------------------------------------
# Record checks

GOOD = ["6:6 4:4 6:4 5:5 3:1", "2:2 5:1 5:5 6:6 3:1", "6:1 4:1 4:3 6:5 5:2"]


@pytest.mark.parametrize("change,path,code", [
    ({"seats": ["A", "B"]}, "seats", "wrong_player_count"),
    ({"seats": list("ABCDEFG")}, "seats", "wrong_player_count"),
    ({"banker": 3}, "banker", "bad_banker"),
    ({"banker": -1}, "banker", "bad_banker"),
    ({"banker": "0"}, "banker", "bad_banker"),
    ({"banker": True}, "banker", "bad_banker"),
    ({"stakes": [None, 0, 5]}, "stakes[1]", "bad_stake"),
    ({"stakes": [None, 2.5, 5]}, "stakes[1]", "bad_stake"),
    ({"stakes": [None, None, 5]}, "stakes[1]", "bad_stake"),
    ({"stakes": [1, 2, 5]}, "stakes[0]", "banker_stake"),
    ({"stakes": [None, 2]}, "stakes", "wrong_count"),
    ({"stakes": [None, 10**7, 1]}, "stakes[1]", "bad_stake"),
    ({"bet": 2}, "bet", "bet_needs_v1"),
    ({"hands": GOOD[:2]}, "hands", "wrong_count"),
    ({"hands": [GOOD[0], GOOD[1] + " 1:1", GOOD[2]]}, "hands[1]", "wrong_count"),
    ({"hands": [GOOD[0], "2:2 5:1 5:5 6:6 0:1", GOOD[2]]}, "hands[1][4]", "bad_tile"),
    ({"hands": [GOOD[0], "2:2 5:1 5:5 6:6 6:6", GOOD[2]]}, "hands[1][4]", "too_many_copies"),
    ({"hands": [GOOD[0], GOOD[1], "6:1 4:1 4:3 6:5 4:3"]}, "hands[2][4]", "too_many_copies"),
    ({"hands": "all"}, "hands", "bad_type"),
])
def test_record_errors(change, path, code):
    rec = record(GOOD, stakes=[None, 2, 5])
    rec.update(change)
    if isinstance(rec["hands"], list):
        rec["hands"] = [h.split() if isinstance(h, str) else h for h in rec["hands"]]
    assert (path, code) in errors(rec)


def test_missing_fields():
    rec = {"game": "tau_ngau", "seats": ["A", "B", "C"]}
    # Neither hands nor values (§3b): the level is missing, not the hands.
    assert {("banker", "missing_field"), ("stakes", "missing_field"), ("", "missing_level")} <= errors(rec)


def test_stakes_and_bet_together():
    rec = record(GOOD, stakes=[None, 2, 5], bet=2, variant={"settlement": "v1"})
    assert ("bet", "stakes_and_bet") in errors(rec)


def test_bad_bet():
    rec = record(GOOD, variant={"settlement": "v1"}, bet=0)
    assert ("bet", "bad_stake") in errors(rec)


def test_six_seats_use_30_tiles():
    hands = ["6:6 6:6 5:5 5:5 4:4", "4:4 3:3 3:3 2:2 2:2", "1:1 1:1 6:5 6:5 6:4",
             "6:4 6:1 6:1 5:1 5:1", "3:1 3:1 6:3 5:4 6:2", "5:3 5:2 4:3 4:1 3:2"]
    result = ok(record(hands, banker=5))
    assert len(result["seats"]) == 6 and sum(nets(result)) == 0


# ---------------------------------------------------------------------------------------
# Properties over random deals

VARIANTS = st.fixed_dictionaries({}, optional={
    "settlement": st.sampled_from(["v1", "v2"]),
    "v1_no_bull_pays": st.sampled_from(["four", "banker_value"]),
    "bank_rotation": st.sampled_from(["on_banker_bull", "every_round", "fixed"]),
    "may_decline_bull": st.booleans(),
})


@st.composite
def deals(draw):
    n = draw(st.integers(3, 6))
    deck = draw(st.permutations(DECK_LIST))
    hands = [deck[5 * i:5 * i + 5] for i in range(n)]
    banker = draw(st.integers(0, n - 1))
    stakes = [None if s == banker else draw(st.integers(1, 20)) for s in range(n)]
    return record(hands, banker=banker, stakes=stakes, variant=draw(VARIANTS))


@settings(max_examples=300, deadline=None)
@given(deals())
def test_nets_sum_to_zero(rec):
    result = ok(rec)
    assert sum(nets(result)) == 0
    for seat in result["seats"]:
        assert seat["value"] == seat["best_value"]
        assert 0 <= seat["value"] <= 10


@settings(max_examples=300, deadline=None)
@given(deals(), st.data())
def test_best_value_is_at_least_any_valid_declaration(rec, data):
    """Declare a random 3-subset of each hand (or no bull); whatever the engine accepts is never
    worth more than best_value, and anything worth less carries a warning."""
    declared = []
    for hand in rec["hands"]:
        if data.draw(st.booleans()):
            declared.append({"bull": None})
        else:
            trio = data.draw(st.lists(st.integers(0, 4), min_size=3, max_size=3, unique=True))
            declared.append({"bull": [hand[i] for i in trio]})
    rec = {**rec, "declared": declared}
    result = evaluate(rec)
    if not result["ok"]:
        assert {e["code"] for e in result["errors"]} <= {"not_a_bull", "bull_exists"}
        return
    flagged = {w["path"] for w in result["warnings"]}
    assert sum(nets(result)) == 0
    for i, seat in enumerate(result["seats"]):
        assert seat["value"] <= seat["best_value"]
        assert (seat["value"] < seat["best_value"] or (seat["bull"] is None and hand_value(
            [parse_tile(t) for t in rec["hands"][i]]).has_bull)) == (f"declared[{i}].bull" in flagged)
