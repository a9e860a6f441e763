"""How a scorer may type tiles, moves and declared bulls, and the reverse: a body's lists back
to the text they would have typed.

Only the text is reshaped here: ``6:4``, ``[4:6]``, ``64`` and ``６：４`` are all the tile
``"6:4"``; what cannot be read is passed on as typed, so the engine names it at its path (the
deal form, ``scoring.web.deal_form``, shows that error at the input). Whether a tile is in the
deck or a move is legal is the engine's to say. ``static/js/tile-text.js`` reads the same text
(the tile picker's) and ``static/js/tile-moves.js`` writes a move log the same way.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

_SPLIT = re.compile(r"[\s,;、，；]+")
_TILE = re.compile(r"^\[?\(?([1-6])\s*[:\-/.|xX]?\s*([1-6])\)?\]?$")
#: A move as typed: an optional pass mark (x, or p), a tile, an optional "@pip".
_MOVE = re.compile(r"^([xXpP-])?(.+?)(?:@([1-6]))?$")
#: Said for a declaration of "no bull".
NO_BULL = "-"


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


def parse_moves(text: Any) -> list:
    """``"6:4@4 4:4@4 x3:1 6:1"`` → ``[{"play": "6:4", "open": 4}, {"play": "4:4", "to": 4},
    {"pass": "3:1"}, {"play": "6:1"}]``.

    ``@p`` on the lead names the pip left open (one arm), on a later play the open pip it goes
    to (two arms). The tile is read as in ``parse_tiles``; what cannot be read is passed on as
    typed, so the engine names the move (``moves[3].play``)."""
    out: list = []
    for token in parse_tiles(text):
        m = _MOVE.match(token)
        if not m:  # never: the pattern accepts any token
            out.append({"play": token})
            continue
        mark, tile, pip = m.groups()
        tiles = parse_tiles(tile)
        tile = tiles[0] if len(tiles) == 1 else tile
        if mark:
            out.append({"pass": tile})
            continue
        move: dict[str, Any] = {"play": tile}
        if pip is not None:
            move["open" if not out else "to"] = int(pip)
        out.append(move)
    return out


def moves_text(moves: Any) -> str:
    """A move log back to the line a scorer types (``parse_moves`` reads it back)."""
    if not isinstance(moves, list):
        return ""
    words = []
    for move in moves:
        if not isinstance(move, dict):
            continue
        if "pass" in move:
            words.append(f"x{move['pass']}")
            continue
        pip = move.get("open", move.get("to"))
        words.append(f"{move.get('play')}" + (f"@{pip}" if pip is not None else ""))
    return " ".join(words)


def parse_declared(text: Any) -> dict | None:
    """A declaration as typed: tiles → ``{"bull": [...]}``, ``-`` → ``{"bull": None}``, empty → None."""
    if not isinstance(text, str):
        return None
    text = unicodedata.normalize("NFKC", text).strip()
    if text == "":
        return None
    if text in (NO_BULL, "0"):
        return {"bull": None}
    return {"bull": parse_tiles(text)}


def declared_text(value: Any) -> str:
    """A declaration back to the text a scorer types (``parse_declared`` reads it back)."""
    if not isinstance(value, dict) or "bull" not in value:
        return ""
    return NO_BULL if value["bull"] is None else tiles_text(value["bull"])


def tiles_text(tiles: Any) -> str:
    """A list of tiles back to the text a scorer types."""
    if not isinstance(tiles, list):
        return ""
    return " ".join(str(t) for t in tiles)
