"""A full log laid out for the replay: the line left to right, each tile as it lies with its
joined pip touching its neighbour, doubles marked to lie across."""

from __future__ import annotations

import pytest

from scoring.domain.replay import line_steps

from ..bodies import DING_NIU_FULL_LOG

SEATS = ["Adam", "Boris", "Valentine", "George"]


def _touching(line: list[dict]) -> bool:
    pips = [tuple(map(int, t["tile"].split(":"))) for t in line]
    return all(a[1] == b[0] for a, b in zip(pips, pips[1:]))


def test_a_two_armed_layout_lies_with_matching_halves_touching():
    laid = line_steps({"seats": SEATS, "moves": DING_NIU_FULL_LOG["moves"]})
    assert [(t["step"], t["tile"], t["across"]) for t in laid["line"]] == [
        (2, "4:6", False), (1, "6:4", False), (5, "4:4", True), (6, "4:4", True)]
    assert _touching(laid["line"])
    assert [m["kind"] for m in laid["moves"][:3]] == ["lead", "play", "pass"]


@pytest.mark.parametrize("moves, line", [
    # A single arm: the lead's open pip on the right, every tile joining it there.
    ([{"play": "6:4", "open": 4}, {"play": "4:2"}, {"play": "2:2"}], ["6:4", "4:2", "2:2"]),
    ([{"play": "6:4", "open": 6}, {"play": "6:5"}, {"pass": "1:1"}, {"play": "5:5"}], ["4:6", "6:5", "5:5"]),
    # Two arms: a tile named to the left end goes on the left, turned to touch it.
    ([{"play": "5:3"}, {"play": "5:1", "to": 5}, {"play": "3:3"}], ["1:5", "5:3", "3:3"]),
])
def test_each_tile_is_turned_the_way_it_was_played(moves, line):
    laid = line_steps({"seats": ["A", "B", "C"], "moves": moves})
    assert [t["tile"] for t in laid["line"]] == line
    assert _touching(laid["line"])
    assert [t["across"] for t in laid["line"]] == [a == b for a, b in (t.split(":") for t in line)]


def test_no_moves_no_replay():
    assert line_steps({"seats": SEATS, "points": [1, 2, 3, 4]}) is None
