"""Da Ling (打零, "play zeroes"), RULES.md §8: record checks, matching groups and settlement.

Each player splits six tiles into groups of 1, 2 and 3 tiles and bets on each (DL-2). The two
table tiles fix a target digit and a colour (DL-3, DL-4); groups that can reach the target win
by colour pips, or one player matching all three takes everything (DL-6 … DL-10).
"""

from __future__ import annotations

from itertools import product
from typing import Sequence

from .decks import CHINESE_32
from .record import (Common, Problems, check_deck, check_seat_count, read_list, read_tile_list,
                     seats_readable)
from .settlement import nets_from_transfers
from .tiles import RED_BLACK, Tile, pip_choices

GROUP_SIZES = (1, 2, 3)
GROUP_NAMES = ("1-tile group", "2-tile group", "3-tile group")
#: DL-4: the game is red when the table tiles carry at least this many red pips.
RED_THRESHOLD = 4
#: DL-11 variant: what an absolute winner gives the house.
CASINO_CHIP = 1


def target_and_colour(table: Sequence[Tile]) -> tuple[int, str]:
    """DL-3, DL-4: the table's mod-10 value at face value (never wild) and the game's colour."""
    target = sum(a + b for a, b in table) % 10
    red = sum(RED_BLACK[t][0] for t in table)
    return target, ("red" if red >= RED_THRESHOLD else "black")


_residue_cache: dict[tuple[Tile, ...], frozenset[int]] = {}


def residues(group: Sequence[Tile]) -> frozenset[int]:
    """Every mod-10 value the group can take, [4:2] and [2:1] counting 3 or 6 (DL-5)."""
    key = tuple(sorted(group))
    hit = _residue_cache.get(key)
    if hit is None:
        hit = frozenset(sum(c) % 10 for c in product(*(pip_choices(t) for t in key)))
        _residue_cache[key] = hit
    return hit


def matches(group: Sequence[Tile], target: int) -> bool:
    """DL-5: the group can be made worth the target."""
    return target in residues(group)


def colour_pips(tiles: Sequence[Tile], colour: str) -> int:
    """Pips of the game's colour (§1.2); wild tiles count at face value here."""
    i = 0 if colour == "red" else 1
    return sum(RED_BLACK[t][i] for t in tiles)


def _top(candidates: list[int], score: Sequence[int]) -> int | None:
    """The one candidate with the highest score, or None if there is none or a tie."""
    if not candidates:
        return None
    best = max(score[s] for s in candidates)
    leaders = [s for s in candidates if score[s] == best]
    return leaders[0] if len(leaders) == 1 else None


def settle(matched: Sequence[Sequence[bool]], pips: Sequence[Sequence[int]], stakes: Sequence[int],
           absolute_tie: str = "groups", casino_chip: bool = False) -> dict:
    """Decide the winners and the payments from per-seat, per-group matches and colour pips.

    Returns ``absolute_winner``, ``group_winners``, ``house`` and ``transfers`` (DL-6 … DL-12);
    what one seat pays another over several groups is one transfer.
    """
    n = len(matched)
    totals = [sum(row) for row in pips]
    full = [s for s in range(n) if all(matched[s])]
    absolute = _top(full, totals)  # DL-6, DL-7
    pushed = absolute is None and len(full) > 1 and absolute_tie == "push"  # DL-8 variant
    owed: dict[tuple[int, int | None], int] = {}  # (payer, receiver) -> amount, in order of first payment

    def owe(payer: int, receiver: int | None, amount: int) -> None:
        owed[(payer, receiver)] = owed.get((payer, receiver), 0) + amount

    group_winners: list[int | None] = [None] * len(GROUP_SIZES)
    house = 0
    if absolute is not None:
        whole = sum(stakes)
        for s in range(n):
            if s != absolute:
                owe(s, absolute, whole)
        if casino_chip:  # DL-11
            owe(absolute, None, CASINO_CHIP)
            house = CASINO_CHIP
    elif not pushed:
        for g, stake in enumerate(stakes):  # DL-9, DL-10
            winner = _top([s for s in range(n) if matched[s][g]], [pips[s][g] for s in range(n)])
            group_winners[g] = winner
            if winner is not None:
                for s in range(n):
                    if s != winner:
                        owe(s, winner, stake)
    transfers = [{"from": a, "to": b, "amount": amt} for (a, b), amt in owed.items() if amt > 0]
    return {"absolute_winner": absolute, "group_winners": group_winners, "house": house,
            "transfers": transfers}


# ---------------------------------------------------------------------------------------
# Reading the record (ROUND_RECORD.md §4)

def _read_groups(record: dict, common: Common, n: int | None,
                 p: Problems) -> list[list[list[Tile] | None] | None] | None:
    if "groups" not in record:
        p.error("groups", "missing_field", "List every player's 1-, 2- and 3-tile groups (groups).")
        return None
    raw = read_list(record["groups"], "groups", p, "The groups list", length=n)
    if raw is None:
        return None
    out: list[list[list[Tile] | None] | None] = []
    for seat, entry in enumerate(raw):
        name = common.seats[seat] if seat < common.n and common.seats[seat] else f"Seat {seat}"
        three = read_list(entry, f"groups[{seat}]", p, f"{name}'s groups", length=len(GROUP_SIZES))
        if three is None:
            out.append(None)
            continue
        out.append([read_tile_list(grp, f"groups[{seat}][{g}]", p, f"{name}'s {GROUP_NAMES[g]}",
                                   length=GROUP_SIZES[g])
                    for g, grp in enumerate(three)])
    return out


def evaluate(record: dict, common: Common, p: Problems) -> dict | None:
    """Check and settle a Da Ling record (ROUND_RECORD.md §4, RULES.md §8)."""
    variant = common.variant
    n: int | None = None
    if seats_readable(record) and check_seat_count(common, range(2, 6), p):
        n = common.n  # DL-1: 2 to 5 players; the banker is not a seat (DL-12)
    if "table" in record:
        table = read_tile_list(record["table"], "table", p, "The table", length=2)
    else:
        table = None
        p.error("table", "missing_field", "Give the two table tiles (table).")
    groups = _read_groups(record, common, n, p)

    placed = [(t, f"table[{k}]") for k, t in enumerate(table or [])]
    for seat, three in enumerate(groups or []):
        for g, grp in enumerate(three or []):
            placed.extend((t, f"groups[{seat}][{g}][{k}]") for k, t in enumerate(grp or []))
    check_deck(placed, CHINESE_32, p)
    if p.errors or n is None or table is None or groups is None:
        return None

    target, colour = target_and_colour(table)
    matched = [[matches(grp, target) for grp in three] for three in groups]  # type: ignore[union-attr]
    pips = [[colour_pips(grp, colour) for grp in three] for three in groups]  # type: ignore[union-attr]
    result = settle(matched, pips, variant["stakes"], variant["absolute_tie"], variant["casino_chip"])
    nets = nets_from_transfers(n, result["transfers"])
    seats = [{"name": common.seats[s],
              "groups": [{"matches": m, "colour_pips": c} for m, c in zip(matched[s], pips[s])],
              "colour_pips": sum(pips[s]),
              "net": nets[s]} for s in range(n)]
    return {"target": target, "colour": colour, "absolute_winner": result["absolute_winner"],
            "group_winners": result["group_winners"], "house": result["house"],
            "seats": seats, "transfers": result["transfers"]}
