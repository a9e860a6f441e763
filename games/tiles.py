"""Tiles of the Chinese domino set (RULES.md §0.2, §1.1, §1.2).

A tile is a tuple ``(high, low)`` of pips with ``high >= low``; ``(6, 4)`` is the tile
written ``"6:4"``. Tuples keep the engine fast and hashable, and need no class.
"""

from __future__ import annotations

Tile = tuple[int, int]

#: All 21 distinct tiles with pips 1..6 (no blanks), high pip first.
ALL_TILES: tuple[Tile, ...] = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))

#: The 11 civil tiles, each twice in the 32-tile set (§1.1.2).
CIVIL: frozenset[Tile] = frozenset(
    [(6, 6), (1, 1), (4, 4), (3, 1), (5, 5), (3, 3), (2, 2), (6, 5), (6, 4), (6, 1), (5, 1)]
)
#: The 10 military tiles, each once (§1.1.3).
MILITARY: frozenset[Tile] = frozenset(t for t in ALL_TILES if t not in CIVIL)

#: Tiles that may count 3 or 6 where a rule says "wild" (§0.2.5).
WILD: frozenset[Tile] = frozenset([(4, 2), (2, 1)])

def make_tile(a: int, b: int) -> Tile:
    """The tile with halves a and b, high pip first."""
    return (a, b) if a >= b else (b, a)


#: Every accepted spelling: "a:b" in either order, bare or in brackets (72 strings). The dict
#: is the whole grammar, and a lookup is several times faster than a regular expression.
SPELLINGS: dict[str, Tile] = {}
for _a in range(1, 7):
    for _b in range(1, 7):
        SPELLINGS[f"{_a}:{_b}"] = SPELLINGS[f"[{_a}:{_b}]"] = make_tile(_a, _b)
del _a, _b


def parse_tile(text: object) -> Tile | None:
    """Read ``"a:b"`` or ``"[a:b]"`` (either order); None when it is not a tile."""
    if type(text) is not str:  # plain strings only: a str subclass could hash or compare oddly
        return None
    return SPELLINGS.get(text)


def tile_str(tile: Tile) -> str:
    """The output form, high pip first without brackets: ``"6:4"``."""
    return f"{tile[0]}:{tile[1]}"


def pips(tile: Tile) -> int:
    return tile[0] + tile[1]


def is_double(tile: Tile) -> bool:
    return tile[0] == tile[1]


def pip_choices(tile: Tile) -> tuple[int, ...]:
    """The values a tile may count for where wild tiles apply: [4:2] and [2:1] count 3 or 6."""
    if tile in WILD:
        return (3, 6)
    return (tile[0] + tile[1],)


def _half_colour(pip: int) -> tuple[int, int]:
    # Pips 1 and 4 are red; 2, 3, 5 and 6 are black (§1.2.1).
    return (pip, 0) if pip in (1, 4) else (0, pip)


def red_black(tile: Tile) -> tuple[int, int]:
    """(red pips, black pips) of a tile; [6:6] counts 6 red and 6 black (§1.2.1)."""
    if tile == (6, 6):
        return (6, 6)
    r1, b1 = _half_colour(tile[0])
    r2, b2 = _half_colour(tile[1])
    return (r1 + r2, b1 + b2)


RED_BLACK: dict[Tile, tuple[int, int]] = {t: red_black(t) for t in ALL_TILES}
