"""The standings' rules, pure: which deals count, what one deal does for each seat, the figures
an entry keeps, head-to-head, and how the tie-break keys order the rows. The site
(``scoring.domain.standings`` adds the keys' words, ``scoring.selectors.standings`` reads the
deals from the database) and ``verify`` (an export checked without the site) run this code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, NamedTuple

from .catalog import Game, get_game

#: A deal's statuses, as stored and exported.
RECORDED = "recorded"
CONFIRMED = "confirmed"
VOIDED = "voided"

#: What standings are ranked by when the tournament says nothing else.
DEFAULT_TIE_BREAKS = ("net", "wins", "average_place")

#: The places histogram's columns, place 1 first: as many as the most seats a game has.
PLACES = ("place_1", "place_2", "place_3", "place_4", "place_5", "place_6")


def counted_statuses(require_confirmation: bool) -> tuple[str, ...]:
    """The statuses of the deals that count: any but voided; with ``require_confirmation`` only
    confirmed ones. The one statement of which deals count (the selectors' filter reads it too)."""
    return (CONFIRMED,) if require_confirmation else (RECORDED, CONFIRMED)


def deal_counts(*, status: str, has_revision: bool, require_confirmation: bool) -> bool:
    """Whether a deal counts, from plain values. A deal with no revision (which the services never
    make) has nothing to count."""
    return has_revision and status in counted_statuses(require_confirmation)


@dataclass(frozen=True)
class SeatOutcome:
    """What one deal did for one table position: its ``net``, its ``place`` (None when the
    deal places nobody) and whether it was a ``win`` (``Game.deal_places``)."""

    net: int
    place: int | None
    win: bool


def outcomes_by_position(*, game: str, leader: Any, seats: list, n: int) -> list[SeatOutcome]:
    """Each table position's net, place and win in a stored result. ``leader``: the body's
    ``leader`` (read only for games with a leader); ``seats``: the result's ``seats``. Taking
    the two pieces rather than the whole body and result lets a recomputation read just them."""
    info = get_game(game)
    placed = info.deal_places(seats)
    shift = (leader or 0) if info.has_leader else 0
    out = []
    for pos in range(n):
        i = (pos - shift) % n
        if i < len(seats):
            out.append(SeatOutcome(int(seats[i].get("net", 0)), placed[i].place, placed[i].win))
        else:  # a result shorter than the table (never stored): counts as nothing
            out.append(SeatOutcome(0, None, False))
    return out


def transfers_by_position(*, game: str, leader: Any, transfers: list, n: int) -> list[tuple[int, int | None, int]]:
    """A stored result's ``transfers`` as ``(from, to, amount)`` by table position (``to``
    None: the house)."""
    shift = (leader or 0) if get_game(game).has_leader else 0
    out = []
    for t in transfers or []:
        to = t.get("to")
        out.append(((t["from"] + shift) % n, None if to is None else (to + shift) % n, int(t["amount"])))
    return out


class Figures(NamedTuple):
    """One entry's figures over a set of counted deals (what a Standing row keeps).
    ``places``: how many first, second, … places (``PLACES`` long)."""

    net: int
    deals: int
    wins: int
    places: tuple[int, ...]
    last_deal_at: datetime | None

    @classmethod
    def none(cls) -> "Figures":
        return cls(0, 0, 0, (0,) * len(PLACES), None)


def tally_deal(acc: dict[Any, list], *, info: Game, entries: Sequence[Any], leader: Any, places: Sequence,
               nets: Sequence) -> None:
    """Add one counted deal to ``acc`` (entry → ``[net, deals, wins, [count of each place]]``).
    ``entries``: who sat at each table position; ``places`` and ``nets``: the result's per-seat
    ``place`` and ``net`` in the result's order (None where absent), all ``Game.place_seats``
    reads; ``leader``: the body's (read for games with a leader only)."""
    n = len(entries)
    nets = nets[:n]
    placed = info.place_seats(list(places[:n]), list(nets))
    shift = (leader or 0) if info.has_leader else 0
    for pos, entry in enumerate(entries):
        i = (pos - shift) % n
        a = acc.get(entry)
        if a is None:
            a = acc[entry] = [0, 0, 0, [0] * len(PLACES)]
        a[0] += nets[i] or 0
        a[1] += 1
        place, win = placed[i]
        a[2] += win
        if place is not None:
            a[3][place - 1] += 1


def tallied(acc: dict[Any, list], last: dict[Any, datetime]) -> dict[Any, Figures]:
    """``tally_deal``'s sums as Figures, with each entry's last counted deal time."""
    return {e: Figures(a[0], a[1], a[2], tuple(a[3]), last.get(e)) for e, a in acc.items()}


def with_adjustments(figures: dict[Any, Figures], adjustments: Iterable[tuple[Any, int]]) -> dict[Any, Figures]:
    """The figures with chips given or taken outside the deals (``(entry, amount)``): an
    adjustment moves the net only; it is no deal played, won or placed."""
    out = dict(figures)
    for entry, amount in adjustments:
        f = out.get(entry, Figures.none())
        out[entry] = f._replace(net=f.net + amount)
    return out


def head_to_head_nets(groups: list[list[Any]],
                      deals: Iterable[tuple[dict[int, Any], list[tuple[int, int | None, int]]]]) -> dict[Any, int]:
    """For each entry of each group (entries still tied), the net it won from the other members
    of its group: what they paid it minus what it paid them. ``deals``: the counted deals,
    each as ``(entry by table position, transfers_by_position)``. Zero-sum in each group;
    payments to or from anyone else (and the house) do not count."""
    group_of = {e: i for i, g in enumerate(groups) for e in g}
    out = {e: 0 for e in group_of}
    for seated, transfers in deals:
        for frm, to, amount in transfers:
            payer, payee = seated.get(frm), seated.get(to)
            if payer in group_of and payee in group_of and group_of[payer] == group_of[payee]:
                out[payer] -= amount
                out[payee] += amount
    return out


def average_place(places: tuple[int, ...] | list[int]) -> Fraction | None:
    """Sum of places / deals placed (a Ce Deng redeal places nobody); None without any."""
    placed = sum(places)
    if not placed:
        return None
    return Fraction(sum(k * n for k, n in enumerate(places, start=1)), placed)


def figures_row(f: Figures, width: int) -> dict:
    """A row's figures as the standings show them (``width``: the places the game can give);
    ``_average_place`` is the exact value ``rank_rows`` sorts by."""
    avg = average_place(f.places)
    return {"deals": f.deals, "net": f.net, "wins": f.wins,
            "average_place": None if avg is None else round(float(avg), 3), "_average_place": avg,
            "places": {str(k): f.places[k - 1] for k in range(1, width + 1)}, "last_deal_at": f.last_deal_at}


def _sort_value(key: str, row: dict) -> Any:
    """The value a key sorts by (smaller first)."""
    if key == "average_place":
        avg = row["_average_place"]
        return (avg is None, avg or 0)
    return -row[key]


def rank_rows(rows: list[dict], tie_breaks: Sequence[str], *,
              head_to_head: Callable[[list[list[int]]], dict[int, int]]) -> None:
    """Order ``rows`` in place by ``tie_breaks`` and give each its ``rank`` and ``tied``: each
    key splits the groups still tied; rows still tied after the last key share the best rank of
    their group (1, 2, 2, 4) and are listed by name. ``head_to_head(groups)``: for the entry ids
    of each group still tied, the net each won from the others of its group (read only when
    that key is reached)."""
    groups = [sorted(rows, key=lambda r: r["name"])]
    for key in tie_breaks:
        if all(len(g) == 1 for g in groups):
            break
        if key == "head_to_head":
            h2h = head_to_head([[r["entry"] for r in g] for g in groups if len(g) > 1])
            for g in groups:
                for r in g:
                    r["head_to_head"] = h2h.get(r["entry"], 0)
        split = []
        for g in groups:
            if len(g) == 1:
                split.append(g)
                continue
            g = sorted(g, key=lambda r: _sort_value(key, r))  # stable: names stay in order
            start = 0
            for i in range(1, len(g) + 1):
                if i == len(g) or _sort_value(key, g[i]) != _sort_value(key, g[start]):
                    split.append(g[start:i])
                    start = i
        groups = split
    rows[:] = []
    rank = 1
    for g in groups:
        for r in g:
            r["rank"], r["tied"] = rank, len(g) > 1
            rows.append(r)
        rank += len(g)
