"""Tau Ngau's hand values (RULES.md §7, TN-4 … TN-7): the best bull a 5-tile hand holds and what
it is worth under each version.

Hand values come from a table of every distinct 5-tile hand of the 32-tile set (33,934 of
them, as multisets), built once on first use. A hand is looked up by a multiset key, the sum
of one weight per tile (3 bits per tile kind), so the order of the tiles never matters and no
sorting is needed on the hot path.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from typing import Iterator, NamedTuple, Sequence

from .decks import CHINESE_32
from .tiles import ALL_TILES, Tile, pip_choices

HAND_SIZE = 5

Bull = tuple[Tile, Tile, Tile]


class HandValue(NamedTuple):
    """The best a hand can do under each version (TN-4 … TN-7).

    ``v1``/``v2`` are 0 when there is no bull; under v2 a bull may also be worth 0, so
    ``has_bull`` tells the two apart. The bulls are high-first; v1 and v2 may pick different
    bulls, because v1 prizes a remainder of 0 (it counts 10) and v2 does not.
    """

    has_bull: bool
    v1: int
    v2: int
    bull_v1: Bull | None
    bull_v2: Bull | None


# ---------------------------------------------------------------------------------------
# Small building blocks: which residues a tile, a triple and a pair can make.

#: Pip values mod 10 a tile may count for (wild [4:2] and [2:1]: 3 or 6, §0.2.5).
_RESIDUES: dict[Tile, tuple[int, ...]] = {t: tuple(sorted({v % 10 for v in pip_choices(t)}))
                                          for t in ALL_TILES}

#: Multiset key weight per tile kind; a kind appears at most 7 times before keys collide,
#: far beyond any hand.
_WEIGHT: dict[Tile, int] = {t: 1 << (3 * i) for i, t in enumerate(ALL_TILES)}

_triple_cache: dict[tuple[Tile, ...], bool] = {}
_pair_cache: dict[tuple[Tile, ...], tuple[int, int]] = {}


def _desc(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, reverse=True))


def is_bull(three: Sequence[Tile]) -> bool:
    """TN-4: can these 3 tiles total 10, 20 or 30, wild tiles counted either way?"""
    key = _desc(three)
    hit = _triple_cache.get(key)
    if hit is None:
        a, b, c = key
        hit = any((x + y + z) % 10 == 0
                  for x in _RESIDUES[a] for y in _RESIDUES[b] for z in _RESIDUES[c])
        _triple_cache[key] = hit
    return hit


def rest_values(two: Sequence[Tile]) -> tuple[int, int]:
    """TN-5: (v1, v2) value of the two tiles beside a bull, wild tiles chosen afresh for each
    version: v1 counts a remainder of 0 as 10, v2 as 0."""
    key = _desc(two)
    hit = _pair_cache.get(key)
    if hit is None:
        a, b = key
        sums = [(x + y) % 10 for x in _RESIDUES[a] for y in _RESIDUES[b]]
        hit = (max(s or 10 for s in sums), max(sums))
        _pair_cache[key] = hit
    return hit


#: The 10 ways to split 5 positions into a bull of 3 and a rest of 2.
_SPLITS: tuple[tuple[tuple[int, int, int], tuple[int, int]], ...] = tuple(
    (tri, tuple(i for i in range(5) if i not in tri)) for tri in combinations(range(5), 3)
)

_NO_BULL = HandValue(False, 0, 0, None, None)


def _evaluate_desc(hand: tuple[Tile, ...]) -> HandValue:
    """Best bull of a hand sorted high-first, by trying all 10 splits (TN-7)."""
    best1 = best2 = -1
    bull1 = bull2 = None
    triples, pairs = _triple_cache, _pair_cache
    for (i, j, k), (m, n) in _SPLITS:
        tri = (hand[i], hand[j], hand[k])  # already high-first: the caches' key form
        hit = triples.get(tri)
        if hit is None:
            hit = is_bull(tri)
        if not hit:
            continue
        two = (hand[m], hand[n])
        v1, v2 = pairs.get(two) or rest_values(two)
        if v1 > best1:
            best1, bull1 = v1, tri
        if v2 > best2:
            best2, bull2 = v2, tri
    if bull1 is None:
        return _NO_BULL
    return HandValue(True, best1, best2, bull1, bull2)


def _hand_key(hand: Sequence[Tile]) -> int:
    w = _WEIGHT
    return sum(w[t] for t in hand)


def distinct_hands(deck: Counter = CHINESE_32) -> Iterator[tuple[Tile, ...]]:
    """Every distinct 5-tile hand (multiset) the deck can deal, high-first."""
    kinds = sorted(deck, reverse=True)
    copies = dict(deck)
    for hand in combinations_with_replacement(kinds, HAND_SIZE):
        # Copies of a kind are adjacent in a sorted hand: count each run against the deck.
        run = 1
        for i in range(1, HAND_SIZE):
            if hand[i] == hand[i - 1]:
                run += 1
                if run > copies[hand[i]]:
                    break
            else:
                run = 1
        else:
            yield hand


_TABLE: dict[int, HandValue] = {}


def build_table() -> dict[int, HandValue]:
    """Fill the lookup table of all 33,934 hands of the 32 set (about 0.3 s, done once)."""
    if not _TABLE:
        table = {_hand_key(h): _evaluate_desc(h) for h in distinct_hands()}
        _TABLE.update(table)
    return _TABLE


def hand_value(hand: Sequence[Tile]) -> HandValue:
    """Best value of a 5-tile hand, any order (TN-4 … TN-7), by table lookup."""
    w = _WEIGHT
    a, b, c, d, e = hand
    key = w[a] + w[b] + w[c] + w[d] + w[e]
    hit = (_TABLE or build_table()).get(key)
    if hit is None:  # not a hand of the 32 set (a caller outside the record reader)
        hit = _TABLE[key] = _evaluate_desc(_desc(hand))
    return hit


def best_value(hand: Sequence[Tile], version: str = "v2") -> int:
    hv = hand_value(hand)
    return hv.v1 if version == "v1" else hv.v2
