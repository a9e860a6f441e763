"""The standings' words: the tie-break keys' facts and labels. The rules themselves (which deals
count, the figures an entry keeps, head-to-head, how the keys order the rows) are the engine's
(``games.standings``), so that ``python -m games verify`` ranks an export with the very code the
site ranks with; their names are kept here for the app. The selectors read the figures from
the database and the services keep them; both, the model's choices and the API's schema take
the rules from here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from django.utils.translation import gettext_lazy

from games.standings import (
    DEFAULT_TIE_BREAKS,
    PLACES,
    Figures,
    average_place,
    counted_statuses,
    deal_counts,
    rank_rows,
)

__all__ = ["TieBreak", "TIE_BREAK_FACTS", "TIE_BREAKS", "DEFAULT_TIE_BREAKS", "PLACES", "Figures", "average_place",
           "counted_statuses", "deal_counts", "counts_round", "default_tie_breaks", "rank_rows", "tie_break_labels"]


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


def tie_break_labels(keys: Sequence[str]) -> list:
    """The keys of a ranking in words, in their order (``Ranked by net, wins, …``)."""
    return [TIE_BREAK_FACTS[k].label for k in keys]


def default_tie_breaks() -> list[str]:
    return list(DEFAULT_TIE_BREAKS)


def counts_round(tournament: Any, rnd: Any) -> bool:
    """``deal_counts`` for a deal (``status``, ``current_revision_id``) of a tournament."""
    return deal_counts(status=rnd.status, has_revision=rnd.current_revision_id is not None,
                       require_confirmation=tournament.require_confirmation)
