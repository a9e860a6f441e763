"""Decks and deals by game and player count (RULES.md §1.3, §1.4)."""

from __future__ import annotations

from collections import Counter

from .tiles import ALL_TILES, CIVIL, Tile

Deck = Counter  # Counter[Tile] -> copies in the deck

#: The standard 32-tile Chinese set: civil tiles twice, military once (§1.1).
CHINESE_32: Counter = Counter({t: (2 if t in CIVIL else 1) for t in ALL_TILES})

#: Ding Niu's 24: all civil tiles plus [6:3] and [6:2] (§1.3.1).
DING_NIU_24: Counter = Counter({t: n for t, n in CHINESE_32.items() if t in CIVIL or t in ((6, 3), (6, 2))})

#: Kko-li's reduced 24: the 32 set without [3:3] [4:4] [5:5] [6:6] (§1.3.2).
KKO_LI_24: Counter = Counter(
    {t: n for t, n in CHINESE_32.items() if t not in ((3, 3), (4, 4), (5, 5), (6, 6))}
)

DECK_NAMES = {id(CHINESE_32): "the 32-tile set", id(DING_NIU_24): "the 24-tile Ding Niu deck",
              id(KKO_LI_24): "the 24-tile Kko-li deck"}


def deck_name(deck: Counter) -> str:
    return DECK_NAMES.get(id(deck), "this deck")


def deck_pips(deck: Counter) -> int:
    return sum((a + b) * n for (a, b), n in deck.items())


#: game -> {players: (deck, tiles each)}; only the counts listed are allowed (§1.4).
CONNECTING_DEALS: dict[str, dict[int, tuple[Counter, int]]] = {
    "jie_long": {4: (CHINESE_32, 8), 3: (CHINESE_32, 10), 2: (CHINESE_32, 16)},
    "ce_deng": {4: (CHINESE_32, 8)},
    "kko_li_but_i_gi": {4: (CHINESE_32, 8), 3: (KKO_LI_24, 8), 2: (KKO_LI_24, 12)},
    "ding_niu": {4: (DING_NIU_24, 6)},
}


# ---------------------------------------------------------------------------------------
# Packed multisets: the deck check of the quick readers without a Counter.
#
# A multiset of tiles packs into one int, the sum of one weight per tile: 1 << 6·index of its
# kind in ALL_TILES (21 kinds, a 6-bit field each). Summing weights counts the tiles in C
# (``sum(map(PACK_WEIGHT.__getitem__, tiles))``), in any order. A field holds up to 63; the
# quick readers pack at most MAX_PACKED tiles, so no field ever spills into the next.

PACK_BITS = 6
MAX_PACKED = 32
PACK_WEIGHT: dict[Tile, int] = {t: 1 << (PACK_BITS * i) for i, t in enumerate(ALL_TILES)}
#: The top bit of every field.
_PACK_TOP = sum((1 << (PACK_BITS - 1)) * w for w in PACK_WEIGHT.values())
#: id(deck) -> (deck, bias). The entry holds the deck itself, so its id cannot be reused.
_PACK_BIAS: dict[int, tuple[Counter, int]] = {}


def packed_fits(packed: int, deck: Counter) -> bool:
    """True when the packed multiset (at most MAX_PACKED tiles) can be drawn from the deck.

    Adding (31 − copies in the deck) to each field makes it reach 32, its top bit, exactly
    when the multiset holds more copies of that kind than the deck (a field stays below 64)."""
    entry = _PACK_BIAS.get(id(deck))
    if entry is None:
        bias = sum(((1 << (PACK_BITS - 1)) - 1 - deck.get(t, 0)) * w for t, w in PACK_WEIGHT.items())
        entry = _PACK_BIAS[id(deck)] = (deck, bias)
    return not (packed + entry[1]) & _PACK_TOP


def tiles_fit(tiles: list[Tile], deck: Counter) -> bool:
    """True when the multiset of tiles can be drawn from the deck."""
    seen: Counter = Counter(tiles)
    return all(deck.get(t, 0) >= n for t, n in seen.items())
