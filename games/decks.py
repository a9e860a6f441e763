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


def tiles_fit(tiles: list[Tile], deck: Counter) -> bool:
    """True when the multiset of tiles can be drawn from the deck."""
    seen: Counter = Counter(tiles)
    return all(deck.get(t, 0) >= n for t, n in seen.items())
