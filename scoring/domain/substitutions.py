"""Who sat where at which deal, once players were substituted: the rule itself is the engine's
(``games.seating``: ``Change``, ``Seating``), shared with the export verifier; here, each
seat's history as the pages tell it. Pure: no queries.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.seating import Seating

__all__ = ["Stint", "seat_history"]


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
