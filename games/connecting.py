"""The three record levels the connecting games share (ROUND_RECORD.md §2a–2c): points,
unplayed_tiles and the moves log, read into one ``Outcome``, and the result every connecting
game returns (``result_body``). The games score in their own modules: ``jie_long.py``,
``ce_deng.py``, ``kko_li_but_i_gi.py`` and ``ding_niu.py``, each reading its records with
``read_deal`` from here (RULES.md §2).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .decks import CONNECTING_DEALS, deck_name, deck_pips
from .layout import BLOCKED, Replay, Watch, must_play_warnings, quick_replay, replay
from .moves import TILE_BY_TEXT, fast_tile, read_moves
from .record import MAX_LIST, Common, Problems, check_deck, check_seat_count, is_int, read_list
from .settlement import Transfer, nets_from_transfers
from .tiles import Tile
from .words import gettext_noop

LEVELS = ("points", "unplayed_tiles", "moves")

#: Games whose points records must give the unplayed counts too: Ce Deng tells clean and
#: penalty hands by them (CD-4).
UNPLAYED_REQUIRED = frozenset({"ce_deng"})

#: Biggest points figure worth looking at; no deck holds more than 227 pips.
MAX_POINTS = 10_000


@dataclass
class Outcome:
    """One deal as the record shows it, whatever its level."""

    level: str                                  # "points" | "unplayed_tiles" | "moves"
    points: list[int]
    unplayed: list[int] | None                  # None when a points record leaves it out
    # CG-12: only a full log can show a block; the shorter levels report false, as the
    # output contract's example does (ROUND_RECORD.md §2).
    blocked: bool = False
    tiles: list[list[Tile]] | None = None      # unplayed tiles per seat (not at points level)
    left: list[list[Tile]] | None = None       # kept in hand at the end (moves level only)
    replay: Replay | None = None

    @property
    def hands(self) -> list[list[Tile]] | None:
        """The dealt hands, known from a full log only: every tile used plus what was kept."""
        if self.replay is None:
            return None
        return [used + kept for used, kept in zip(self.replay.used, self.left, strict=True)]


# ---------------------------------------------------------------------------------------
# Pip totals a number of tiles can make (§2a)

def _totals_by_count(deck, max_count: int) -> tuple[frozenset[int], ...]:
    """For k = 0..max_count, every pip total that k tiles drawn from the deck can make."""
    reach: list[set[int]] = [set() for _ in range(max_count + 1)]
    reach[0].add(0)
    for (a, b), copies in sorted(deck.items()):
        value = a + b
        # Go through the counts from the top so each copy of this tile is used at most once.
        for k in range(max_count, 0, -1):
            for used in range(1, min(copies, k) + 1):
                add = used * value
                reach[k].update(t + add for t in reach[k - used])
    return tuple(frozenset(r) for r in reach)


@dataclass(frozen=True)
class DeckTotals:
    """What the points check needs of one deck and deal size, computed once (§2a)."""

    by_count: tuple[frozenset[int], ...]   # index k: totals of exactly k tiles
    leader: frozenset[int]                  # totals of 0 .. deal−1 tiles
    other: frozenset[int]                   # totals of 0 .. deal tiles
    pips: int                               # the whole deck


_DECK_TOTALS: dict[tuple[int, int], DeckTotals] = {}


def deck_totals(deck, deal: int) -> DeckTotals:
    key = (id(deck), deal)
    found = _DECK_TOTALS.get(key)
    if found is None:
        by_count = _totals_by_count(deck, deal)
        found = DeckTotals(by_count=by_count, leader=frozenset().union(*by_count[:deal]),
                           other=frozenset().union(*by_count), pips=deck_pips(deck))
        _DECK_TOTALS[key] = found
    return found


def nearest_totals(value: int, possible: frozenset[int]) -> str:
    """'4 or 6 are' / 'the nearest is 4': the possible totals on either side of value."""
    below = max((t for t in possible if t < value), default=None)
    above = min((t for t in possible if t > value), default=None)
    near = [t for t in (below, above) if t is not None]
    if len(near) == 2:
        return f"{near[0]} or {near[1]} are"
    if near:
        return f"{near[0]} is"
    return "none are"


# ---------------------------------------------------------------------------------------
# Reading a record of any level

def fits_deck(tiles: list[Tile], deck) -> bool:
    """Quick deck check without paths; check_deck words the error when this fails."""
    get = deck.get
    for t, c in Counter(tiles).items():
        if get(t, 0) < c:
            return False
    return True


def read_deal(record: dict, common: Common, p: Problems, *, two_arms: bool,
              watch: Watch | None = None) -> Outcome | None:
    """Check the seat count, pick the one level given and read it (§2a–2c).

    None when the record cannot be scored; the reasons are in ``p``. Errors found before
    (say, in the seat names) do not stop the reading: every error gets reported.
    """
    deals = CONNECTING_DEALS[common.game]
    if not check_seat_count(common, deals, p):
        return None
    q = Problems()  # this reading's own problems, so earlier ones do not cut it short
    out = _read_level(record, common, deals[common.n], two_arms, watch, q)
    p.errors.extend(q.errors)
    p.warnings.extend(q.warnings)
    return None if q.errors else out


def _read_level(record: dict, common: Common, deck_deal: tuple, two_arms: bool, watch: Watch | None,
                p: Problems) -> Outcome | None:
    deck, deal = deck_deal
    given = [level for level in LEVELS if level in record]
    if not given:
        p.error("", "missing_level",
                gettext_noop("Give the outcome of the deal: points, unplayed_tiles or the moves log (exactly one)."))
        return None
    for extra in given[1:]:
        p.error(extra, "two_levels",
                f"Give exactly one of points, unplayed_tiles or moves, not both {given[0]} and {extra}.")
    if "unplayed" in record and given[0] != "points":
        p.error("unplayed", "unexpected_field", gettext_noop("unplayed goes only with points."))
    if "left_in_hand" in record and given[0] != "moves":
        p.error("left_in_hand", "unexpected_field", gettext_noop("left_in_hand goes only with the moves log."))
    if p:
        return None
    if given[0] == "points":
        return _read_points(record, common, deck, deal, p)
    if given[0] == "unplayed_tiles":
        return _read_unplayed_tiles(record, common, deck, deal, p)
    return _read_moves(record, common, deck, deal, two_arms, watch, p)


def _read_points(record: dict, common: Common, deck, deal: int, p: Problems) -> Outcome | None:
    n = common.n
    points = read_list(record["points"], "points", p, "points", length=n)
    if points is None:
        return None
    for i, v in enumerate(points):
        if not is_int(v) or v < 0:
            p.error(f"points[{i}]", "bad_points", gettext_noop("Points are a whole number, 0 or more."))
        elif v > MAX_POINTS:
            p.error(f"points[{i}]", "impossible_points", f"{v} is far more than any hand can hold.")
    counts = None
    if "unplayed" in record:
        counts = read_list(record["unplayed"], "unplayed", p, "unplayed", length=n)
        if counts is not None:
            for i, v in enumerate(counts):
                most = deal - 1 if i == 0 else deal
                if not is_int(v) or v < 0:
                    p.error(f"unplayed[{i}]", "bad_unplayed", gettext_noop("unplayed is a whole number of tiles, 0 or more."))
                elif v > most:
                    p.error(f"unplayed[{i}]", "too_many_unplayed", _too_many(common, i, v, deal))
    elif common.game in UNPLAYED_REQUIRED:
        p.error("unplayed", "missing_field",
                gettext_noop("Ce Deng needs unplayed (tiles not played face up per seat) to tell clean and penalty hands."))
    if p:
        return None
    name = deck_name(deck)
    totals = deck_totals(deck, deal)
    for i, v in enumerate(points):
        if counts is not None:
            k = counts[i]
            if k == 0 and v != 0:
                p.error(f"points[{i}]", "impossible_points",
                        f"{common.seats[i]} played every tile face up, so has 0 points, not {v}.")
                continue
            if k > 0 and v == 0:
                p.error(f"points[{i}]", "impossible_points",
                        f"{common.seats[i]} has {k} unplayed tile{'s' if k > 1 else ''}, so cannot have 0 points.")
                continue
            possible = totals.by_count[k]
            if v not in possible:
                p.error(f"points[{i}]", "impossible_points",
                        f"{v} is not possible with {k} tile{'s' if k > 1 else ''} of {name}; "
                        f"{nearest_totals(v, possible)}.")
        else:
            possible = totals.leader if i == 0 else totals.other
            if v not in possible:
                p.error(f"points[{i}]", "impossible_points",
                        f"{v} is not possible with {name}; {nearest_totals(v, possible)}.")
    if not p:
        whole = totals.pips
        if sum(points) > whole:
            p.error("points", "impossible_points",
                    f"Together the seats have {sum(points)} points, but {name} holds only {whole} pips.")
    if p:
        return None
    return Outcome(level="points", points=list(points), unplayed=list(counts) if counts is not None else None)


def _too_many(common: Common, seat: int, count: int, deal: int) -> str:
    if seat == 0:
        return (f"{common.seats[0]} led, so at most {deal - 1} of his {deal} tiles can be unplayed, "
                f"not {count}.")
    return f"{common.seats[seat]} was dealt {deal} tiles, so cannot have {count} unplayed."


def _read_unplayed_tiles(record: dict, common: Common, deck, deal: int, p: Problems) -> Outcome | None:
    n = common.n
    rows = read_list(record["unplayed_tiles"], "unplayed_tiles", p, "unplayed_tiles", length=n)
    if rows is None:
        return None
    tiles: list[list[Tile]] = []
    placed: list[tuple[Tile, str]] = []
    ok = True
    for i, row in enumerate(rows):
        path = f"unplayed_tiles[{i}]"
        if not isinstance(row, list):
            p.error(path, "bad_type", gettext_noop("Each seat's unplayed tiles are a list (empty when all were played)."))
            ok = False
            tiles.append([])
            continue
        most = deal - 1 if i == 0 else deal
        if len(row) > most:
            p.error(path, "too_many_unplayed", _too_many(common, i, len(row), deal))
            ok = False
            row = row[:MAX_LIST]
        seat_tiles = []
        for j, v in enumerate(row):
            t = fast_tile(v, f"{path}[{j}]", p)
            if t is None:
                ok = False
            else:
                seat_tiles.append(t)
                placed.append((t, f"{path}[{j}]"))
        tiles.append(seat_tiles)
    check_deck(placed, deck, p)
    if not ok or p:
        return None
    return Outcome(level="unplayed_tiles", points=[sum(a + b for a, b in ts) for ts in tiles],
                   unplayed=[len(ts) for ts in tiles], tiles=tiles)


def _read_moves(record: dict, common: Common, deck, deal: int, two_arms: bool, watch: Watch | None,
                p: Problems) -> Outcome | None:
    n = common.n
    quick = quick_replay(record["moves"], record.get("left_in_hand"), n, deal, two_arms, deck, watch)
    if quick is not None:
        rep, left = quick
    else:
        if watch is not None:
            watch.reset()
        found = _replay_carefully(record, common, deck, deal, two_arms, watch, p)
        if found is None:
            return None
        rep, left = found
    tiles = [rep.down[s] + left[s] for s in range(n)]
    if not common.variant.get("voluntary_pass", False):
        must_play_warnings(rep, left, common.seats, p)
    # sum(tile) is a tile's pips: the whole sum runs in C.
    return Outcome(level="moves", points=[sum(map(sum, ts)) for ts in tiles],
                   unplayed=[len(ts) for ts in tiles], blocked=rep.end == BLOCKED, tiles=tiles,
                   left=left, replay=rep)


def _replay_carefully(record: dict, common: Common, deck, deal: int, two_arms: bool, watch: Watch | None,
                      p: Problems) -> tuple[Replay, list[list[Tile]]] | None:
    """Read and replay the log step by step, wording every error found (§2c)."""
    n = common.n
    total = n * deal
    moves = read_moves(record["moves"], p, two_arms=two_arms, max_moves=total)
    left = None
    if "left_in_hand" in record:
        rows = read_list(record["left_in_hand"], "left_in_hand", p, "left_in_hand", length=n)
        if rows is not None:
            left = []
            for i, row in enumerate(rows):
                path = f"left_in_hand[{i}]"
                if not isinstance(row, list):
                    p.error(path, "bad_type", gettext_noop("Each seat's tiles left in hand are a list (empty if none)."))
                    left = None
                    break
                if len(row) > deal:
                    p.error(path, "wrong_count", f"{common.seats[i]} was dealt only {deal} tiles.")
                    left = None
                    break
                seat_left = [TILE_BY_TEXT.get(v) if type(v) is str else None for v in row]
                if None in seat_left:  # read again slowly, to word the errors
                    seat_left = [fast_tile(v, f"{path}[{j}]", p) for j, v in enumerate(row)]
                left.append(seat_left)
    if moves is None or p:
        return None
    all_tiles = [m[1] for m in moves]
    if left is not None:
        for row in left:
            all_tiles += row
    deck_ok = fits_deck(all_tiles, deck)
    if not deck_ok:
        # Only now build the paths, to name the first copy beyond the deck.
        placed = [(m[1], f"moves[{k}].{'play' if m[0] else 'pass'}") for k, m in enumerate(moves)]
        if left is not None:
            placed += [(t, f"left_in_hand[{i}][{j}]") for i, row in enumerate(left) for j, t in enumerate(row)]
        check_deck(placed, deck, p)
    # The replay does not depend on the deck, so it runs anyway and every error gets reported;
    # only the game's watch, which counts the deck's tiles, needs a deck-true log.
    rep = replay(moves, n, deal, two_arms, p, watch if deck_ok else None)
    if rep is None or p:
        return None
    if rep.end is None:
        how = f"every dealt tile used or {n} passes in a row"
        if watch is not None:
            how += " or a smothered SuanZhang"
        p.error("moves", "log_incomplete",
                f"The log stops after {len(moves)} moves, but the deal was not over ({how}).")
        return None
    if left is None:
        if len(moves) < total:
            p.error("left_in_hand", "missing_field",
                    gettext_noop("The deal stopped early; list the tiles each seat still held (left_in_hand)."))
            return None
        left = [[] for _ in range(n)]
    for s in range(n):
        used, kept = len(rep.used[s]), len(left[s])
        if used + kept != deal:
            p.error(f"left_in_hand[{s}]" if "left_in_hand" in record else "moves", "wrong_count",
                    f"{common.seats[s]} used {used} tiles and kept {kept}, but each seat is dealt {deal}.")
    if p:
        return None
    return rep, left


# ---------------------------------------------------------------------------------------
# Output (ROUND_RECORD.md §2 "Output")

def result_body(common: Common, out: Outcome, places: list[int], transfers: list[Transfer], *,
                status: list[str] | None = None, suanzhang: dict | None = None) -> dict:
    """The result of one scored deal, the same shape for every connecting game."""
    nets = nets_from_transfers(common.n, transfers)
    seats = []
    points, unplayed = out.points, out.unplayed
    for s, name in enumerate(common.seats):
        entry = {"name": name, "points": points[s],
                 "unplayed": unplayed[s] if unplayed is not None else None,
                 "place": places[s], "net": nets[s]}
        if status is not None:
            entry["status"] = status[s]
        seats.append(entry)
    winner = places.index(1)
    return {"level": out.level, "seats": seats, "winner": winner, "next_leader": winner,
            "blocked": out.blocked, "suanzhang": suanzhang, "transfers": transfers}


__all__ = ["Outcome", "read_deal", "result_body", "deck_totals"]
