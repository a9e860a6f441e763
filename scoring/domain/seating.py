"""Seating a session: who sits at which table, in which seat, and who sits out. Pure: plain data
in and out (players are any hashable ids, entry ids in the app), no Django, no queries; the
service ``services.seating.session_seat`` reads the history and writes the tables.

- **Table sizes** (``table_sizes``): the director picks a size the game allows. With
  ``leftovers="sit_out"`` every table has that size and the rest sit out. With
  ``"smaller_tables"`` everybody plays, at the fewest tables that seat them, their sizes as
  equal as the game allows and none above the chosen size (10 at Jie Long, size 4: 4, 3, 3).
- **Sit-outs** (every method): whoever sat out least so far sits out next; ties by lot (the seed).
  So over sessions (the same players each time) any two players sit out as often, give or take one.
- **Methods**: ``random`` (a seeded shuffle); ``standings`` (in the order given, strongest first:
  table 1 seats the leaders, table by table); ``balanced`` (fewest repeated opponents: each pair
  that already sat together costs one per earlier meeting; a greedy placement of the most-met
  players first, improved by swapping players between tables until no swap helps — the way
  Swiss pairings (lichess) and Pantheon's seating for riichi avoid rematches; the seeded random
  seating is improved the same way and the cheaper of the two is kept, so ``balanced`` never
  repeats more pairs than ``random`` with the same seed and history).

Everything that is left to chance is drawn from ``random.Random(seed)``: the same players,
history and seed always give the same seating. Seat order within a table (= playing order) is
drawn by lot too, except that ``random`` is a shuffle already.
"""

from __future__ import annotations

import random
from bisect import bisect_left, insort
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

METHODS = ("random", "standings", "balanced")
LEFTOVERS = ("smaller_tables", "sit_out")

#: Swap passes of the balanced method at most; each pass that changes nothing ends it earlier.
MAX_PASSES = 50
#: Swaps the balanced method weighs at most (each of its two candidates): a count, not a clock,
#: so the same seed gives the same seating on any machine. A club's tournament (a few hundred
#: players: 300 pairs of tables x 16 swaps x 50 passes at most) never reaches it; 10,000
#: players with repeats at many tables stop there, about a second of swapping
#: (bench/seating.py, docs/benchmarks.md).
MAX_SWAP_CHECKS = 500_000


class SeatingError(ValueError):
    """The players cannot be seated as asked. ``path``: the request field at fault."""

    def __init__(self, path: str, code: str, message: str):
        super().__init__(message)
        self.path, self.code, self.message = path, code, message


@dataclass(frozen=True)
class Plan:
    """A session's seating: the tables (players by seat position, table 1 first) and who sits out."""

    tables: tuple[tuple[Hashable, ...], ...]
    sit_outs: tuple[Hashable, ...]


def pair(a: Hashable, b: Hashable) -> frozenset:
    return frozenset((a, b))


def pair_counts(history: Sequence[Sequence[Hashable]]) -> Counter:
    """How often each pair of players sat at one table, over earlier tables."""
    counts: Counter = Counter()
    for table in history:
        for a, b in combinations(table, 2):
            counts[pair(a, b)] += 1
    return counts


def repeated_pairs(tables: Sequence[Sequence[Hashable]], history: Sequence[Sequence[Hashable]] | Counter) -> int:
    """The cost of a seating given the history: over every pair at a table, how many times that
    pair met before (a pair meeting for the third time costs 2)."""
    counts = history if isinstance(history, Counter) else pair_counts(history)
    return sum(counts[pair(a, b)] for table in tables for a, b in combinations(table, 2))


# ---------------------------------------------------------------------------------------------
# Table sizes

def table_sizes(n: int, *, table_size: int, player_counts: Sequence[int], leftovers: str) -> tuple[list[int], int]:
    """The sizes of the tables (largest first) for ``n`` players, and how many sit out."""
    if table_size not in player_counts:
        raise SeatingError("table_size", "wrong_player_count",
                           f"Tables of {table_size} are not allowed; choose {_in_words(player_counts)}.")
    if leftovers not in LEFTOVERS:
        raise SeatingError("leftovers", "invalid_choice", f"leftovers is {_in_words(LEFTOVERS)}.")
    lowest = min(player_counts)
    if n < (table_size if leftovers == "sit_out" else lowest):
        raise SeatingError("entries", "too_few_players",
                           f"{n} player{'s' if n != 1 else ''} cannot fill a table of "
                           f"{table_size if leftovers == 'sit_out' else lowest}.")
    if leftovers == "sit_out":
        return [table_size] * (n // table_size), n % table_size
    allowed = sorted(c for c in player_counts if c <= table_size)
    sizes = _even_tables(n, allowed)
    if sizes is None:
        raise SeatingError("leftovers", "cannot_seat_everyone",
                           f"{n} players cannot all sit at tables of {_in_words(allowed)}: let the leftovers sit out.")
    return sizes, 0


def _even_tables(n: int, allowed: list[int]) -> list[int] | None:
    """The fewest tables seating exactly ``n``, sizes from ``allowed`` (ascending), at most two
    sizes and as close as possible; None if there are none."""
    largest, smallest = allowed[-1], allowed[0]
    for count in range(-(-n // largest), n // smallest + 1):
        for spread in range(largest - smallest + 1):
            for big in reversed(allowed):
                small = big - spread
                if small not in allowed:
                    continue
                if spread == 0:
                    if count * big == n:
                        return [big] * count
                    continue
                # ``k`` tables of ``big`` and the rest of ``small``: count*small + k*spread = n.
                k, rest = divmod(n - count * small, spread)
                if rest == 0 and 0 <= k <= count:
                    return [big] * k + [small] * (count - k)
    return None


def _in_words(values: Sequence) -> str:
    shown = [str(v) for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


# ---------------------------------------------------------------------------------------------
# Seating

def seat(*, method: str, players: Sequence[Hashable], table_size: int, player_counts: Sequence[int],
         leftovers: str, seed: str, history: Sequence[Sequence[Hashable]] = (),
         sat_out: Mapping[Hashable, int] | None = None) -> Plan:
    """Seat ``players`` for one session.

    ``players``: who plays this session, strongest first for ``standings`` (any order otherwise:
    the result does not depend on it for ``random`` and ``balanced``). ``history``: the earlier
    sessions' tables (players by seat), for ``balanced``. ``sat_out``: how many sessions each
    player sat out so far (missing: none). ``seed``: the draw; the same arguments always give
    the same plan."""
    if method not in METHODS:
        raise SeatingError("method", "invalid_choice", f"method is {_in_words(METHODS)}.")
    if len(set(players)) != len(players):
        raise SeatingError("entries", "duplicate_entry", "Each player may be listed once.")
    sizes, out = table_sizes(len(players), table_size=table_size, player_counts=player_counts, leftovers=leftovers)
    rng = random.Random(str(seed))
    # One lot per player, drawn over the players in sorted order, so that the order they are
    # given in does not matter (except for ``standings``, where it is the ranking), nor the ids
    # themselves: only how they sort.
    canonical = _sorted(players)
    lots = dict(zip(canonical, rng.sample(range(len(canonical)), len(canonical)), strict=True))
    sat_out = sat_out or {}
    sit_outs = sorted(players, key=lambda p: (sat_out.get(p, 0), lots[p]))[:out]
    resting = set(sit_outs)
    playing = [p for p in players if p not in resting]
    if method == "random":
        tables = _chunks(sorted(playing, key=lots.__getitem__), sizes)
    elif method == "standings":
        tables = [_by_lot(t, rng) for t in _chunks(playing, sizes)]
    else:
        counts = pair_counts(history)
        drawn = _chunks(sorted(playing, key=lots.__getitem__), sizes)
        candidates = [_improved(_greedy(playing, sizes, counts, lots), counts), _improved(drawn, counts)]
        best = min(candidates, key=lambda t: repeated_pairs(t, counts))  # the greedy one on a tie
        tables = [_by_lot(t, rng) for t in best]
    return Plan(tuple(tuple(t) for t in tables), tuple(sorted(sit_outs, key=lots.__getitem__)))


def _sorted(players: Sequence[Hashable]) -> list[Hashable]:
    try:
        return sorted(players)
    except TypeError:   # ids that do not compare with each other
        return sorted(players, key=repr)


def _chunks(players: Sequence[Hashable], sizes: Sequence[int]) -> list[list[Hashable]]:
    out, start = [], 0
    for size in sizes:
        out.append(list(players[start:start + size]))
        start += size
    return out


def _by_lot(table: list[Hashable], rng: random.Random) -> list[Hashable]:
    """The table's players in seat order drawn by lot (who sits where is nobody's choice)."""
    return rng.sample(table, len(table))


def _neighbours(counts: Counter) -> dict[Hashable, dict[Hashable, int]]:
    """Who met whom, how often: ``counts`` by player (so a player's costs read only the few
    players they met, not every table)."""
    met: dict[Hashable, dict[Hashable, int]] = {}
    for key, times in counts.items():
        if times and len(key) == 2:
            a, b = tuple(key)
            met.setdefault(a, {})[b] = times
            met.setdefault(b, {})[a] = times
    return met


def _greedy(players: Sequence[Hashable], sizes: Sequence[int], counts: Counter,
            lots: Mapping[Hashable, int]) -> list[list[Hashable]]:
    """Place the players who met most others first, each at the table where they have met the
    fewest (then the emptiest table, then the first).

    Only the tables of the players one met can cost anything: every other table costs 0, and
    the best of those is the first of the emptiest (kept by number of free seats), so each
    placement reads a player's few neighbours instead of every table."""
    met = _neighbours(counts)
    total = {p: sum(m.values()) for p, m in met.items()}
    tables: list[list[Hashable]] = [[] for _ in sizes]
    free = list(sizes)
    by_free: dict[int, list[int]] = {}     # free seats → the tables with that many, by number
    for i, size in enumerate(sizes):
        by_free.setdefault(size, []).append(i)
    most = max(sizes, default=0)
    where: dict[Hashable, int] = {}
    for p in sorted(players, key=lambda p: (-total.get(p, 0), lots[p])):
        near: dict[int, int] = {}
        for q, times in met.get(p, {}).items():
            i = where.get(q)
            if i is not None and free[i]:
                near[i] = near.get(i, 0) + times
        best = next((i for f in range(most, 0, -1) for i in by_free.get(f, ()) if i not in near), None)
        if best is None:
            best = min(near, key=lambda i: (near[i], -free[i], i))
        tables[best].append(p)
        where[p] = best
        by_free[free[best]].remove(best)
        free[best] -= 1
        if free[best]:
            insort(by_free.setdefault(free[best], []), best)
    return tables


def _improved(tables: list[list[Hashable]], counts: Counter, *, budget: int = MAX_SWAP_CHECKS) -> list[list[Hashable]]:
    """Swap players between tables while a swap lowers the cost (first improvement, in a fixed
    order, so the result is reproducible), weighing at most ``budget`` swaps in all.

    A swap can only help when one of its two players has met someone at their own table, so
    pairs of tables where nobody has (\"cold\" tables) are skipped: the same swaps as weighing
    every pair, at a cost that grows with the tables that hold a repeat, not with their square."""
    tables = [list(t) for t in tables]
    met = _neighbours(counts)

    def cost(p: Hashable, table: list[Hashable], without: Hashable) -> int:
        mine = met.get(p)
        if not mine:
            return 0
        return sum(mine.get(q, 0) for q in table if q != without and q != p)

    def is_hot(table: list[Hashable]) -> bool:
        return any(cost(p, table, p) for p in table)

    n = len(tables)
    hot = [is_hot(t) for t in tables]
    hot_list = [i for i in range(n) if hot[i]]
    weighed = 0
    for _ in range(MAX_PASSES):
        swapped = False
        for i in range(n):
            j = i + 1
            while j < n:
                if not hot[i] and not hot[j]:   # jump to the next hot table
                    k = bisect_left(hot_list, j)
                    if k == len(hot_list):
                        break
                    j = hot_list[k]
                    continue
                a, b = tables[i], tables[j]
                changed = False
                for x in range(len(a)):
                    for y in range(len(b)):
                        p, q = a[x], b[y]
                        own = cost(p, a, p) + cost(q, b, q)
                        if own and cost(p, b, q) + cost(q, a, p) < own:
                            a[x], b[y] = q, p
                            changed = True
                weighed += len(a) * len(b)
                if changed:
                    swapped = True
                    for t in (i, j):
                        now = is_hot(tables[t])
                        if now != hot[t]:
                            hot[t] = now
                            if now:
                                insort(hot_list, t)
                            else:
                                hot_list.remove(t)
                if weighed >= budget:
                    return tables
                j += 1
        if not swapped:
            break
    return tables
