"""Where in a deal an engine error or warning points, in words for a person: the record path
``declared[0].bull`` reads "the declared bull of Anna", ``unplayed_tiles[1][0]`` "tile 1 of
the tiles Bob did not play face up", ``moves[3].to`` "the end named in move 4".

The path stays what it is in the API's answers (clients key on it); pages show these words
instead, never the raw path. A path's first index into a per-seat field is a seat: its name
from ``names`` (the record's seats, or the table's by position for a body's paths), else the
seat's number. A path these words do not know falls back to the nearest part they do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.web.presentation import seat_name

_HEAD = re.compile(r"\A([A-Za-z_]\w*)")
_STEP = re.compile(r"\.([A-Za-z_]\w*)|\[([0-9]+)\]")

#: A field as a whole.
FIELDS = {
    "points": gettext_lazy("the points"), "unplayed": gettext_lazy("the counts of unplayed tiles"),
    "unplayed_tiles": gettext_lazy("the tiles not played face up"),
    "left_in_hand": gettext_lazy("the tiles kept in hand"), "hands": gettext_lazy("the hands"),
    "groups": gettext_lazy("the groups"), "declared": gettext_lazy("the declared bulls"),
    "stakes": gettext_lazy("the stakes"), "values": gettext_lazy("the values"),
    "seats": gettext_lazy("the players' names"), "moves": gettext_lazy("the moves"),
    "banker": gettext_lazy("the banker"), "leader": gettext_lazy("who leads"), "bet": gettext_lazy("the bet"),
    "redeal": gettext_lazy("the redeal"), "suanzhang": gettext_lazy("the SuanZhang"),
    "table": gettext_lazy("the tiles on the table"), "winners": gettext_lazy("the winners"),
    "variant": gettext_lazy("the rule options"), "game": gettext_lazy("the game"),
    "format": gettext_lazy("the record's format"), "entered_by": gettext_lazy("who entered the deal"),
    "level": gettext_lazy("the level of detail"),
}

#: A per-seat field's entry for one seat (``%(name)s``).
OF_SEAT = {
    "points": gettext_lazy("the points of %(name)s"),
    "unplayed": gettext_lazy("the count of unplayed tiles of %(name)s"),
    "unplayed_tiles": gettext_lazy("the tiles %(name)s did not play face up"),
    "left_in_hand": gettext_lazy("the tiles %(name)s kept in hand"),
    "hands": gettext_lazy("the hand of %(name)s"), "groups": gettext_lazy("the groups of %(name)s"),
    "declared": gettext_lazy("the declaration of %(name)s"), "stakes": gettext_lazy("the stake of %(name)s"),
    "values": gettext_lazy("the value of %(name)s"), "seats": gettext_lazy("the name of %(name)s"),
}


def _seat(i: int, names: Sequence) -> str:
    name = names[i] if 0 <= i < len(names) else None
    return name if isinstance(name, str) and name.strip() else seat_name(i, len(names))


def _steps(rest: str) -> list[str | int]:
    """``[0].bull[2]`` → ``[0, "bull", 2]``; stops at the first part it cannot read."""
    out: list[str | int] = []
    at = 0
    while at < len(rest):
        m = _STEP.match(rest, at)
        if m is None:
            break
        out.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        at = m.end()
    return out


def _tile(k: object, what: str) -> str:
    return _("tile %(n)s of %(what)s") % {"n": k + 1, "what": what} if isinstance(k, int) else what


def _seat_field(field: str, steps: list, names: Sequence) -> str:
    """A per-seat field, ``steps`` after its seat index."""
    i = steps[0]
    name = _seat(i, names)
    rest = steps[1:]
    if field == "declared" and rest[:1] == ["bull"]:
        return _tile(rest[1] if len(rest) > 1 else None, _("the declared bull of %(name)s") % {"name": name})
    if field == "groups" and rest and isinstance(rest[0], int):
        group = _("group %(n)s of %(name)s") % {"n": rest[0] + 1, "name": name}
        return _tile(rest[1] if len(rest) > 1 else None, group)
    words = str(OF_SEAT[field]) % {"name": name}
    return _tile(rest[0], words) if rest and field in ("unplayed_tiles", "left_in_hand", "hands") else words


def _move(steps: list) -> str:
    n = steps[0] + 1
    if steps[1:2] == ["to"]:
        return _("the end named in move %(n)s") % {"n": n}
    if steps[1:2] in (["play"], ["pass"]):
        return _("the tile of move %(n)s") % {"n": n}
    return _("move %(n)s") % {"n": n}


def _winners(steps: list) -> str:
    if steps[:1] == ["absolute"]:
        return _("the absolute winner")
    if steps[:1] == ["groups"]:
        if len(steps) > 1 and isinstance(steps[1], int):
            return _("the winner of group %(n)s") % {"n": steps[1] + 1}
        return _("the group winners")
    return str(FIELDS["winners"])


def _suanzhang(steps: list) -> str:
    if steps[:1] == ["seat"]:
        return _("the SuanZhang's seat")
    if steps[:1] == ["blamed"]:
        return _("whether the SuanZhang is blamed")
    return str(FIELDS["suanzhang"])


def path_words(path: object, names: Sequence | None = None) -> str:
    """``path`` (an engine error's, in a record or a body) in words; "" for no path."""
    if not isinstance(path, str) or not path:
        return ""
    names = list(names or [])
    m = _HEAD.match(path)
    field = m.group(1) if m else ""
    if field not in FIELDS:
        return _("the record")
    steps = _steps(path[m.end():])
    first = steps[0] if steps else None
    if field in OF_SEAT and isinstance(first, int):
        return _seat_field(field, steps, names)
    if field == "moves" and isinstance(first, int):
        return _move(steps)
    if field == "winners":
        return _winners(steps)
    if field == "suanzhang":
        return _suanzhang(steps)
    if field == "table" and isinstance(first, int):
        return _tile(first, str(FIELDS["table"]))
    if field == "variant" and isinstance(first, str):
        return _("the rule option %(key)s") % {"key": first}
    return str(FIELDS[field])


def with_words(problems, names: Sequence | None = None) -> list:
    """Engine errors or warnings, each with ``where``: its path in words (``path_words``)."""
    return [{**p, "where": path_words(p.get("path"), names)} if isinstance(p, dict) else p
            for p in problems or []]
