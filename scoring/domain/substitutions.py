"""Who sat where at which deal, once players were substituted. Pure: no queries.

A table's Seat rows name who sits there now; each substitution names the seat, the entry that
left it (``entry_out``), the one that took it (``entry_in``) and the first deal the newcomer
plays (``from_deal``). So the players of deal ``d`` are today's, with every substitution from a
deal after ``d`` taken back, newest first: a correction of deal 3 made after a substitution at
deal 8 still names (and credits) the player who played deal 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


class Change(NamedTuple):
    """One substitution, as the seating reads it (in the order they were made)."""

    seat: int
    entry_in: int
    entry_out: int
    from_deal: int


@dataclass(frozen=True)
class Seating:
    """A table's entries by seat now (``current``) and its substitutions, oldest first."""

    current: tuple[int, ...]
    changes: tuple[Change, ...] = ()

    def at(self, number: int) -> list[int]:
        """The entries by seat at deal ``number``."""
        out = list(self.current)
        for c in reversed(self.changes):
            if number < c.from_deal and c.seat < len(out):
                out[c.seat] = c.entry_out
        return out

    def entries(self) -> set[int]:
        """Every entry that sat at the table, now or before."""
        return {*self.current, *(c.entry_out for c in self.changes)}


@dataclass(frozen=True)
class Stint:
    """One player's time in a seat: deals ``first`` to ``last`` (None: still there)."""

    entry: int
    first: int
    last: int | None


def seat_history(seating: Seating, seat: int) -> list[Stint]:
    """The players of one seat in order, each with the deals they sat there for. A substitution
    made before any deal (from deal 1) leaves no stint for the player it replaced; one undone
    before a deal was played (two from the same deal) neither."""
    changes = [c for c in seating.changes if c.seat == seat]
    if not changes:
        return [Stint(seating.current[seat], 1, None)] if seat < len(seating.current) else []
    out: list[Stint] = []
    first = 1
    for c in changes:
        if c.from_deal > first:
            out.append(Stint(c.entry_out, first, c.from_deal - 1))
        first = max(first, c.from_deal)
    out.append(Stint(changes[-1].entry_in, first, None))
    return out
