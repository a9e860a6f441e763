"""Who sat where at which deal once players were substituted. One rule, which the site
(``scoring.domain.substitutions``, the standings, the pages) and ``verify`` (an export checked
without the site) both run. Pure: no queries.

A table's seats name who sits there now; each substitution names the seat, the entry that left
it (``entry_out``), the one that took it (``entry_in``) and the first deal the newcomer plays
(``from_deal``). So the players of deal ``d`` are today's, with every substitution from a deal
after ``d`` taken back, newest first: a correction of deal 3 made after a substitution at deal 8
still names (and credits) the player who played deal 3. A document that carries the first
seating and the substitutions in the order made (an export) gives the same ``Seating``
(``seating_from_start``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple


class Change(NamedTuple):
    """One substitution, as the seating reads it (in the order they were made)."""

    seat: int
    entry_in: Any
    entry_out: Any
    from_deal: int


@dataclass(frozen=True)
class Seating:
    """A table's entries by seat now (``current``) and its substitutions, oldest first."""

    current: tuple
    changes: tuple[Change, ...] = ()

    def at(self, number: int) -> list:
        """The entries by seat at deal ``number``."""
        out = list(self.current)
        for c in reversed(self.changes):
            if number < c.from_deal and c.seat < len(out):
                out[c.seat] = c.entry_out
        return out

    def first(self) -> list:
        """The entries by seat before any substitution: the table as it was made."""
        return self.at(0)

    def entries(self) -> set:
        """Every entry that sat at the table, now or before."""
        return {*self.current, *(c.entry_out for c in self.changes)}


def seating_from_start(first: Sequence, substitutions: Iterable[tuple[int, Any, int]]) -> Seating:
    """The ``Seating`` of a table made with ``first`` (entries by seat) whose players were
    substituted as ``substitutions`` says: ``(seat, entry_in, from_deal)`` in the order made.
    Each replaces whoever held the seat then. ``ValueError`` for a seat the table does not have,
    or a deal before the seat's previous substitution (they are made in deal order)."""
    seats = list(first)
    latest: dict[int, int] = {}
    changes = []
    for seat, entry_in, from_deal in substitutions:
        if not 0 <= seat < len(seats):
            raise ValueError(f"seat {seat} is not one of the table's {len(seats)}")
        if from_deal < latest.get(seat, 1):
            raise ValueError(f"from deal {from_deal}, before the seat's previous substitution")
        changes.append(Change(seat, entry_in, seats[seat], from_deal))
        seats[seat] = entry_in
        latest[seat] = from_deal
    return Seating(tuple(seats), tuple(changes))
