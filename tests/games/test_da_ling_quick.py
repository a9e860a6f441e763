"""Da Ling's precomputed groups and quick reader (games/da_ling.py) against the plain rules:
every group the table holds, the packed deck check, and quick-versus-careful on mangled records."""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import combinations_with_replacement, permutations, product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.da_ling as da_ling
from games import evaluate
from games.da_ling import GROUPS, colour_pips, group_key, matches, residues
from games.decks import CHINESE_32, DING_NIU_24, KKO_LI_24, MAX_PACKED, PACK_WEIGHT, packed_fits
from games.simulate import simulate
from games.tiles import ALL_TILES, RED_BLACK


def _plain_values(group) -> set[int]:
    """DL-5 by hand: [4:2] and [2:1] count 3 or 6, every other tile its pips; mod 10."""
    choices = [(3, 6) if t in ((4, 2), (2, 1)) else (t[0] + t[1],) for t in group]
    return {sum(c) % 10 for c in product(*choices)}


def test_every_group_of_one_to_three_tiles_agrees_with_the_plain_computation():
    seen = 0
    for size in (1, 2, 3):
        for group in combinations_with_replacement(ALL_TILES, size):
            values, red, black = GROUPS[group_key(group)]
            assert set(values) == _plain_values(group) == set(residues(group))
            assert red == sum(RED_BLACK[t][0] for t in group) == colour_pips(group, "red")
            assert black == sum(RED_BLACK[t][1] for t in group) == colour_pips(group, "black")
            for target in range(10):
                assert (target in values) == matches(group, target)
            # The key is the multiset: any order of the same tiles gives it.
            assert {group_key(p) for p in permutations(group)} == {group_key(group)}
            seen += 1
    assert seen == len(GROUPS) == 21 + 231 + 1771


def test_packed_deck_check_agrees_with_counting():
    rng = random.Random(2026)
    for deck_counter in (CHINESE_32, DING_NIU_24, KKO_LI_24):
        deck = [t for t, n in deck_counter.items() for _ in range(n)]
        for _ in range(3000):
            count = rng.randrange(0, MAX_PACKED + 1)
            if rng.random() < 0.5:
                tiles = rng.sample(deck, min(count, len(deck)))  # always fits
                if tiles and rng.random() < 0.5:
                    tiles[rng.randrange(len(tiles))] = rng.choice(ALL_TILES)  # may not
            else:
                tiles = [rng.choice(ALL_TILES) for _ in range(count)]
            fits = all(deck_counter.get(t, 0) >= c for t, c in Counter(tiles).items())
            assert packed_fits(sum(PACK_WEIGHT[t] for t in tiles), deck_counter) == fits


_TEXTS = ["6:4", "4:6", "[6:4]", "2:1", "4:2", "6:6", "7:1", 6, None, ["6:4"], "5:5", "3:1", "1:3", True]


def _mutate(record: dict, rng: random.Random) -> dict:
    record = copy.deepcopy(record)
    if not isinstance(record.get("groups"), list) or not isinstance(record.get("table"), list) or not record["groups"]:
        return record  # an earlier mutation took away what this one would change
    groups, table = record["groups"], record["table"]
    seat = rng.randrange(len(groups))
    g = rng.randrange(3)
    what = rng.randrange(10)
    if what == 0:
        grp = groups[seat][g]
        grp[rng.randrange(len(grp))] = rng.choice(_TEXTS)
    elif what == 1:
        table[rng.randrange(2)] = rng.choice(_TEXTS)
    elif what == 2:
        groups[seat][g].append(rng.choice(_TEXTS))
    elif what == 3:
        groups[seat][g] = groups[seat][g][1:]
    elif what == 4:
        groups[seat] = rng.choice([groups[seat][:2], groups[seat] + [["6:6"]], "x", {}, None])
    elif what == 5:
        record["groups"] = rng.choice([groups[:-1], groups + [groups[0]], tuple(groups)])
    elif what == 6:
        record.pop(rng.choice(["table", "groups", "seats"]), None)
    elif what == 7:
        record["table"] = rng.choice([table[:1], table + ["1:1"], "6:4", None])
    elif what == 8:
        groups[seat][g] = "6:4"
    else:
        other = rng.randrange(len(groups))
        groups[seat][g], groups[other][g] = groups[other][g], groups[seat][g]  # same tiles, still valid
    return record


def _careful(record: dict) -> dict:
    saved = da_ling._quick_read
    da_ling._quick_read = lambda *args: None
    try:
        return evaluate(record)
    finally:
        da_ling._quick_read = saved


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), players=st.integers(2, 5), mutations=st.integers(0, 2),
       casino=st.booleans())
def test_quick_read_agrees_with_the_careful_path(seed, players, mutations, casino):
    record = next(simulate("da_ling", deals=1, seed=seed, level="points", players=players,
                           variant={"casino_chip": casino}))
    rng = random.Random(seed)
    for _ in range(mutations):
        if not (isinstance(record.get("groups"), list) and isinstance(record.get("table"), list)
                and len(record["table"]) == 2 and record["groups"]
                and all(isinstance(r, list) and len(r) == 3 and all(isinstance(x, list) and x for x in r)
                        for r in record["groups"])):
            break
        record = _mutate(record, rng)
    assert evaluate(record) == _careful(record)
