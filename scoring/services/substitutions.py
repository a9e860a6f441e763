"""Substitutions: another entry takes a seat of a table mid-session, from the next deal on.

The deals before keep their players: the Seat row names the newcomer, the Substitution row who
sat there before and from which deal (``scoring.domain.substitutions``), and everything that
credits a deal to its players reads the seating of that deal. Standings move only with deals,
so a substitution changes none.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, ValidationFailed
from scoring.domain.inputs import MAX_INT32, is_int
from scoring.domain.records import is_seat
from scoring.models import ActionLog, Entry, PaperSheetJob, Round, Seat, Substitution, Table
from scoring.selectors.access import require_official_of
from scoring.selectors.tables import round_defaults
from scoring.services.common import action_log
from scoring.services.events import event_publish
from scoring.services.lifecycle import require_not_finished, require_running
from scoring.services.paper_sheets import paper_sheets_drop
from scoring.services.round_rows import lock_table
from scoring.services.tables import withdrawn_problem


def _entry_of(table: Table, entry: Any) -> Entry:
    """The entry of the table's tournament named by ``entry`` (an Entry or its id), with its player."""
    pk = entry.pk if isinstance(entry, Entry) else entry
    if not is_int(pk, 1, MAX_INT32):
        raise ValidationFailed(gettext("player is the entry id of the player taking the seat."), path="player",
                               code="bad_type" if pk is not None else "required")
    found = Entry.objects.select_related("player").filter(tournament_id=table.session.tournament_id, pk=pk).first()
    if found is None:
        raise ValidationFailed(gettext("No such entry in this tournament."), path="player", code="not_found")
    return found


def table_substitute(*, actor: Actor, table: Table, seat: Any, entry: Any) -> Substitution:
    """Put ``entry`` in ``seat`` (a table position) of ``table`` from the next deal on; the
    deals before keep their players. Directors and the tournament's referees only. Refused: a finished tournament (409
    ``tournament_finished``), one not started (409 ``tournament_not_running``), a closed session (409 ``session_closed``), no such seat (400
    ``bad_seat`` at ``seat``), no such entry (400 ``not_found`` at ``player``), a withdrawn
    entry (400 ``withdrawn``), an entry already seated at a table of this session (400
    ``already_seated``) and, where only confirmed deals count, a deal at the table still
    unconfirmed (409 ``round_unconfirmed``: it must be confirmed by the players who played it)."""
    tournament = table.session.tournament
    require_official_of(actor, tournament, "table_substitute")
    require_not_finished(tournament)
    newcomer = _entry_of(table, entry)
    with transaction.atomic():
        # The lock deals are recorded under: no deal gets between the number read here and the seat's change.
        seats = lock_table(table)
        # A draft's tables change by being made again; once finished, nothing changes.
        require_running(tournament, fresh=False)
        if table.session.is_closed:
            raise Conflict(gettext("This table's session is closed: open it again to change its players."),
                           code="session_closed")
        if not is_seat(seat, len(seats)):
            raise ValidationFailed(gettext("seat is the seat position (0 to %(last)s).") % {"last": len(seats) - 1},
                                   path="seat", code="bad_seat")
        if newcomer.withdrawn_at is not None:
            raise ValidationFailed(errors=[withdrawn_problem("player", newcomer)])
        busy = (Seat.objects.filter(table__session_id=table.session_id, entry=newcomer)
                .select_related("table").first())
        if busy is not None:
            raise ValidationFailed(gettext("%(name)s already sits at %(table)s in this session.")
                                   % {"name": newcomer.player.name, "table": busy.table.name},
                                   path="player", code="already_seated")
        if tournament.require_confirmation and Round.objects.filter(table=table, status=Round.Status.RECORDED).exists():
            raise Conflict(gettext("A deal at this table is not confirmed yet: the players who played it confirm it "
                                   "(or a director does) before anyone changes seats."), code="round_unconfirmed")
        leaving = seats[seat]
        sub = Substitution.objects.create(table=table, seat=seat, entry_in=newcomer, entry_out_id=leaving.entry_id,
                                          from_deal=round_defaults(table)["number"], created_by=actor.user_or_none)
        Seat.objects.filter(pk=leaving.pk).update(entry=newcomer)
        # Sheets printed before name the player who left.
        paper_sheets_drop(sessions=[table.session_id], reason=PaperSheetJob.Reason.TABLES_CHANGED)
        data = {"table": table.pk, "seat": seat, "from_deal": sub.from_deal, "entry_out": leaving.entry_id,
                "name_out": leaving.entry.player.name, "entry_in": newcomer.pk, "name_in": newcomer.player.name}
        action_log(actor, ActionLog.Action.TABLE_SUBSTITUTE, table, tournament=tournament, data=data)
        event_publish(tournament=tournament, kind="table_substituted", data=data)
    sub.entry_in, sub.entry_out = newcomer, Entry.objects.select_related("player").get(pk=leaving.entry_id)
    return sub
