"""Standings: every entry's total over the counted deals."""

from __future__ import annotations

from django.db import transaction

from ..actors import Actor
from ..models import Entry, Standing, Tournament
from ..selectors.standings import tournament_totals


def standings_refresh(*, tournament: Tournament, actor: Actor | None = None) -> list[Standing]:
    """Recompute every entry's total from the counted deals (confirmed ones when the
    tournament requires confirmation, else all but voided). Routine upkeep after each write: it
    changes no result, so it writes no audit row."""
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        totals = tournament_totals(tournament)
        rows = []
        for entry in Entry.objects.filter(tournament=tournament):
            total, counted = totals.get(entry.pk, (0, 0))
            st, _ = Standing.objects.update_or_create(
                entry=entry, defaults={"tournament": tournament, "total": total, "rounds_counted": counted})
            rows.append(st)
    return rows
