"""Tiles: parsing, output form, pips, wild choices, colours (RULES.md §0.2, §1.2)."""

import pytest

from games.tiles import (
    ALL_TILES,
    CIVIL,
    MILITARY,
    RED_BLACK,
    WILD,
    is_double,
    make_tile,
    parse_tile,
    pip_choices,
    pips,
    red_black,
    tile_str,
)


def test_21_distinct_tiles_high_first_no_blanks():
    assert len(ALL_TILES) == len(set(ALL_TILES)) == 21
    assert all(6 >= a >= b >= 1 for a, b in ALL_TILES)


def test_civil_and_military_split_the_set():
    assert len(CIVIL) == 11 and len(MILITARY) == 10
    assert CIVIL | MILITARY == set(ALL_TILES)
    assert {(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)} <= CIVIL
    assert {(3, 1), (6, 5), (6, 4), (6, 1), (5, 1)} <= CIVIL
    assert {(4, 2), (2, 1), (6, 3), (5, 4)} <= MILITARY


@pytest.mark.parametrize("text,tile", [
    ("6:4", (6, 4)), ("4:6", (6, 4)), ("[3:1]", (3, 1)), ("[1:3]", (3, 1)), ("5:5", (5, 5)),
])
def test_parse_accepts_both_orders_and_brackets(text, tile):
    assert parse_tile(text) == tile


@pytest.mark.parametrize("bad", ["7:1", "0:3", "6-4", "64", "6:4:", "", " 6:4", "[6:4", "6:44", None, 64,
                                 ["6", "4"], (6, 4), "６:4", "6:4\n"])
def test_parse_refuses_everything_else(bad):
    assert parse_tile(bad) is None


def test_output_is_high_first_without_brackets():
    assert tile_str(make_tile(1, 3)) == "3:1"
    assert tile_str((6, 6)) == "6:6"
    assert all(parse_tile(tile_str(t)) == t for t in ALL_TILES)


def test_pips_and_doubles():
    assert pips((6, 5)) == 11
    assert is_double((4, 4)) and not is_double((4, 2))


def test_only_4_2_and_2_1_are_wild():
    assert WILD == {(4, 2), (2, 1)}
    assert pip_choices((4, 2)) == (3, 6)
    assert pip_choices((2, 1)) == (3, 6)
    assert pip_choices((6, 3)) == (9,)


# RULES.md §1.2.2, transcribed row by row.
COLOURS = {
    "1:1": (2, 0), "2:1": (1, 2), "3:1": (1, 3), "4:1": (5, 0), "5:1": (1, 5), "6:1": (1, 6),
    "4:3": (4, 3), "2:2": (0, 4), "3:2": (0, 5), "4:2": (4, 2), "5:2": (0, 7), "6:2": (0, 8),
    "3:3": (0, 6), "5:3": (0, 8), "4:4": (8, 0), "5:4": (4, 5), "6:4": (4, 6), "5:5": (0, 10),
    "6:5": (0, 11), "6:6": (6, 6), "6:3": (0, 9),
}


@pytest.mark.parametrize("text", sorted(COLOURS))
def test_red_black_table(text):
    tile = parse_tile(text)
    assert red_black(tile) == RED_BLACK[tile] == COLOURS[text]


def test_red_black_covers_every_tile_and_adds_up():
    assert set(RED_BLACK) == set(ALL_TILES)
    # Each half is red or black, and [6:6] splits as 6 red + 6 black, so the two always add up.
    assert all(sum(RED_BLACK[t]) == pips(t) for t in ALL_TILES)
