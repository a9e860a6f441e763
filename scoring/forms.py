"""The deal form of the scorer and director pages: typed form fields → a round BODY, and back.

A body is what ``services.round_build_record`` reads: the round record without game, variant
and seats, per-seat lists by **table position**, plus ``leader`` / ``banker`` / ``entered_by``.
This module only reshapes text; the rules (is 7:1 a tile, can a seat have 5 points, ...) are
the engine's, reached through ``services.round_preview`` and friends. Their error paths
(``points[2]``, ``unplayed_tiles[1][0]``, ``leader``) are mapped back to the inputs here.

Everything is plain data: ``DealForm.sections()`` gives the template ready-made field dicts
(name, label, kind, value, options, errors), so the template needs no per-game logic.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import games

#: Levels of detail the form offers for connecting games (moves: the API only).
LEVELS = (("points", "Points"), ("unplayed_tiles", "Unplayed tiles"))
MAX_TEXT = 200
_SPLIT = re.compile(r"[\s,;、，；]+")
_TILE = re.compile(r"^\[?\(?([1-6])\s*[:\-/.|xX]?\s*([1-6])\)?\]?$")
_INT = re.compile(r"^[+-]?\d{1,7}$")
_PATH = re.compile(r"^([a-z_]+)(?:\[(\d+)\])?(?:\[(\d+)\])?(?:\[(\d+)\])?(?:\.([a-z_]+))?")

NON_FIELD = "__all__"


# ---------------------------------------------------------------------------------------------
# Typed text

def parse_tiles(text: Any) -> list[str]:
    """``"6:4 3:1"``, ``"[6:4],[3:1]"``, ``"64 31"``, ``"6-4; 1:3"`` → ``["6:4", "3:1"]``.

    Separators: spaces, commas, semicolons (also full-width). A tile may be written ``6:4``,
    ``[6:4]``, ``64``, ``6-4``, ``6/4``, either half first. A token that is no tile is passed on
    as typed, so the engine names it (with its path) and the page shows it at its field."""
    if not isinstance(text, str):
        return []
    text = unicodedata.normalize("NFKC", text).strip()
    out = []
    for token in _SPLIT.split(text):
        if not token:
            continue
        m = _TILE.match(token)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            out.append(f"{max(a, b)}:{min(a, b)}")
        else:
            out.append(token)
    return out


def tiles_text(tiles: Any) -> str:
    """A list of tiles back to the text a scorer types."""
    if not isinstance(tiles, list):
        return ""
    return " ".join(str(t) for t in tiles)


def _int_or_error(raw: str) -> tuple[int | None, str | None]:
    raw = unicodedata.normalize("NFKC", raw or "").strip()
    if raw == "":
        return None, None
    if not _INT.match(raw):
        return None, "Enter a whole number."
    return int(raw), None


def _seat_value(raw: Any, n: int) -> int | None:
    try:
        v = int(str(raw))
    except (TypeError, ValueError):
        return None
    return v if 0 <= v < n else None


# ---------------------------------------------------------------------------------------------
# Error paths → inputs

def field_for_path(path: str, game: str) -> str:
    """The form input a body-relative error path points at (``NON_FIELD`` when none does)."""
    if not path:
        return NON_FIELD
    m = _PATH.match(path)
    if not m:
        return NON_FIELD
    key, i, j = m.group(1), m.group(2), m.group(3)
    if key in ("leader", "banker", "entered_by", "level"):
        return key
    if key == "suanzhang":
        return "suanzhang"
    if key == "points":
        return f"points_{i}" if i is not None else "points"
    if key == "unplayed":
        return f"unplayed_{i}" if i is not None else "unplayed"
    if key == "unplayed_tiles":
        return f"tiles_{i}" if i is not None else "unplayed_tiles"
    if key == "hands":
        return f"hand_{i}" if i is not None else "hands"
    if key in ("stakes", "bet"):
        return f"stake_{i}" if i is not None else "stakes"
    if key == "declared":
        return f"hand_{i}" if i is not None else "hands"
    if key == "table":
        return "table_tiles"
    if key == "groups":
        if i is None:
            return "groups"
        if j is None:
            return f"group1_{i}"
        return f"group{int(j) + 1}_{i}"
    return NON_FIELD


# ---------------------------------------------------------------------------------------------
# The form

class DealForm:
    """One deal's inputs at one table.

    ``seats``: the table's seats by position (``Seat`` objects or dicts with ``position`` and
    ``name``). ``data``: a POST (QueryDict or dict) — or None with ``initial`` (a body, e.g.
    the current revision's, or defaults like ``{"leader": 2}``) to pre-fill the form.
    """

    def __init__(self, *, game: str, variant: dict, seats: list, data: Any = None,
                 initial: dict | None = None, require_entered_by: bool = True):
        self.game = game
        self.variant = variant or {}
        self.connecting = game in games.CONNECTING_GAMES
        self.names = [s.entry.player.name if hasattr(s, "entry") else s["name"] for s in seats]
        self.n = len(self.names)
        self.require_entered_by = require_entered_by
        self.errors: dict[str, list[str]] = {}
        self.values: dict[str, str] = {}
        self.note = ""
        if data is not None:
            self.values = {k: (data.get(k) or "")[:MAX_TEXT] for k in self._field_names()}
        else:
            self.values = self._values_from_body(initial or {})
        if self.connecting and self.values.get("level") not in dict(LEVELS):
            self.values["level"] = "points"

    # -- names --------------------------------------------------------------------------------
    def _field_names(self) -> list[str]:
        names = ["entered_by"]
        r = range(self.n)
        if self.connecting:
            names += ["level", "leader"]
            names += [f"points_{i}" for i in r] + [f"unplayed_{i}" for i in r] + [f"tiles_{i}" for i in r]
            if self.game == "ding_niu":
                names.append("suanzhang")
        elif self.game == "tau_ngau":
            names += ["banker"] + [f"hand_{i}" for i in r] + [f"stake_{i}" for i in r]
        elif self.game == "da_ling":
            names += ["table_tiles"] + [f"group{g}_{i}" for g in (1, 2, 3) for i in r]
        return names

    @property
    def level(self) -> str:
        return self.values.get("level", "")

    # -- body → values ------------------------------------------------------------------------
    def _values_from_body(self, body: dict) -> dict[str, str]:
        v: dict[str, str] = {}

        def put(name, value):
            v[name] = "" if value is None else str(value)

        put("entered_by", body.get("entered_by"))
        n = self.n

        def per_seat(key):
            value = body.get(key)
            return value if isinstance(value, list) and len(value) == n else None

        if self.connecting:
            put("leader", body.get("leader", 0))
            sz = body.get("suanzhang")
            put("suanzhang", sz.get("seat") if isinstance(sz, dict) else None)
            if per_seat("unplayed_tiles") is not None:
                v["level"] = "unplayed_tiles"
                for i, tiles in enumerate(body["unplayed_tiles"]):
                    v[f"tiles_{i}"] = tiles_text(tiles)
            else:
                v["level"] = "points"
                for key, prefix in (("points", "points"), ("unplayed", "unplayed")):
                    values = per_seat(key)
                    if values is not None:
                        for i, x in enumerate(values):
                            put(f"{prefix}_{i}", x)
                if "moves" in body:
                    self.note = ("This deal was entered with the full move log; the form can only "
                                 "replace it with points or unplayed tiles.")
        elif self.game == "tau_ngau":
            put("banker", body.get("banker", 0))
            for i, hand in enumerate(per_seat("hands") or []):
                v[f"hand_{i}"] = tiles_text(hand)
            for i, stake in enumerate(per_seat("stakes") or []):
                put(f"stake_{i}", stake)
        elif self.game == "da_ling":
            v["table_tiles"] = tiles_text(body.get("table"))
            for i, groups in enumerate(per_seat("groups") or []):
                if isinstance(groups, list):
                    for g, group in enumerate(groups[:3]):
                        v[f"group{g + 1}_{i}"] = tiles_text(group)
        return v

    # -- values → body ------------------------------------------------------------------------
    def add_error(self, field: str, message: str) -> None:
        self.errors.setdefault(field, [])
        if message not in self.errors[field]:
            self.errors[field].append(message)

    def add_service_errors(self, errors: list[dict]) -> None:
        """Errors of a service or the engine (body-relative paths), shown at their inputs."""
        for e in errors:
            field = field_for_path(e.get("path", ""), self.game)
            if field == "suanzhang" and self.game != "ding_niu":
                field = NON_FIELD
            self.add_error(field, e.get("message") or e.get("code") or "Invalid.")

    def _seat_field(self, name: str, *, required: bool, what: str) -> int | None:
        raw = self.values.get(name, "")
        if raw == "":
            if required:
                self.add_error(name, f"Choose {what}.")
            return None
        value = _seat_value(raw, self.n)
        if value is None:
            self.add_error(name, f"Choose {what}.")
        return value

    def body(self) -> dict | None:
        """The body, or None when an input cannot be read (``errors`` says which)."""
        self.errors = {}
        body: dict[str, Any] = {}
        r = range(self.n)
        if self.connecting:
            body["leader"] = self._seat_field("leader", required=True, what="the seat that led")
            if self.level == "unplayed_tiles":
                body["unplayed_tiles"] = [parse_tiles(self.values.get(f"tiles_{i}", "")) for i in r]
            else:
                points, unplayed = [], []
                for i in r:
                    p, err = _int_or_error(self.values.get(f"points_{i}", ""))
                    if err or p is None:
                        self.add_error(f"points_{i}", err or "Enter the points (0 for a seat that played out).")
                    points.append(p)
                    u, err = _int_or_error(self.values.get(f"unplayed_{i}", ""))
                    if err:
                        self.add_error(f"unplayed_{i}", err)
                    unplayed.append(u)
                body["points"] = points
                given = [u for u in unplayed if u is not None]
                if given and len(given) < self.n:
                    for i in r:
                        if unplayed[i] is None:
                            self.add_error(f"unplayed_{i}", "Give every seat's count of unplayed tiles, or none.")
                if given or self.game == "ce_deng":
                    body["unplayed"] = unplayed
                if self.game == "ce_deng" and not given:
                    for i in r:
                        self.add_error(f"unplayed_{i}", "Ce Deng needs each seat's count of unplayed tiles.")
            if self.game == "ding_niu" and self.values.get("suanzhang", "") != "":
                seat = self._seat_field("suanzhang", required=False, what="the seat that blocked")
                if seat is not None:
                    body["suanzhang"] = {"seat": seat}
        elif self.game == "tau_ngau":
            banker = self._seat_field("banker", required=True, what="the banker")
            body["banker"] = banker
            body["hands"] = [parse_tiles(self.values.get(f"hand_{i}", "")) for i in r]
            stakes: list[int | None] = []
            for i in r:
                s, err = _int_or_error(self.values.get(f"stake_{i}", ""))
                if err and i != banker:
                    self.add_error(f"stake_{i}", err)
                stakes.append(None if i == banker else s)
            missing = [i for i in r if i != banker and stakes[i] is None]
            v1 = self.variant.get("settlement") == "v1"
            if v1 and len(missing) == self.n - 1:
                pass  # v1 without stakes: the engine's single bet (default 1)
            else:
                for i in missing:
                    self.add_error(f"stake_{i}", "Enter this player's stake.")
                body["stakes"] = stakes
        elif self.game == "da_ling":
            body["table"] = parse_tiles(self.values.get("table_tiles", ""))
            body["groups"] = [[parse_tiles(self.values.get(f"group{g}_{i}", "")) for g in (1, 2, 3)] for i in r]
        entered_by = self._seat_field("entered_by", required=self.require_entered_by,
                                      what="who is entering the deal")
        if entered_by is not None:
            body["entered_by"] = entered_by
        if self.errors:
            return None
        return body

    # -- for the template -----------------------------------------------------------------------
    def _seat_options(self, *, blank: str | None = None) -> list[tuple[str, str]]:
        opts = [("", blank)] if blank is not None else []
        return opts + [(str(i), f"{i + 1}. {name}") for i, name in enumerate(self.names)]

    def _field(self, name: str, label: str, kind: str = "text", **extra) -> dict:
        return {"name": name, "label": label, "kind": kind, "value": self.values.get(name, ""),
                "errors": self.errors.get(name, []), "id": f"f-{name}", **extra}

    def top_fields(self) -> list[dict]:
        out = []
        if self.connecting:
            out.append(self._field("level", "Detail", "radio", options=list(LEVELS)))
            out.append(self._field("leader", "Led by", "select", options=self._seat_options()))
            if self.game == "ding_niu":
                out.append(self._field("suanzhang", "SuanZhang (blocked the layout)", "select",
                                       options=self._seat_options(blank="— none —")))
        elif self.game == "tau_ngau":
            out.append(self._field("banker", "Banker", "select", options=self._seat_options()))
        elif self.game == "da_ling":
            out.append(self._field("table_tiles", "Table tiles (2)", "tiles", placeholder="e.g. 6:6 3:2"))
        return out

    def seat_rows(self) -> list[dict]:
        rows = []
        for i, name in enumerate(self.names):
            fields = []
            if self.connecting:
                fields.append(self._field(f"points_{i}", "Points", "number", level="points", min="0"))
                fields.append(self._field(f"unplayed_{i}", "Tiles left" + (" *" if self.game == "ce_deng" else ""),
                                          "number", level="points", min="0"))
                fields.append(self._field(f"tiles_{i}", "Unplayed tiles", "tiles", level="unplayed_tiles",
                                          placeholder="none: played out"))
            elif self.game == "tau_ngau":
                fields.append(self._field(f"hand_{i}", "Hand (5 tiles)", "tiles", placeholder="e.g. 6:6 4:4 6:4 5:5 3:1"))
                fields.append(self._field(f"stake_{i}", "Stake (not the banker)", "number", min="1"))
            elif self.game == "da_ling":
                fields.append(self._field(f"group1_{i}", "1 tile", "tiles", placeholder="e.g. 4:3"))
                fields.append(self._field(f"group2_{i}", "2 tiles", "tiles", placeholder="e.g. 6:5 5:1"))
                fields.append(self._field(f"group3_{i}", "3 tiles", "tiles", placeholder="e.g. 1:1 6:3 3:3"))
            rows.append({"position": i, "name": name, "fields": fields})
        return rows

    def bottom_fields(self) -> list[dict]:
        return [self._field("entered_by", "Entered by", "select",
                            options=self._seat_options(blank="— who is typing? —"))]

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
        return {"game": self.game, "connecting": self.connecting, "level": self.level, "levels": LEVELS,
                "top": self.top_fields(), "rows": self.seat_rows(), "bottom": self.bottom_fields(),
                "section_errors": self.section_errors(), "has_errors": bool(self.errors), "note": self.note}
