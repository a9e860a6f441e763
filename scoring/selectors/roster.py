"""What a director's roster page shows: the entries (playing or withdrawn, and where each sits in
the latest session), the club's players not entered yet, and the latest session's tables with
how many deals each has (a table is deleted only while it has none). A fixed number of queries."""

from __future__ import annotations

from django.db.models import Count, Prefetch

from scoring.models import Round, Seat, Table, Tournament
from scoring.selectors.common import table_order
from scoring.selectors.tournaments import entry_list, players_not_entered, tournament_trial_copy


def roster_for(tournament: Tournament) -> dict:
    """``entries`` (``{"entry", "withdrawn", "table"}`` by player name: ``table`` the table of the
    latest session the entry sits at, or None), ``candidates`` (players not entered),
    ``session`` (the latest, or None), ``tables`` (``{"table", "names", "deals"}`` of that
    session: ``deals`` counts every deal, voided ones too), ``deletable`` (a draft without
    deals, or ``trial_copy``: an imported copy never published; the tournament itself may be
    deleted)."""
    session = tournament.sessions.order_by("-number").first()
    tables = []
    if session is not None:
        tables = list(Table.objects.filter(session=session).annotate(deals=Count("rounds"))
                      .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("entry__player")
                                                 .order_by("position")))
                      .order_by(*table_order()))
    seated = {seat.entry_id: table for table in tables for seat in table.seats.all()}
    entries = [{"entry": e, "withdrawn": e.withdrawn_at is not None, "table": seated.get(e.pk)}
               for e in entry_list(tournament)]
    # a draft is deleted without deals anyway (and an import never makes a draft with deals)
    trial = tournament.status != Tournament.Status.DRAFT and tournament_trial_copy(tournament)
    deletable = trial or (tournament.status == Tournament.Status.DRAFT
                          and not Round.objects.filter(table__session__tournament=tournament).exists())
    return {
        "entries": entries,
        "candidates": list(players_not_entered(tournament)),
        "session": session,
        "tables": [{"table": t, "names": [s.entry.player.name for s in t.seats.all()], "deals": t.deals}
                   for t in tables],
        "deletable": deletable,
        "trial_copy": trial,
    }
