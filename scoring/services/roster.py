"""Roster edits: a player who leaves (withdraw) or comes back (re-enter), an empty table deleted,
a draft tournament deleted (or an imported copy never published). Renaming a player is ``services.clubs.player_rename`` (a club's
registry); a late entry is ``services.tournaments.entry_create`` on a running tournament.

Nothing that counts is ever lost here: a withdrawn entry keeps its deals, its seats and its
standing (the standings show it, marked withdrawn), and seating leaves it out from then on; a
table is deleted only while it has no deal at all (voided ones included: they are history), a
tournament only while it is a draft without deals — or when it came from an import and was never
published (a trial restore of a backup: its deals are the original's, which stays). Every refusal
is a 409 with its code.

The rows of the audit log stay: ``ActionLog.tournament`` is SET_NULL, so the rows of a deleted
tournament lose their link to it; its ``tournament_delete`` row (also unlinked) names it — id,
name, slug, club — and lists the ids of those rows, so that they can still be read together.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict
from scoring.models import ActionLog, Entry, PaperSheetJob, RatedDeal, Round, RoundRevision, Seat, Table, Tournament
from scoring.selectors.access import require_director_of
from scoring.selectors.tournaments import tournament_trial_copy
from scoring.services.common import action_log, enqueue_on_commit, entry_locked
from scoring.services.lifecycle import require_not_finished
from scoring.services.paper_sheets import paper_sheets_drop


def _logged(entry: Entry) -> dict:
    return {"player": entry.player_id, "name": entry.player.name}


def entry_withdraw(*, actor: Actor, entry: Entry) -> Entry:
    """``entry``'s player leaves the tournament (not finished: 409 ``tournament_finished``; twice:
    409 ``already_withdrawn``). Their deals keep counting and they keep their standing; a table
    they sit at now stays as it is (delete it while it has no deal, or let it play on); seating
    leaves them out from the next session on."""
    require_director_of(actor, entry.tournament.club)
    with transaction.atomic():
        e = entry_locked(entry)
        require_not_finished(e.tournament)
        if e.withdrawn_at is not None:
            raise Conflict(gettext("%(name)s has already withdrawn.") % {"name": e.player.name},
                           code="already_withdrawn")
        e.withdrawn_at = timezone.now()
        e.save(update_fields=["withdrawn_at"])
        action_log(actor, ActionLog.Action.ENTRY_WITHDRAW, e, tournament=e.tournament, data=_logged(e))
    entry.withdrawn_at = e.withdrawn_at
    return entry


def entry_reenter(*, actor: Actor, entry: Entry) -> Entry:
    """A withdrawn player enters again (not finished: 409 ``tournament_finished``; one who has not
    withdrawn: 409 ``not_withdrawn``): the same entry, with its deals, standing and code; seated
    again from the next session on."""
    require_director_of(actor, entry.tournament.club)
    with transaction.atomic():
        e = entry_locked(entry)
        require_not_finished(e.tournament)
        if e.withdrawn_at is None:
            raise Conflict(gettext("%(name)s has not withdrawn.") % {"name": e.player.name}, code="not_withdrawn")
        e.withdrawn_at = None
        e.save(update_fields=["withdrawn_at"])
        action_log(actor, ActionLog.Action.ENTRY_REENTER, e, tournament=e.tournament, data=_logged(e))
    entry.withdrawn_at = None
    return entry


def table_delete(*, actor: Actor, table: Table) -> None:
    """Delete a table that has no deal (409 ``table_has_deals`` otherwise, voided ones included;
    409 ``tournament_finished`` in a finished tournament), with its seats; its scorer link stops
    working with it. The row keeps its name, session and seats."""
    tournament = table.session.tournament
    require_director_of(actor, tournament.club)
    with transaction.atomic():
        # The lock that recording a deal takes (``services.round_rows.lock_table``): a deal being
        # recorded now either is in before the check, or finds no table after.
        t = Table.objects.select_for_update(of=("self",)).select_related("session").filter(pk=table.pk).first()
        require_not_finished(tournament)
        if t is None:
            return   # deleted meanwhile: what was asked is done
        if Round.objects.filter(table=t).exists():
            raise Conflict(gettext("%(table)s has deals: a table is deleted only while it has none.")
                           % {"table": t.name}, code="table_has_deals")
        seats = [{"position": s.position, "entry": s.entry_id, "name": s.entry.player.name}
                 for s in Seat.objects.filter(table=t).select_related("entry__player").order_by("position")]
        action_log(actor, ActionLog.Action.TABLE_DELETE, t, tournament=tournament,
                   data={"name": t.name, "session": t.session.number, "seats": seats})
        # Sheets printed before would hand out this table's dead link.
        paper_sheets_drop(sessions=[t.session_id], reason=PaperSheetJob.Reason.TABLES_CHANGED)
        t.delete()


def tournament_delete(*, actor: Actor, tournament: Tournament) -> None:
    """Delete a draft tournament with its entries, sessions and tables (409
    ``tournament_not_draft`` once started; 409 ``tournament_has_deals`` should a draft have any,
    which only a bug could make) — or an imported copy never published (``tournament_trial_copy``),
    running or finished, its deals and their revisions with it, and the club's ratings rebuilt
    without them if it was rated. Its players stay in the club. The audit log keeps every row (see
    the module's docstring)."""
    require_director_of(actor, tournament.club)
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        if t is None:
            return   # deleted meanwhile
        trial = tournament_trial_copy(t)
        if t.status != Tournament.Status.DRAFT and not trial:
            raise Conflict(gettext("Only a draft tournament can be deleted; this one has started."),
                           code="tournament_not_draft")
        rounds = Round.objects.filter(table__session__tournament=t)
        deals = rounds.count()
        if deals and not trial:
            raise Conflict(gettext("This tournament has deals; it cannot be deleted."), code="tournament_has_deals")
        rated = deals and RatedDeal.objects.filter(club=t.club, round__in=rounds).exists()
        rows = list(ActionLog.objects.filter(tournament=t).order_by("id").values_list("id", flat=True))
        action_log(actor, ActionLog.Action.TOURNAMENT_DELETE, t, data={
            "id": t.pk, "name": t.name, "slug": t.slug, "club": t.club_id, "game": t.game, "status": t.status,
            "imported": trial, "deals": deals, "rated": bool(rated),
            "entries": t.entries.count(), "sessions": t.sessions.count(), "log": rows})
        if deals:
            # A deal and its revisions protect each other (history is never deleted by accident).
            rounds.update(current_revision=None)
            RoundRevision.objects.filter(round__in=rounds).delete()
            rounds.delete()   # with what the ratings kept of them
        # Seats first: a seat protects its entry, and the cascade may reach the entries before it.
        Seat.objects.filter(table__session__tournament=t).delete()
        t.delete()
        if rated:   # the ratings after its deals were computed with them
            enqueue_on_commit("scoring.ratings_rebuild", t.club_id)
