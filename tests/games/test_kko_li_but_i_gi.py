"""Kko-li-but-i-gi (games/kko_li_but_i_gi.py; RULES.md §5): the settlements, ties, the over-30
rule, the reduced deck and full logs."""

from __future__ import annotations

import pytest

from games.kko_li_but_i_gi import kko_li_payers
from games.simulate import simulate

from .helpers import error_at, ok
from .helpers import nets_by_name as nets

FOUR = ["Anna", "Bob", "Celine", "Dominic"]


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
