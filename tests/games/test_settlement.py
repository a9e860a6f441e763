"""Shared settlement helpers (games/settlement.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.settlement import (
    difference_transfers,
    nets_from_transfers,
    pay,
    places_ding_niu,
    places_lower_hand,
    winner_of,
)


def test_pay_skips_zero_and_self():
    t: list = []
    pay(t, 0, 1, 0)
    pay(t, 2, 2, 5)
    pay(t, 1, 0, -3)
    assert t == []
    pay(t, 1, 0, 3)
    assert t == [{"from": 1, "to": 0, "amount": 3}]


def test_house_payments_only_reduce_the_payer():
    t = [{"from": 0, "to": 1, "amount": 5}, {"from": 1, "to": None, "amount": 1}]
    assert nets_from_transfers(2, t) == [-5, 4]


def test_jl4_differences():
    points = [2, 12, 34, 18]
    nets = nets_from_transfers(4, difference_transfers(points))
    assert nets == [58, 18, -70, -6]
    assert nets == [sum(points) - 4 * p for p in points]


def test_jl5_ties_move_nothing():
    t = difference_transfers([12, 12, 34, 18])
    assert not any({x["from"], x["to"]} == {0, 1} for x in t)
    assert nets_from_transfers(4, t) == [28, 28, -60, 4]


def test_difference_factor_applies_per_pair():
    t = difference_transfers([0, 10], factor=lambda payer, receiver: 4)
    assert t == [{"from": 1, "to": 0, "amount": 40}]


@given(st.lists(st.integers(0, 200), min_size=2, max_size=6))
def test_differences_sum_to_zero_and_match_formula(points):
    n = len(points)
    nets = nets_from_transfers(n, difference_transfers(points))
    assert sum(nets) == 0
    assert nets == [sum(points) - n * p for p in points]


@pytest.mark.parametrize("points,places", [
    ([2, 12, 34, 18], [1, 2, 4, 3]),
    ([12, 12, 34, 18], [1, 2, 4, 3]),
    ([5, 5, 5, 5], [1, 2, 3, 4]),
])
def test_places_lower_hand(points, places):
    assert places_lower_hand(points) == places
    assert winner_of(places) == places.index(1)


@pytest.mark.parametrize("points,places", [
    ([10, 6, 6, 10], [4, 1, 2, 3]),   # DN-6: Boris +6, Valentine 2nd, George 3rd, Adam 4th
    ([10, 15, 15, 10], [1, 4, 3, 2]),  # DN-7
    ([6, 6, 6, 9], [1, 3, 2, 4]),      # DN-8
    ([7, 7, 7, 7], [1, 4, 3, 2]),      # DN-8, all equal
])
def test_places_ding_niu(points, places):
    assert places_ding_niu(points) == places


# --- deal_balance: the zero-sum rule audits check stored results against ----------------------

def test_deal_balance_of_a_settled_deal_is_zero():
    from games import deal_balance, evaluate

    result = evaluate({"game": "jie_long", "seats": ["A", "B", "C", "D"], "points": [2, 12, 34, 18]})
    assert deal_balance(result) == 0
    assert deal_balance({"seats": [{"net": 5}, {"net": -3}]}) == 2


def test_deal_balance_counts_what_the_house_took():
    from games import deal_balance, evaluate

    from .test_da_ling import EX1, record

    result = evaluate(record(*EX1, variant={"casino_chip": True}))
    assert result["house"] == 1 and sum(s["net"] for s in result["seats"]) == -1
    assert deal_balance(result) == 0
    assert deal_balance({**result, "house": 0}) == -1


@pytest.mark.parametrize("result", [{}, {"seats": "x"}, {"seats": [{"net": "5"}]}, {"seats": [{"net": True}]},
                                    {"seats": [7]}, {"seats": [{"net": 1}], "house": 1.5}, [], None])
def test_deal_balance_refuses_unreadable_nets(result):
    from games import deal_balance

    with pytest.raises(ValueError):
        deal_balance(result)
