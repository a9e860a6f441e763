"""A tournament's referees, and what a referee's pages read: their tournaments, the tables whose
players they may substitute."""

from __future__ import annotations

from django.db.models import QuerySet

from scoring.models import Table, Tournament, TournamentReferee


def referee_list(tournament: Tournament) -> QuerySet:
    """The tournament's referees, first named first, each with its user and who named them."""
    return (TournamentReferee.objects.filter(tournament=tournament).select_related("user", "added_by")
            .order_by("created_at", "id"))


def tournaments_refereed_by(user) -> QuerySet:
    """The tournaments ``user`` referees, newest first, with their clubs."""
    return (Tournament.objects.filter(referees__user=user).select_related("club")
            .order_by("-created_at", "-id"))


def referee_tables(tournament: Tournament) -> list[Table]:
    """The tables of the tournament's open sessions (where a player may be substituted), by
    session and name, each with its session."""
    return list(Table.objects.filter(session__tournament=tournament, session__status="open")
                .select_related("session").order_by("session__number", "name"))
