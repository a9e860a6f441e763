"""Where on the deal form an error of the engine or a service belongs: a body-relative error
path (``points[2]``, ``unplayed_tiles[1][0]``, ``leader``) → the name of the form input.

The games name their inputs alike (``hand_2`` is always ``hands[2]``), so one table, built
from every game's form in the catalog (``games.entry``), serves them all.
"""

from __future__ import annotations

import re

import games
from games.entry import Input, Winner

# ASCII digits: the paths are the engine's, never typed.
_PATH = re.compile(r"^([a-z_]+)(?:\[([0-9]+)\])?(?:\[([0-9]+)\])?(?:\[([0-9]+)\])?(?:\.([a-z_]+))?")

#: Inside an object of winners: ``.groups[2]`` (the key, and the place in its list).
_KEY = re.compile(r"^\.([a-z_]+)(?:\[([0-9]+)\])?")

#: The "input" of an error that belongs to no input: shown above the seats.
NON_FIELD = "__all__"


def _inputs_by_field() -> dict[str, list[Input]]:
    """Body field → the inputs its errors belong at, from every game's form. The games name
    their inputs alike (``hand_2`` is always ``hands[2]``), so one table serves them all."""
    table: dict[str, list[Input]] = {}
    for game in games.CATALOG.values():
        for inp in game.entry.inputs:
            for name in (inp.fills, *inp.also):
                found = table.setdefault(name, [])
                if all(other.name != inp.name for other in found):
                    found.append(inp)
    return table


_INPUTS_BY_FIELD = _inputs_by_field()
#: Inputs of every form, beside the games' own.
_FORM_INPUTS = ("entered_by", "level")


def field_for_path(path: str, game: str) -> str:
    """The form input a body-relative error path points at (``NON_FIELD`` when none does).

    A path into a per-seat list names that seat's input (``points[2]`` → ``points_2``); a path
    to the whole list keeps the list's name (``points``), shown above the seats. Every game
    names its inputs alike, so the path alone decides; an input the ``game``'s form lacks ends
    up above the seats too (``DealForm.section_errors``)."""
    if not path:
        return NON_FIELD
    m = _PATH.match(path)
    if not m:
        return NON_FIELD
    key, i, j = m.group(1), m.group(2), m.group(3)
    if key in _FORM_INPUTS:
        return key
    inputs = _INPUTS_BY_FIELD.get(key)
    if not inputs:
        return NON_FIELD
    inp = inputs[0]
    if isinstance(inp, Winner):  # winners.groups[1]: the input of that key (and place in its list)
        return _winner_input(path[len(key):], inputs)
    if not inp.per_seat:
        return inp.name
    if i is None:
        return inp.fills
    if j is not None and inp.part is not None:  # groups[1][2]: the seat's third group
        inp = next((x for x in inputs if x.part == int(j)), None)
        if inp is None:
            return NON_FIELD
    return f"{inp.name}_{i}"


def _winner_input(rest: str, inputs: list[Input]) -> str:
    """The input an error inside an object of winners belongs at (``.absolute``,
    ``.groups[2]``); the object or a whole list is shown above the seats."""
    m = _KEY.match(rest)
    if not m:
        return NON_FIELD
    key, part = m.group(1), m.group(2)
    for inp in inputs:
        if isinstance(inp, Winner) and inp.key == key and (inp.part is None or str(inp.part) == part):
            return inp.name
    return NON_FIELD
