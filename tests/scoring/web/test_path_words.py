"""An engine error's path in words: seats by name, indexes counted from 1, the nearest known
part for a path these words do not know, never the raw path."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

import games
from scoring.web.path_words import FIELDS, OF_SEAT, path_words, with_words

NAMES = ["Anna", "Bob", "Celine", "Dominic"]


@pytest.mark.parametrize("path, words", [
    ("declared[0].bull", "the declared bull of Anna"),
    ("declared[2].bull[1]", "tile 2 of the declared bull of Celine"),
    ("declared[1]", "the declaration of Bob"),
    ("declared[1].colour", "the declaration of Bob"),
    ("unplayed_tiles[1][0]", "tile 1 of the tiles Bob did not play face up"),
    ("left_in_hand[3]", "the tiles Dominic kept in hand"),
    ("hands[0][4]", "tile 5 of the hand of Anna"),
    ("groups[1][2][0]", "tile 1 of group 3 of Bob"),
    ("points[2]", "the points of Celine"),
    ("points", "the points"),
    ("points[9]", "the points of seat 10"),
    ("stakes[3]", "the stake of Dominic"),
    ("seats[1]", "the name of Bob"),
    ("moves[3]", "move 4"), ("moves[3].to", "the end named in move 4"), ("moves[0].play", "the tile of move 1"),
    ("winners.groups[1]", "the winner of group 2"), ("winners.absolute", "the absolute winner"),
    ("suanzhang.seat", "the SuanZhang's seat"), ("suanzhang.blamed", "whether the SuanZhang is blamed"),
    ("table[1]", "tile 2 of the tiles on the table"), ("variant.settlement", "the rule option settlement"),
    ("banker", "the banker"), ("nonsense[3]", "the record"), ("", ""),
])
def test_a_path_in_words(path, words):
    assert path_words(path, NAMES) == words


def test_seats_without_names_are_numbered_or_winds():
    assert path_words("points[1]", ["", "", "", ""]) == "the points of seat South"
    assert path_words("points[1]", []) == "the points of seat 2"


def test_every_field_of_every_game_has_words():
    fields = {f for g in games.CATALOG.values() for f in g.fields}
    assert fields <= set(FIELDS)
    assert {f for g in games.CATALOG.values() for f in g.per_seat_fields} <= set(OF_SEAT)


def test_the_words_are_translated_and_keep_no_raw_path():
    with translation.override("zh-hans"):
        said = path_words("declared[0].bull", ["Anna"])
    assert "Anna" in said and not re.search(r"[A-Za-z]{3,}", said.replace("Anna", ""))
    problems = with_words([{"path": "unplayed_tiles[1][0]", "code": "bad_tile", "message": "…"}], NAMES)
    assert problems[0]["path"] == "unplayed_tiles[1][0]"  # the path itself stays for tools
    assert not re.search(r"\w+\[\d+\]", problems[0]["where"])
