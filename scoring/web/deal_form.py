"""The deal form of the scorer and director pages: typed form fields → a round BODY, and back.

A body is what ``scoring.domain.records.round_build_record`` reads: the round record without game, variant
and seats, per-seat lists by **table position**, plus ``leader`` / ``banker`` / ``entered_by``.
This module only reshapes text; the rules (is 7:1 a tile, can a seat have 5 points, ...) are
the engine's, reached through ``scoring.domain.records.round_preview`` and friends. Their error paths
(``points[2]``, ``unplayed_tiles[1][0]``, ``leader``) are mapped back to the inputs by
``scoring.web.deal_paths``; the typed text of tiles and moves is read by ``scoring.web.deal_text``,
and the inputs tapped among buttons (a seat's value, a winner) by ``scoring.web.deal_inputs``.

Everything is plain data: the inputs of each game come from its description in the catalog
(``games.get_game(game).entry``, see games/entry.py), and ``DealForm.context()`` gives the
template ready-made field dicts (name, label, kind, value, options, errors), so neither this
module nor the template knows any game by name.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext, gettext_noop

import games
from games.entry import Declared, Input, Mark, Moves, Numbers, SeatChoice, SeatValue, Tiles, Winner
from scoring.domain.inputs import MAX_TYPED, parse_whole_number
from scoring.web import deal_inputs
from scoring.web.deal_paths import field_for_path
from scoring.web.deal_text import declared_text, moves_text, parse_declared, parse_moves, parse_tiles, tiles_text
from scoring.web.rule_messages import translate_message

#: The form's words that games.catalog builds with a number in them, as they read (gettext
#: finds them as they are; makemessages finds them here).
CATALOG_WORDS = (gettext_noop("Hand (5 tiles)"), gettext_noop("Table tiles (2)"), gettext_noop("1 tile"),
                 gettext_noop("2 tiles"), gettext_noop("3 tiles"),
                 gettext_noop("Ce Deng needs each seat's count of unplayed tiles."))

MAX_TEXT = 200
#: A move log is one line for the whole deal: up to 32 moves of about 7 characters.
MAX_MOVES_TEXT = 1000


def _int_or_error(raw: str) -> tuple[int | None, str | None]:
    if (raw or "").strip() == "":
        return None, None
    value = parse_whole_number(raw, low=-MAX_TYPED, high=MAX_TYPED, signed=True)  # the engine says its range
    if value is None:
        return None, gettext("Enter a whole number.")
    return value, None


def _seat_value(raw: Any, n: int) -> int | None:
    return parse_whole_number(raw, low=0, high=n - 1)


# ---------------------------------------------------------------------------------------------
# The form

class DealForm:
    """One deal's inputs at one table.

    ``seats``: the table's seats by position (``Seat`` objects or dicts with ``position`` and
    ``name``). ``data``: a POST (QueryDict or dict) — or None with ``initial`` (a body, e.g.
    the current revision's, or defaults like ``{"leader": 2}``) to pre-fill the form.
    ``previous``: the seat choices of the table's last deal (``{"banker": 1}``), when known.
    ``level``: the level a fresh form starts on (the tournament's), else the game's first.
    """

    def __init__(self, *, game: str, variant: dict, seats: list, data: Any = None,
                 initial: dict | None = None, require_entered_by: bool = True, previous: dict | None = None,
                 level: str = ""):
        self.game = game
        self.spec = games.get_game(game)
        self.entry = self.spec.entry
        self.variant = variant or {}
        #: The rules as played (the options left out at their defaults): what a value's range follows.
        self.full_variant = {**self.spec.variant_defaults(), **self.variant}
        self.connecting = self.spec.connecting
        self.names = [s.entry.player.name if hasattr(s, "entry") else s["name"] for s in seats]
        self.n = len(self.names)
        self.require_entered_by = require_entered_by
        self.previous = previous or {}
        self.errors: dict[str, list[str]] = {}
        self.values: dict[str, str] = {}
        self.note = ""
        if data is not None:
            long = {inp.name for inp in self.entry.inputs if isinstance(inp, Moves)}
            self.values = {k: (data.get(k) or "")[:MAX_MOVES_TEXT if k in long else MAX_TEXT]
                           for k in self._field_names()}
        else:
            self.values = self._values_from_body(initial or {}, level)
        levels = self.entry.levels
        if levels and self.values.get("level") not in dict(levels):
            self.values["level"] = levels[0][0]

    # -- names --------------------------------------------------------------------------------
    def _input_names(self, inp: Input) -> list[str]:
        return [f"{inp.name}_{i}" for i in range(self.n)] if inp.per_seat else [inp.name]

    def _field_names(self) -> list[str]:
        names = ["entered_by"]
        if self.entry.levels:
            names.append("level")
        for inp in self.entry.inputs:
            if not isinstance(inp, Mark):
                names += self._input_names(inp)
        return names

    @property
    def level(self) -> str:
        return self.values.get("level", "")

    def _shown(self, inp: Input) -> bool:
        """Whether the input belongs to the chosen level of detail (inputs of no level always do)."""
        return inp.level is None or inp.level == self.level

    # -- body → values ------------------------------------------------------------------------
    def _values_from_body(self, body: dict, start: str = "") -> dict[str, str]:
        v: dict[str, str] = {}

        def put(name, value):
            v[name] = "" if value is None else str(value)

        put("entered_by", body.get("entered_by"))
        n = self.n

        def per_seat(key):
            value = body.get(key)
            return value if isinstance(value, list) and len(value) == n else None

        levels = self.entry.levels
        level = None
        if levels:
            # A body holding the field of a later level is at that level (a level is named
            # after its record field: a correction keeps the deal's level); otherwise at ``start``
            # (a way of entering), else the first.
            level = start if start in dict(self.entry.ways_of_entering()) else levels[0][0]
            for key, _label in levels[1:]:
                if body.get(key) not in (None, False):
                    level = key
            v["level"] = level
        for inp in self.entry.inputs:
            if inp.level is not None and inp.level != level:
                continue
            if isinstance(inp, Mark):
                continue
            if isinstance(inp, (SeatValue, Winner)):
                v.update(deal_inputs.values_from_body(self, inp, body))
            elif isinstance(inp, Moves):
                v[inp.name] = moves_text(body.get(inp.fills))
            elif isinstance(inp, Declared):
                for i, item in enumerate(per_seat(inp.fills) or []):
                    v[f"{inp.name}_{i}"] = declared_text(item)
            elif isinstance(inp, SeatChoice):
                if inp.fills in self.spec.seat_object_fields:
                    obj = body.get(inp.fills)
                    put(inp.name, obj.get("seat") if isinstance(obj, dict) else None)
                else:
                    put(inp.name, body.get(inp.fills, 0 if inp.required else None))
            elif not inp.per_seat:
                v[inp.name] = tiles_text(body.get(inp.fills))
            else:
                for i, item in enumerate(per_seat(inp.fills) or []):
                    if isinstance(inp, Numbers):
                        put(f"{inp.name}_{i}", item)
                    elif inp.part is None:
                        v[f"{inp.name}_{i}"] = tiles_text(item)
                    elif isinstance(item, list) and inp.part < len(item):
                        v[f"{inp.name}_{i}"] = tiles_text(item[inp.part])
        return v

    # -- values → body ------------------------------------------------------------------------
    def add_error(self, field: str, message: str) -> None:
        self.errors.setdefault(field, [])
        if message not in self.errors[field]:
            self.errors[field].append(message)

    def add_service_errors(self, errors: list[dict]) -> None:
        """Errors of a service or the engine (body-relative paths), shown at their inputs."""
        for e in errors:
            # An input this game's form lacks (a SuanZhang outside Ding Niu) is no field here:
            # section_errors() shows its message above the seats.
            # The engine's messages in the page's language (scoring.web.rule_messages).
            message = translate_message(str(e.get("code", "")), e.get("message") or "")
            self.add_error(field_for_path(e.get("path", ""), self.game), message or e.get("code") or gettext("Invalid."))

    def _seat_field(self, name: str, *, required: bool, what: str) -> int | None:
        raw = self.values.get(name, "")
        if raw == "":
            if required:
                self.add_error(name, gettext("Choose %(what)s.") % {"what": gettext(what)})
            return None
        value = _seat_value(raw, self.n)
        if value is None:
            self.add_error(name, gettext("Choose %(what)s.") % {"what": gettext(what)})
        return value

    def body(self) -> dict | None:
        """The body, or None when an input cannot be read (``errors`` says which)."""
        self.errors = {}
        body: dict[str, Any] = {}
        for inp in self.entry.inputs:
            if not self._shown(inp):
                continue
            if isinstance(inp, Mark):
                body[inp.fills] = True
            elif isinstance(inp, Moves):
                body[inp.fills] = parse_moves(self.values.get(inp.name, ""))
            elif isinstance(inp, Declared):
                declared = [parse_declared(self.values.get(f"{inp.name}_{i}", "")) for i in range(self.n)]
                if any(d is not None for d in declared):  # nobody declared: the engine finds the bulls
                    body[inp.fills] = declared
            elif isinstance(inp, SeatChoice):
                self._read_seat_choice(inp, body)
            elif isinstance(inp, SeatValue):
                deal_inputs.read_seat_values(self, inp, body)
            elif isinstance(inp, Winner):
                deal_inputs.read_winner(self, inp, body)
            elif isinstance(inp, Numbers):
                self._read_numbers(inp, body)
            elif not inp.per_seat:
                body[inp.fills] = parse_tiles(self.values.get(inp.name, ""))
            else:
                texts = [parse_tiles(self.values.get(f"{inp.name}_{i}", "")) for i in range(self.n)]
                if inp.omit_empty and not any(texts):
                    continue
                if inp.part is None:
                    body[inp.fills] = texts
                else:  # one group of each seat's list of groups, in the order of the parts
                    rows = body.setdefault(inp.fills, [[] for _ in range(self.n)])
                    for row, tiles in zip(rows, texts):
                        row.append(tiles)
        entered_by = self._seat_field("entered_by", required=self.require_entered_by,
                                      what=gettext_noop("who is entering the deal"))
        if entered_by is not None:
            body["entered_by"] = entered_by
        if self.errors:
            return None
        return body

    def _read_seat_choice(self, inp: SeatChoice, body: dict) -> None:
        if inp.required:
            body[inp.fills] = self._seat_field(inp.name, required=True, what=inp.what)
            return
        if self.values.get(inp.name, "") == "":
            return
        seat = self._seat_field(inp.name, required=False, what=inp.what)
        if seat is not None:
            body[inp.fills] = {"seat": seat} if inp.fills in self.spec.seat_object_fields else seat

    def _read_numbers(self, inp: Numbers, body: dict) -> None:
        skip = body.get(inp.not_for) if inp.not_for else None  # e.g. the banker: no stake
        values: list[int | None] = []
        missing: list[int] = []
        for i in range(self.n):
            name = f"{inp.name}_{i}"
            if inp.not_for and i == skip:
                values.append(None)
                continue
            value, err = _int_or_error(self.values.get(name, ""))
            if not inp.together:
                if err or value is None:
                    self.add_error(name, err or (gettext(inp.missing) if inp.missing else inp.missing))
            else:
                if err:
                    self.add_error(name, err)
                if value is None:
                    missing.append(i)
            values.append(value)
        if inp.together:
            # Every seat that gives one (all but the `not_for` seat, known or not) left it empty.
            none_given = len(missing) == (self.n - 1 if inp.not_for else self.n)
            if none_given and inp.is_optional(self.variant):
                return  # the list is left out
            message = (inp.none_given or inp.missing) if none_given else inp.missing
            for i in missing:
                self.add_error(f"{inp.name}_{i}", gettext(message) if message else message)
        body[inp.fills] = values

    # -- for the template -----------------------------------------------------------------------
    def _seat_options(self, *, blank: str | None = None) -> list[tuple[str, str]]:
        opts = [("", gettext(blank) if blank else blank)] if blank is not None else []
        return opts + [(str(i), f"{i + 1}. {name}") for i, name in enumerate(self.names)]

    def _field(self, name: str, label: str, kind: str = "text", **extra) -> dict:
        # Labels, hints and options come from games.catalog in English, marked for the catalogs.
        if extra.get("placeholder"):
            extra["placeholder"] = gettext(extra["placeholder"])
        if kind == "radio":
            extra["options"] = [(v, gettext(text)) for v, text in extra.get("options", [])]
        return {"name": name, "label": gettext(label) if label else label, "kind": kind,
                "value": self.values.get(name, ""),
                "errors": self.errors.get(name, []), "id": f"f-{name}", **extra}

    def _input_field(self, inp: Input, name: str) -> dict:
        field = self._input_field_of(inp, name)
        if field["label"] and deal_inputs.optional(inp, self.variant):
            field["label"] = gettext("%(label)s (optional)") % {"label": field["label"]}
        return field

    def _input_field_of(self, inp: Input, name: str) -> dict:
        if isinstance(inp, SeatChoice):
            return self._field(name, inp.label, "select", options=self._seat_options(blank=inp.blank))
        extra: dict[str, Any] = {}
        if inp.level is not None:
            extra["level"] = inp.level
        if isinstance(inp, (SeatValue, Winner)):  # a row of buttons, tapped (scoring.web.deal_inputs)
            return self._field(name, inp.label, "choices", **extra, **deal_inputs.choice_extra(self, inp))
        if isinstance(inp, Numbers):
            return self._field(name, inp.label, "number", **extra, **deal_inputs.number_extra(self, inp, name))
        if inp.placeholder:
            extra["placeholder"] = inp.placeholder
        if isinstance(inp, Moves):
            return self._field(name, inp.label, "moves", **extra, maxlength=MAX_MOVES_TEXT)
        # What a tile picker needs: how many tiles the input takes, and (a declared bull)
        # the seat's input its tiles are chosen among.
        if isinstance(inp, Declared):
            extra["source"] = f"{inp.chosen_from}_{name.rpartition('_')[2]}"
            extra["declared"] = True
        extra["count"] = inp.count
        extra["most"] = inp.count or self.deal_size
        return self._field(name, inp.label, "tiles", **extra)

    @property
    def deal_size(self) -> int:
        """Tiles each seat is dealt at this table (0 when the player count has no deal)."""
        deal = self.spec.deals.get(self.n)
        return deal[1] if deal else 0

    def picker(self) -> dict:
        """What the tile picker (static/js/tile-picker.js) reads: the deck of this game and
        player count (tile → copies), the layout's open ends, the seats and the inputs that
        name the seat that leads."""
        deal = self.spec.deals.get(self.n)
        deck = deal[0] if deal else {}
        leader = next((inp.name for inp in self.entry.inputs
                       if isinstance(inp, SeatChoice) and inp.fills == "leader"), "")
        return {"deck": {f"{a}:{b}": count for (a, b), count in sorted(deck.items(), reverse=True)},
                "deal": self.deal_size, "seats": self.names, "leader": leader,
                "arms": self.spec.arms({**self.spec.variant_defaults(), **self.variant})}

    def top_fields(self) -> list[dict]:
        out = []
        if self.entry.levels:
            # Kept on the phone for the next deal at this table (static/js/deal-drafts.js), but for
            # a level that records an event (Ce Deng's redeal), not a way of entering.
            out.append(self._field("level", gettext("Detail"), "radio", options=list(self.entry.levels),
                                   remember=[level for level, _ in self.entry.ways_of_entering()]))
        for inp in self.entry.inputs:
            if not inp.per_seat and not isinstance(inp, Mark):
                out.append(self._input_field(inp, inp.name))
        return out

    def _banker_seat(self) -> int | None:
        """The seat chosen as banker, in games that have one (the catalog says which)."""
        if not self.spec.has_banker:
            return None
        return self.seat_of("banker")

    def seat_of(self, name: str) -> int | None:
        """The seat chosen in the seat choice ``name`` (None when none can be read)."""
        return _seat_value(self.values.get(name, ""), self.n)

    def _banker_select(self) -> str:
        """The name of the select choosing the banker ("" without one): the page's badge follows it."""
        if not self.spec.has_banker:
            return ""
        return next((inp.name for inp in self.entry.inputs
                     if isinstance(inp, SeatChoice) and inp.fills == "banker"), "")

    def seat_rows(self) -> list[dict]:
        seat_inputs = [inp for inp in self.entry.inputs if inp.per_seat]
        banker = self._banker_seat()
        return [{"position": i, "name": name, "role": gettext("banker") if i == banker else "",
                 "fields": [self._input_field(inp, f"{inp.name}_{i}") for inp in seat_inputs]}
                for i, name in enumerate(self.names)]

    def bottom_fields(self) -> list[dict]:
        return [self._field("entered_by", gettext("Entered by"), "select",
                            options=self._seat_options(blank=gettext("— who is typing? —")))]

    def section_errors(self) -> list[str]:
        """Errors about a whole list (``points``, ``unplayed``, ``hands``, ...) or the deal."""
        per_field = {f["name"] for f in self.top_fields() + self.bottom_fields()}
        per_field |= {f["name"] for row in self.seat_rows() for f in row["fields"]}
        out = []
        for key, messages in self.errors.items():
            if key not in per_field:
                out.extend(messages)
        return out

    def context(self) -> dict:
        return {"game": self.game, "connecting": self.connecting, "level": self.level, "levels": self.entry.levels,
                "top": self.top_fields(), "rows": self.seat_rows(), "bottom": self.bottom_fields(),
                "section_errors": self.section_errors(), "has_errors": bool(self.errors), "note": self.note,
                "picker": json.dumps(self.picker()), "banker_select": self._banker_select(),
                # Tiles typed at every level: the template explains how to type them.
                "tile_hint": any(isinstance(inp, Tiles) and inp.level is None for inp in self.entry.inputs)}
