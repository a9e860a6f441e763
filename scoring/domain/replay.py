"""What the public table page shows of a deal's tiles: the tiles a record names, seat by seat,
and a full log (``moves``) laid out move by move. Pure: no Django, no queries.

Read from the record format alone (ROUND_RECORD.md §2c), never from a game's name: a lead
with ``open`` starts a single-arm line (one open end), a lead without it a two-arm line; a
later play joins the end its ``to`` names, else the one it fits. The record was checked by
the engine when it was stored, so the line is built without checking it again.
"""

from __future__ import annotations

import re
from typing import Any

TILE = re.compile(r"\A\[?([1-6]):([1-6])\]?\Z")


def tile_text(value: Any) -> str | None:
    """``"[3:5]"`` → ``"5:3"`` (high pip first, as the engine writes it); None if no tile."""
    m = TILE.match(value) if isinstance(value, str) else None
    if m is None:
        return None
    a, b = int(m.group(1)), int(m.group(2))
    return f"{max(a, b)}:{min(a, b)}"


def tile_groups(value: Any) -> list[list[str]] | None:
    """A seat's tiles in a record field as groups: a list of tiles is one group, a list of such
    lists (Da Ling's groups) several, ``{"bull": [...]}`` (a declared bull) one; None when the
    value holds no tile (points, stakes, ...)."""
    if isinstance(value, dict):
        value = value.get("bull")
    if not isinstance(value, list):
        return None
    tiles = [tile_text(v) for v in value]
    if value and all(tiles):
        return [tiles]  # type: ignore[list-item]
    if not value:
        return [[]]
    groups = []
    for item in value:
        inner = tile_groups(item)
        if inner is None:
            return None
        groups.extend(inner)
    return groups


def seat_tiles(body: dict, fields: tuple[str, ...], n: int) -> list[dict]:
    """The tiles a deal's body shows, per field: ``{"field", "seats": [groups per table
    position]}`` for each of ``fields`` (the game's per-seat fields) that holds tiles."""
    out = []
    for field in fields:
        value = body.get(field)
        if not isinstance(value, list) or len(value) != n:
            continue
        seats = [tile_groups(v) for v in value]
        if any(s is None for s in seats) or not any(t for s in seats for g in s for t in g):
            continue
        out.append({"field": field, "seats": seats})
    return out


def line_steps(record: dict) -> dict | None:
    """A full log laid out: ``moves`` (per move: ``step`` (1-based), ``seat`` (index in the
    record's playing order), ``name``, ``kind`` (``lead``/``play``/``pass``), ``tile``) and
    ``line`` (the tiles on the table, left to right, each ``{"step", "tile", "flip", "across"}``:
    ``tile`` as it lies, its left pip first, so that neighbours touch with matching pips; ``flip``
    true when that is the low pip first; ``across`` true for a double, laid across the line).
    None when the record has no moves."""
    moves = record.get("moves")
    names = record.get("seats") or []
    if not isinstance(moves, list) or not moves or not names:
        return None
    n = len(names)
    steps: list[dict] = []
    left: list[dict] = []   # from the lead outwards on the left arm
    right: list[dict] = []  # from the lead outwards on the right arm
    lead: dict | None = None
    ends: list[int] = []    # [left, right] open pips; a single arm keeps only the right one
    for k, move in enumerate(moves):
        if not isinstance(move, dict):
            return None
        is_play = "play" in move
        tile = tile_text(move.get("play") if is_play else move.get("pass"))
        if tile is None:
            return None
        hi, lo = int(tile[0]), int(tile[2])
        kind = "pass" if not is_play else ("lead" if lead is None else "play")
        steps.append({"step": k + 1, "seat": k % n, "name": str(names[k % n]), "kind": kind, "tile": tile})
        if not is_play:
            continue
        if lead is None:
            opened = move.get("open")
            if isinstance(opened, int) and opened in (hi, lo):
                # Single arm: the open pip lies on the right, the closed one on the left.
                closed = hi + lo - opened
                lead = {"step": k + 1, "pips": (closed, opened)}
                ends = [-1, opened]
            else:
                lead = {"step": k + 1, "pips": (hi, lo)}
                ends = [hi, lo]
            continue
        to = move.get("to")
        if to in (hi, lo) and to in ends:
            side = 1 if ends[1] == to else 0
        else:
            side = 1 if ends[1] in (hi, lo) else 0
        joined = ends[side]
        other = hi + lo - joined
        if side == 1:
            right.append({"step": k + 1, "pips": (joined, other)})
        else:
            left.append({"step": k + 1, "pips": (other, joined)})
        ends[side] = other
    line = []
    for t in [*reversed(left), *([lead] if lead else []), *right]:
        a, b = t["pips"]
        line.append({"step": t["step"], "tile": f"{a}:{b}", "flip": a < b, "across": a == b})
    return {"moves": steps, "line": line}
