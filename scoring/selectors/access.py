"""Who may do what: the permission checks shared by services, API views and page views. They ask
the database (a club's directors, a tournament's referees), so they live with the reads; they
raise ``PermissionDenied``, or ``NotFound`` where what the actor may not see must look as if it
did not exist.

Roles, per tournament (``tournament_role``): a director of its club (or the system, or a
superuser) is its ``DIRECTOR``; a user named its referee (``TournamentReferee``) is its
``REFEREE``. A referee may do what ``REFEREE_MAY`` names, in that tournament only: settle its
disputes, record and delete its adjustments, substitute its players. Everything else a
director does is refused to a referee with 403 (``require_role``), on the pages and over the
API alike; another tournament of theirs stays invisible (404), as another club's is to a
director.
"""

from __future__ import annotations

from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import NotFound, PermissionDenied
from scoring.domain.inputs import MAX_ID
from scoring.models import Club, Table, Tournament, TournamentReferee

DIRECTOR, REFEREE = "director", "referee"
#: What a tournament's referee may do there (the services name the one they do).
REFEREE_MAY = frozenset({"round_dispute_resolve", "adjustment_create", "adjustment_delete", "table_substitute"})


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


# ---------------------------------------------------------------------------------------------
# Roles in a tournament: director or referee.

def is_signed_in_user(actor: Actor) -> bool:
    """A signed-in, active user (a director, a referee, or neither yet)."""
    u = actor.user_or_none
    return bool(u is not None and u.is_active and getattr(u, "pk", None) is not None)


def is_referee_of(actor: Actor, tournament: Tournament) -> bool:
    if not is_signed_in_user(actor):
        return False
    return TournamentReferee.objects.filter(tournament_id=tournament.pk, user_id=actor.user.pk).exists()


def refereed_tournament_ids(actor: Actor) -> list[int]:
    """The ids of the tournaments ``actor`` referees (none for a scorer link or nobody)."""
    if not is_signed_in_user(actor):
        return []
    return list(TournamentReferee.objects.filter(user_id=actor.user.pk).values_list("tournament_id", flat=True))


def is_referee(actor: Actor) -> bool:
    """Whether the actor referees any tournament: what lets a user who directs nothing sign in
    to the director's pages (their referee pages) and get an API token."""
    return is_signed_in_user(actor) and TournamentReferee.objects.filter(user_id=actor.user.pk).exists()


def tournament_role(actor: Actor, tournament: Tournament) -> str | None:
    """``DIRECTOR`` (a director of its club), ``REFEREE`` (named its referee) or None. A director
    costs one query, as before roles; a referee two."""
    if is_director_of(actor, tournament.club):
        return DIRECTOR
    return REFEREE if is_referee_of(actor, tournament) else None


def require_role(actor: Actor, tournament: Tournament, action: str | None = None, *, what: str = "tournament") -> str:
    """The actor's role in ``tournament``, or a refusal: NotFound ("No such <what>.") with no role,
    PermissionDenied for a referee unless ``action`` is one of ``REFEREE_MAY`` (None: directors
    only)."""
    role = tournament_role(actor, tournament)
    if role is None:
        raise NotFound(f"No such {what}.")
    if role == REFEREE and action not in REFEREE_MAY:
        raise PermissionDenied(referee_refusal())
    return role


def require_official_of(actor: Actor, tournament: Tournament, action: str) -> str:
    """For a service: a director of the tournament's club, or its referee for ``action`` (one of
    ``REFEREE_MAY``); else PermissionDenied (the thing was already found, so 403, not 404)."""
    role = tournament_role(actor, tournament)
    if role == DIRECTOR or (role == REFEREE and action in REFEREE_MAY):
        return role
    if role == REFEREE:
        raise PermissionDenied(referee_refusal())
    if action in REFEREE_MAY:
        raise PermissionDenied(gettext("Only a director of this club or the tournament's referee may do this."))
    raise PermissionDenied(gettext("Only a director of this club may do this."))


def referee_refusal() -> str:
    return gettext("A referee may settle disputes, record adjustments and substitute players of their tournament, "
                   "nothing else.")
