"""Reading a connecting game's move log (ROUND_RECORD.md §2c): each move
as a tuple ``(is_play, tile, to, open)``, every mistake worded at its path. ``layout`` replays
what is read here; its quick replay reads the raw log itself (with ``TILE_BY_TEXT``), and a log
it doubts is read again here, to word the errors.
"""

from __future__ import annotations

from .record import Problems, read_tile
from .tiles import ALL_TILES, Tile, tile_str
from .words import gettext_noop

#: Every accepted spelling of a tile -> the tile; a dict hit is much cheaper than the regex.
TILE_BY_TEXT: dict[str, Tile] = {}
for _a, _b in ALL_TILES:
    for _text in (f"{_a}:{_b}", f"{_b}:{_a}"):
        TILE_BY_TEXT[_text] = (_a, _b)
        TILE_BY_TEXT[f"[{_text}]"] = (_a, _b)

_MOVE_KEYS = frozenset(("play", "pass", "to", "open"))

Move = tuple  # (is_play: bool, tile: Tile, to: int | None, open: int | None)

def fast_tile(value: object, path: str, p: Problems) -> Tile | None:
    """A tile from its text; the slow reader only runs to word the error."""
    if type(value) is str:
        tile = TILE_BY_TEXT.get(value)
        if tile is not None:
            return tile
    return read_tile(value, path, p)


def _pip(value: object) -> bool:
    return type(value) is int and 1 <= value <= 6


def read_moves(raw: object, p: Problems, *, two_arms: bool, max_moves: int) -> list[Move] | None:
    """Read the log's shape and tiles (§2c). None when anything is wrong (errors recorded)."""
    if not isinstance(raw, list):
        p.error("moves", "bad_type", gettext_noop("moves must be a list of moves."))
        return None
    if not raw:
        p.error("moves", "empty_log", gettext_noop("The log has no moves; the leader's lead comes first."))
        return None
    if len(raw) > max_moves + 1:
        # Moves beyond the dealt tiles are after the end anyway; the replay names the first
        # one (or an earlier end), so the rest need not be read.
        raw = raw[:max_moves + 1]
    moves: list[Move] = [_read_move(0, raw[0], p, two_arms)]
    append = moves.append
    lookup = TILE_BY_TEXT.get
    ok = moves[0] is not None
    for k in range(1, len(raw)):
        m = raw[k]
        # Fast path for the common shapes {"play": T}, {"play": T, "to": p}, {"pass": T};
        # anything else goes through the careful reader, which words the errors.
        if type(m) is dict:
            size = len(m)
            text = m.get("play")
            if text is not None:
                tile = lookup(text) if type(text) is str else None
                if tile is not None:
                    if size == 1:
                        append((True, tile, None, None))
                        continue
                    to = m.get("to")
                    if size == 2 and type(to) is int and 1 <= to <= 6:
                        append((True, tile, to, None))
                        continue
            elif size == 1:
                text = m.get("pass")
                tile = lookup(text) if type(text) is str else None
                if tile is not None:
                    append((False, tile, None, None))
                    continue
        move = _read_move(k, m, p, two_arms)
        if move is None:
            ok = False
        else:
            append(move)
    return moves if ok else None


def _read_move(k: int, m: object, p: Problems, two_arms: bool) -> Move | None:
    path = f"moves[{k}]"
    if type(m) is not dict:
        p.error(path, "bad_move", gettext_noop('Each move is an object like {"play": "6:4"} or {"pass": "3:1"}.'))
        return None
    if not _MOVE_KEYS.issuperset(m):
        for key in m:
            if key not in _MOVE_KEYS:
                p.error(f"{path}.{str(key)[:40]}", "unknown_field",
                        gettext_noop("A move has only play or pass, and to or open where they apply."))
        return None
    if "play" in m:
        if "pass" in m:
            p.error(path, "bad_move", gettext_noop("A move is either a play or a pass, not both."))
            return None
        tile = fast_tile(m["play"], path + ".play", p)
        is_play = True
    elif "pass" in m:
        tile = fast_tile(m["pass"], path + ".pass", p)
        is_play = False
    else:
        p.error(path, "bad_move", gettext_noop('Each move is an object like {"play": "6:4"} or {"pass": "3:1"}.'))
        return None
    if tile is None:
        return None
    ok = True
    to = m.get("to")
    opened = m.get("open")
    if to is not None:
        if not is_play:
            p.error(path + ".to", "bad_move", gettext_noop("A pass lays its tile face down; it has no end (to)."))
            ok = False
        elif k == 0:
            p.error(path + ".to", "bad_move", gettext_noop("The lead starts the line; it is laid against no end (to)."))
            ok = False
        elif not _pip(to):
            p.error(path + ".to", "bad_type", gettext_noop("to must be the pip (1 to 6) of the open end played on."))
            ok = False
    if k == 0:
        if not is_play:
            p.error(path, "lead_is_pass", gettext_noop("The leader must start by laying a tile face up (CG-4)."))
            ok = False
        elif two_arms:
            if opened is not None:
                p.error(path + ".open", "bad_move",
                        gettext_noop("With two arms both halves of the lead are open; leave out open."))
                ok = False
        elif opened is None:
            if tile[0] != tile[1]:
                p.error(path + ".open", "missing_field",
                        f"Say which half of the lead [{tile_str(tile)}] stays open (open).")
                ok = False
            else:
                opened = tile[0]
        elif not _pip(opened) or opened not in tile:
            p.error(path + ".open", "bad_open",
                    f"The open pip of the lead must be one of its halves, {tile[0]} or {tile[1]}.")
            ok = False
    elif opened is not None:
        p.error(path + ".open", "bad_move", gettext_noop("Only the lead names an open pip."))
        ok = False
    return (is_play, tile, to, opened) if ok else None
