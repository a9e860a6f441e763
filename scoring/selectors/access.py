"""Who may do what: the permission checks shared by services, API views and page views. They ask
the database (a club's directors), so they live with the reads; they raise ``PermissionDenied``,
or ``NotFound`` where what the actor may not see must look as if it did not exist."""

from __future__ import annotations

from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import NotFound, PermissionDenied
from scoring.domain.inputs import MAX_ID
from scoring.models import Club, Table, Tournament


def is_director_of(actor: Actor, club: Club) -> bool:
    if actor.is_system:
        return True
    if not actor.is_director:
        return False
    if actor.user.is_superuser:
        return True
    return club.directors.filter(pk=actor.user.pk).exists()


def require_director(actor: Actor) -> None:
    if not (actor.is_system or actor.is_director):
        raise PermissionDenied(gettext("Only a tournament director may do this."))


def require_director_of(actor: Actor, club: Club) -> None:
    if not is_director_of(actor, club):
        raise PermissionDenied(gettext("Only a director of this club may do this."))


def can_access_table(actor: Actor, table: Table) -> bool:
    if actor.is_scorer:
        return actor.table.pk == table.pk
    return is_director_of(actor, table.session.tournament.club)


def require_table_access(actor: Actor, table: Table) -> None:
    if not can_access_table(actor, table):
        if actor.is_scorer:
            raise PermissionDenied(gettext("This scorer link belongs to another table."))
        raise PermissionDenied(gettext("Only a director of this club or the table's scorer may do this."))


# ---------------------------------------------------------------------------------------------
# Looking things up by id: what the actor may not see answers as if it did not exist, so that the
# ids of other clubs and tables cannot be told apart from ids that do not exist.

def directed_club(actor: Actor, pk: int) -> Club | None:
    """The club ``pk`` if ``actor`` directs it, else None, whether it exists or not: one query
    either way (none for an actor who directs nothing), so that neither the answer nor its time
    tells another club's id from an unknown one (``is_director_of`` after a look-up would ask
    once more for an existing club only)."""
    if not (actor.is_system or actor.is_director):
        return None
    if not isinstance(pk, int) or not 0 < pk <= MAX_ID:   # an id no row can have (SQLite overflows on it)
        return None
    clubs = Club.objects.filter(pk=pk)
    if not (actor.is_system or actor.user.is_superuser):
        clubs = clubs.filter(directors=actor.user)
    return clubs.first()


def require_club_visible(actor: Actor, club: Club, what: str) -> None:
    """NotFound ("No such <what>.") unless the actor directs ``club``."""
    if not is_director_of(actor, club):
        raise NotFound(f"No such {what}.")


def require_table_visible(actor: Actor, table: Table, what: str = "table") -> None:
    """NotFound unless the actor may use this table (its scorer link, or a director of its club)."""
    if not can_access_table(actor, table):
        raise NotFound(f"No such {what}.")


def require_tournament_readable(actor: Actor, tournament: Tournament) -> None:
    """NotFound ("No such tournament.") unless anyone may see the tournament
    (``models.PUBLICLY_VISIBLE``: public and started, as on the public pages) or the actor directs
    its club: a draft's standings are no more the public's over the API than on the pages."""
    if not tournament.publicly_visible:
        require_club_visible(actor, tournament.club, "tournament")
