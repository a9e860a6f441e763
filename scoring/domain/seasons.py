"""A season's standings, pure: each tournament's figures per player, weighted and summed, then
ranked by the tournaments' tie-breaks (``scoring.domain.standings.rank_rows``).

Only the net is weighted (a final that counts double doubles what was won there); deals, wins
and places are counts and are summed as they are. The sum is exact: weights are Decimals
(or integers), and so is the weighted net.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import NamedTuple

from scoring.domain.standings import DEFAULT_TIE_BREAKS, PLACES, Figures, average_place, rank_rows

#: The keys a season can rank by: head-to-head needs the tied players' shared deals, which are
#: a tournament's own (a season keeps no such deals), so a season skips that key.
SEASON_SKIPS = frozenset({"head_to_head"})


class Result(NamedTuple):
    """One player's figures in one tournament of the season."""

    player: int
    name: str
    figures: Figures


def season_tie_breaks(orders: Sequence[Sequence[str]]) -> list[str]:
    """The order a season ranks by: its tournaments' common order when they all share one, else
    the default; ``head_to_head`` left out (``SEASON_SKIPS``)."""
    distinct = {tuple(o or DEFAULT_TIE_BREAKS) for o in orders}
    chosen = next(iter(distinct)) if len(distinct) == 1 else DEFAULT_TIE_BREAKS
    return [k for k in chosen if k not in SEASON_SKIPS]


def season_rows(results: Mapping[int, Sequence[Result]], weights: Mapping[int, Decimal | int],
                tie_breaks: Sequence[str]) -> list[dict]:
    """Ranked rows, one per player seen in any tournament: ``rank, tied, player, name, net``
    (Σ weight × net), ``deals, wins, average_place, places`` ({"1": n, …}, all six),
    ``tournaments`` (how many of the season's tournaments the player has an entry in).
    ``results``: tournament id → its rows; ``weights``: tournament id → its weight."""
    acc: dict[int, dict] = {}
    for tid, rows in results.items():
        weight = weights[tid]
        for r in rows:
            a = acc.get(r.player)
            if a is None:
                a = acc[r.player] = {"player": r.player, "entry": r.player, "name": r.name, "net": Decimal(0),
                                     "deals": 0, "wins": 0, "_places": [0] * len(PLACES), "tournaments": 0}
            f = r.figures
            a["net"] += Decimal(weight) * f.net
            a["deals"] += f.deals
            a["wins"] += f.wins
            for i, n in enumerate(f.places):
                a["_places"][i] += n
            a["tournaments"] += 1
    rows = list(acc.values())
    for a in rows:
        a["_average_place"] = average_place(a["_places"])
        a["average_place"] = None if a["_average_place"] is None else round(float(a["_average_place"]), 3)
        a["places"] = {str(k): n for k, n in enumerate(a.pop("_places"), start=1)}
    keys = [k for k in tie_breaks if k not in SEASON_SKIPS]
    rank_rows(rows, keys, head_to_head=lambda groups: {})
    for a in rows:
        del a["_average_place"], a["entry"]
    return rows
