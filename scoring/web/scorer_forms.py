"""What the scorer's pages and the correction page (a scorer link's or a director's) share: the
tournament's state for its scorers, and the deal form of a table."""

from __future__ import annotations

from scoring.domain.lifecycle import tournament_refusal
from scoring.selectors.tables import table_seats
from scoring.web.deal_form import DealForm


def tournament_state(tournament) -> tuple[bool, str]:
    """(writable, notice) of a tournament for its scorers: the services' refusal, in its words."""
    refusal = tournament_refusal(tournament.status)
    return (True, "") if refusal is None else (False, refusal.text)


def deal_form_for(table, *, data=None, initial=None, require_entered_by=True, seats=None, level="") -> DealForm:
    t = table.session.tournament
    # With proof, the enterer is the player this phone remembers, not a choice in the form.
    return DealForm(game=t.game, variant=t.variant, seats=seats if seats is not None else table_seats(table),
                    data=data, initial=initial, require_entered_by=require_entered_by and not t.require_proof,
                    level=level)
