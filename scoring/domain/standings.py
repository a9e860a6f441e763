"""The standings' rules, pure: which deals count, the figures an entry keeps, and how the
tie-break keys order the rows. The selectors read the figures from the database and the
services keep them; both, the model's choices and the API's schema take the rules from here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any, NamedTuple

from django.utils.translation import gettext_lazy

from scoring.domain.statuses import ROUND_CONFIRMED, ROUND_RECORDED


class TieBreak(NamedTuple):
    """One key the standings may be ranked by: how it orders (``order``, for the documentation and
    the API's schema), its name in a ranking line (``label``) and in the director's settings form
    (``choice``), and whether it may come first (``may_lead``: head-to-head breaks ties among those
    level on the keys before it; first, it would only repeat the net, at the cost of a pass over
    every deal on each read)."""

    order: str
    label: Any
    choice: Any
    may_lead: bool = True


#: Every tie-break key's facts and words, once; pages, the API and the services read them here.
TIE_BREAK_FACTS = {
    "net": TieBreak("the net (chips or points), higher first", gettext_lazy("net"),
                    gettext_lazy("Net (chips won minus lost)")),
    "wins": TieBreak("deals won, more first", gettext_lazy("wins"), gettext_lazy("Wins")),
    "average_place": TieBreak("the average place over the deals that place anyone, lower first; no such deal: last",
                              gettext_lazy("average place"), gettext_lazy("Average place")),
    "head_to_head": TieBreak("the net won from the others still tied, in the deals played together, higher first",
                             gettext_lazy("head-to-head"), gettext_lazy("Head-to-head among the tied"),
                             may_lead=False),
    "deals": TieBreak("deals played, more first (the same result over more deals has stood a longer test)",
                      gettext_lazy("deals played"), gettext_lazy("Deals played")),
}
#: What standings may be ranked by, in a tournament's chosen order (``Tournament.tie_breaks``).
TIE_BREAKS = tuple(TIE_BREAK_FACTS)
DEFAULT_TIE_BREAKS = ("net", "wins", "average_place")


def tie_break_labels(keys: Sequence[str]) -> list:
    """The keys of a ranking in words, in their order (``Ranked by net, wins, …``)."""
    return [TIE_BREAK_FACTS[k].label for k in keys]


#: The places histogram's columns (``Standing``), place 1 first: as many as the most seats a game has.
PLACES = ("place_1", "place_2", "place_3", "place_4", "place_5", "place_6")


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


def counted_statuses(require_confirmation: bool) -> tuple[str, ...]:
    """The statuses of the deals that count: any but voided; with ``require_confirmation`` only
    confirmed ones. The one statement of which deals count (the selectors' filter reads it too)."""
    return (ROUND_CONFIRMED,) if require_confirmation else (ROUND_RECORDED, ROUND_CONFIRMED)


def deal_counts(*, status: str, has_revision: bool, require_confirmation: bool) -> bool:
    """Whether a deal counts, from plain values. A deal with no revision (which the services never
    make) has nothing to count."""
    return has_revision and status in counted_statuses(require_confirmation)


def counts_round(tournament: Any, rnd: Any) -> bool:
    """``deal_counts`` for a deal (``status``, ``current_revision_id``) of a tournament."""
    return deal_counts(status=rnd.status, has_revision=rnd.current_revision_id is not None,
                       require_confirmation=tournament.require_confirmation)


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


def average_place(places: tuple[int, ...] | list[int]) -> Fraction | None:
    """Sum of places / deals placed (a Ce Deng redeal places nobody); None without any."""
    placed = sum(places)
    if not placed:
        return None
    return Fraction(sum(k * n for k, n in enumerate(places, start=1)), placed)


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
