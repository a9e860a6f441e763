"""The scorer's deal form as data (games/entry.py): which seats it must ask for a number."""

from __future__ import annotations

from games import get_game


def stake():
    return next(inp for inp in get_game("tau_ngau").entry.inputs if inp.name == "stake")


def test_the_seat_the_bank_has_just_left_needs_a_stake():
    v2 = {"settlement": "v2"}
    assert stake().seats_needing(0, 1, v2) == (0,)  # the bank moved from seat 0 to seat 1
    assert stake().seats_needing(2, None, {}) == (2,)  # whichever seat holds it now
    assert stake().seats_needing(1, 1, v2) == ()  # the bank stayed: every stake is kept on the phone
    assert stake().seats_needing(None, 0, v2) == ()  # the table's first deal
    assert stake().left_behind


def test_no_stake_is_needed_where_one_bet_may_stand_for_the_stakes():
    assert stake().seats_needing(0, 1, {"settlement": "v1"}) == ()  # TN-3 v1: the stakes may be left out


def test_other_numbers_never_need_a_seat_the_choice_left():
    points = next(inp for inp in get_game("jie_long").entry.inputs if inp.name == "points")
    assert points.seats_needing(0, 1, {}) == ()
