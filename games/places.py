"""A settled deal's places and wins, the facts a tournament's standings count (pure).

Each game says how its seats are placed (``Game.placing``, set in the catalog):

- ``ENGINE`` — the connecting games: the engine's own per-seat ``place`` (CG-14; Ding Niu by
  DN-5), ties already broken by the rules (lower or upper hand). The **win** is place 1, the
  deal's ``winner``, who leads the next deal. A Ce Deng redeal (CD-2) has no places
  (``place`` null): the deal is void, nobody is placed and nobody wins.
- ``BY_NET`` — Tau Ngau and Da Ling, whose results carry no place (ROUND_RECORD.md §3, §4):
  the seats are placed by their net in the deal, the largest first; equal nets share the better
  place and the next place is skipped (nets 5, 2, 2, −9 → places 1, 2, 2, 4). A **win** is a
  positive net: in Tau Ngau every player settles with the banker alone (TN-V2-1), so each
  player who beats the banker has won his deal, and the banker has won when he takes more than
  he pays; in Da Ling every group is settled alone (DL-9), and a player wins the deal when he
  comes out ahead. A push (every net 0) places everyone first and makes no winner.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

#: The engine's ``place`` (connecting games).
ENGINE = "engine"
#: Places by net, ties sharing; a win is a positive net (games without places).
BY_NET = "by_net"
PLACINGS = (ENGINE, BY_NET)

# What one rated result is, for a club's ratings (``Game.rating_unit``): a deal, or a table's
# whole session ranked by its players' net over it (Tau Ngau: every deal is a bet against the
# banker, so one deal's order says little; the session's says who played well).
EACH_DEAL = "deal"
TABLE_SESSION = "table_session"
RATING_UNITS = (EACH_DEAL, TABLE_SESSION)


class SeatPlace(NamedTuple):
    """One seat's standing in one deal: ``place`` (1 = best; None when the deal places nobody)
    and whether it counts as a ``win``."""

    place: int | None
    win: bool


def places_by_net(nets: Sequence[int]) -> list[int]:
    """Places by net, largest first; equal nets share the better place (standard competition
    ranking: 1, 2, 2, 4)."""
    ordered = sorted(nets, reverse=True)
    first = {}
    for i, net in enumerate(ordered, start=1):
        first.setdefault(net, i)
    return [first[net] for net in nets]


def seat_places(placing: str, seats: Sequence[dict]) -> list[SeatPlace]:
    """Each seat's place and win in one deal, in the result's seat order. ``seats``: the
    result's per-seat objects (``place`` where the game has one, and ``net``)."""
    return places_and_wins(placing, [s.get("place") for s in seats], [s.get("net") for s in seats])


_UNPLACED = SeatPlace(None, False)


def places_and_wins(placing: str, places: Sequence[int | None], nets: Sequence[int | None]) -> list[SeatPlace]:
    """``seat_places`` from the two per-seat fields the rules read, one list each in the
    result's seat order (None where a seat has no such field): all a reader needs to fetch of
    a deal, when it reads many."""
    if placing == ENGINE:
        return [SeatPlace(p, p == 1) if isinstance(p, int) else _UNPLACED for p in places]
    if placing == BY_NET:
        whole = [int(n or 0) for n in nets]
        return [SeatPlace(place, net > 0) for place, net in zip(places_by_net(whole), whole, strict=True)]
    raise ValueError(f"unknown placing {placing!r}; one of {', '.join(PLACINGS)}")
