"""Tournaments and their entries."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext

from scoring.domain.errors import NotFound
from scoring.models import PUBLICLY_VISIBLE, ActionLog, Club, Entry, Player, Round, Tournament
from scoring.selectors.common import table_order


def tournament_get(tournament_id: Any) -> Tournament:
    try:
        return Tournament.objects.select_related("club").get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise NotFound(gettext("No such tournament.")) from None


def _import_rows():
    """The ``tournament_import`` ActionLog rows: a tournament with one came by import (by the API
    or an upload on the club page), which is what marks it "imported" wherever it is listed."""
    return ActionLog.objects.filter(action=ActionLog.Action.TOURNAMENT_IMPORT)


def tournament_imported(tournament: Tournament) -> bool:
    return _import_rows().filter(tournament=tournament).exists()


def tournament_ever_published(tournament: Tournament) -> bool:
    """Whether it is public, or ever was: made public when created or by a change (its
    ``tournament_create`` and ``tournament_update`` rows say so)."""
    if tournament.public:
        return True
    made_public = (Q(action=ActionLog.Action.TOURNAMENT_CREATE, data__public=True)
                   | Q(action=ActionLog.Action.TOURNAMENT_UPDATE, data__public__after=True))
    return ActionLog.objects.filter(made_public, tournament=tournament).exists()


def tournament_trial_copy(tournament: Tournament) -> bool:
    """A tournament that came by import and was never published (``tournament_ever_published``):
    a trial restore of a backup, which its director may delete whatever its status
    (``services.roster.tournament_delete``)."""
    return tournament_imported(tournament) and not tournament_ever_published(tournament)


def tournament_awaits_publishing(tournament: Tournament, *, imported: bool | None = None) -> bool:
    """A finished tournament that came by import and is still private: its director may publish
    it, the one change a finished tournament takes (an import always arrives private).
    ``imported``: ``tournament_imported``, when the caller knows it already."""
    if tournament.status != Tournament.Status.FINISHED or tournament.public:
        return False
    return tournament_imported(tournament) if imported is None else imported


def tournament_list_for_director(user) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("club").annotate(entry_count=Count("entries", distinct=True))
    if user.is_superuser:
        return qs.order_by("-created_at")
    return qs.filter(club__directors=user).order_by("-created_at")


def tournament_list_for_home(user=None) -> list[Tournament]:
    """Public tournaments that are running or finished (running first, newest first), plus, for a
    logged-in director, every tournament of their clubs. Each has ``entry_count``."""
    cond = PUBLICLY_VISIBLE
    if user is not None and getattr(user, "is_authenticated", False):
        cond |= Q(pk__in=tournament_list_for_director(user).values("pk"))
    qs = (Tournament.objects.filter(cond).select_related("club")
          .annotate(entry_count=Count("entries", distinct=True)))
    order = {Tournament.Status.RUNNING: 0, Tournament.Status.DRAFT: 1, Tournament.Status.FINISHED: 2}
    return sorted(qs, key=lambda t: (order[t.status], -t.created_at.timestamp()))


def tournament_list_for_club(club: Club) -> QuerySet[Tournament]:
    """The club's tournaments, newest first, each with ``imported`` (``tournament_imported``)."""
    return (Tournament.objects.filter(club=club).annotate(imported=Exists(_import_rows().filter(tournament=OuterRef("pk"))))
            .order_by("-created_at"))


def entry_list(tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("player").order_by("player__name")


def players_not_entered(tournament: Tournament) -> QuerySet[Player]:
    """The club's players not yet entered in the tournament, by name."""
    return Player.objects.filter(club=tournament.club_id).exclude(entries__tournament=tournament).order_by("name")


def unconfirmed_filter(tournament: Tournament) -> Q:
    """The deals left unconfirmed that matter: only where the tournament counts only confirmed
    deals (elsewhere a recorded deal counts as it is, and nobody is told to confirm it)."""
    return Q(status=Round.Status.RECORDED) if tournament.require_confirmation else Q(pk__in=[])


def tournament_unsettled_deals(tournament: Tournament, *, offset: int = 0, limit: int | None = None) -> list[dict]:
    """The deals a finish leaves as they are: unconfirmed (``recorded``, ``unconfirmed_filter``) and disputed ones, not
    voided — ``id, table, table_name, session, number, status, disputed``, by session, table
    and number; ``limit`` of them from ``offset`` (a page), all without."""
    rows = (Round.objects.filter(table__session__tournament=tournament)
            .exclude(status=Round.Status.VOIDED)
            .filter(unconfirmed_filter(tournament) | Q(disputed=True))
            .order_by("table__session__number", *table_order("table__"), "number")
            .values("id", "table", "table__name", "table__session__number", "number", "status", "disputed"))
    rows = rows[offset:] if limit is None else rows[offset:offset + limit]
    return [{"id": r["id"], "table": r["table"], "table_name": r["table__name"], "session": r["table__session__number"],
             "number": r["number"],
             "status": r["status"], "disputed": r["disputed"]} for r in rows]
