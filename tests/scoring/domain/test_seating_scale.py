"""The balanced seating at scale: the fast greedy placement and swaps (which read only the tables
of the players one met, and only the tables holding a repeat) give the very seatings of the plain
algorithm they replace, kept here as the reference; the swaps stop at their bound; 10,000
players are seated in a few seconds at most."""

from __future__ import annotations

import random
import time
from itertools import combinations

import pytest

from scoring.domain import seating
from scoring.domain.seating import pair, pair_counts, repeated_pairs


def plain_greedy(players, sizes, counts, lots):
    met = {}
    for key, times in counts.items():
        for p in key:
            met[p] = met.get(p, 0) + times
    tables = [[] for _ in sizes]
    for p in sorted(players, key=lambda p: (-met.get(p, 0), lots[p])):
        best = min((i for i, size in enumerate(sizes) if len(tables[i]) < size),
                   key=lambda i: (sum(counts[pair(p, q)] for q in tables[i]), len(tables[i]) - sizes[i], i))
        tables[best].append(p)
    return tables


def plain_improved(tables, counts):
    tables = [list(t) for t in tables]

    def cost(p, table, without):
        return sum(counts[pair(p, q)] for q in table if q != without and q != p)

    for _ in range(seating.MAX_PASSES):
        swapped = False
        for i, j in combinations(range(len(tables)), 2):
            a, b = tables[i], tables[j]
            for x in range(len(a)):
                for y in range(len(b)):
                    p, q = a[x], b[y]
                    if (cost(p, b, q) + cost(q, a, p)) - (cost(p, a, p) + cost(q, b, q)) < 0:
                        a[x], b[y] = q, p
                        swapped = True
        if not swapped:
            break
    return tables


def history_of(players, size, sessions, rng):
    players = list(players)
    out = []
    for _ in range(sessions):
        rng.shuffle(players)
        out += [players[i:i + size] for i in range(0, len(players) - len(players) % size, size)]
    return out


@pytest.mark.parametrize("trial", range(40))
def test_the_fast_balanced_seating_is_the_plain_one(trial):
    rng = random.Random(trial)
    n = rng.randint(4, 160)
    counts_allowed = rng.choice([[4], [3, 4], [2, 3, 4, 5, 6]])
    size = rng.choice(counts_allowed)
    players = list(range(n))
    counts = pair_counts(history_of(players, size, rng.randint(0, 6), rng))
    lots = dict(zip(players, rng.sample(range(n), n)))
    try:
        sizes, _ = seating.table_sizes(n, table_size=size, player_counts=counts_allowed, leftovers="smaller_tables")
    except seating.SeatingError:   # not seatable so: sit-outs, the same tables
        sizes, _ = seating.table_sizes(n, table_size=size, player_counts=counts_allowed, leftovers="sit_out")
        players = players[:sum(sizes)]
    greedy = seating._greedy(players, sizes, counts, lots)
    assert greedy == plain_greedy(players, sizes, counts, lots)
    drawn = [players[i:i + s] for i, s in zip([sum(sizes[:k]) for k in range(len(sizes))], sizes)]
    for start in (greedy, drawn):
        assert seating._improved(start, counts) == plain_improved(start, counts)


def test_the_swaps_stop_at_their_bound_the_same_way_every_time():
    rng = random.Random(7)
    players = list(range(400))
    counts = pair_counts(history_of(players, 4, 8, rng))
    drawn = [players[i:i + 4] for i in range(0, 400, 4)]
    unbounded = seating._improved(drawn, counts)
    bounded = seating._improved(drawn, counts, budget=2_000)
    assert bounded == seating._improved(drawn, counts, budget=2_000)      # deterministic
    assert repeated_pairs(unbounded, counts) <= repeated_pairs(bounded, counts) < repeated_pairs(drawn, counts)
    assert sorted(p for t in bounded for p in t) == players


def test_ten_thousand_players_are_seated_in_seconds():
    rng = random.Random(3)
    players = list(range(10_000))
    history = history_of(players, 4, 3, rng)
    for method in seating.METHODS:
        began = time.perf_counter()
        plan = seating.seat(method=method, players=players, table_size=4, player_counts=[4], leftovers="sit_out",
                            seed="big", history=history)
        took = time.perf_counter() - began
        assert len(plan.tables) == 2_500 and sorted(p for t in plan.tables for p in t) == players
        assert took < 8, (method, took)    # about 1 s for balanced alone on the development machine
    assert repeated_pairs(plan.tables, history) == 0
