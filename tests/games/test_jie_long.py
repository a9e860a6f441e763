"""Jie Long (games/jie_long.py; RULES.md §3): differences, ties, the chip variant and full logs."""

from __future__ import annotations

import pytest

from games.simulate import simulate

from .helpers import error_at, ok
from .helpers import nets_by_name as nets

FOUR = ["Anna", "Bob", "Celine", "Dominic"]


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
