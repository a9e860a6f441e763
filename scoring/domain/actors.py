"""Who is acting: a director (a Django user), the scorer link of one table, or the system.

Services take an ``Actor`` so that the audit row records who did what from where, and so that
the same permission checks serve the API and the pages. Build one with
``scoring.web.auth.actor_from_request(request)`` (API and pages) or directly:
``Actor(user=director)``, ``Actor(table=table)``, ``Actor.system()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scoring.domain.errors import NotFound, PermissionDenied

if TYPE_CHECKING:  # pragma: no cover
    from scoring.models import Club, Table


@dataclass(frozen=True)
class Actor:
    user: Any = None          # a django.contrib.auth user (director), or None
    table: Any = None         # scoring.models.Table when acting through a scorer link
    ip: str | None = None
    is_system: bool = False   # Celery tasks, management commands

    @classmethod
    def system(cls, label_ip: str | None = None) -> "Actor":
        return cls(is_system=True, ip=label_ip)

    @property
    def is_scorer(self) -> bool:
        return self.table is not None and self.user is None

    @property
    def is_director(self) -> bool:
        """A logged-in staff user (what ``create_director`` makes)."""
        u = self.user
        return bool(u is not None and getattr(u, "is_authenticated", False) and u.is_active
                    and (u.is_staff or u.is_superuser))

    @property
    def label(self) -> str:
        if self.is_system:
            return "system"
        if self.user is not None and getattr(self.user, "is_authenticated", False):
            return f"director {self.user.get_username()}"
        if self.table is not None:
            return f"scorer of table {self.table.name} (#{self.table.pk})"
        return "anonymous"

    @property
    def user_or_none(self):
        u = self.user
        return u if (u is not None and getattr(u, "is_authenticated", False)) else None


# ---------------------------------------------------------------------------------------------
# Permission checks shared by services, API views and page views. They raise PermissionDenied.

def is_director_of(actor: Actor, club: "Club") -> bool:
    if actor.is_system:
        return True
    if not actor.is_director:
        return False
    if actor.user.is_superuser:
        return True
    return club.directors.filter(pk=actor.user.pk).exists()


def require_director(actor: Actor) -> None:
    if not (actor.is_system or actor.is_director):
        raise PermissionDenied("Only a tournament director may do this.")


def require_director_of(actor: Actor, club: "Club") -> None:
    if not is_director_of(actor, club):
        raise PermissionDenied("Only a director of this club may do this.")


def can_access_table(actor: Actor, table: "Table") -> bool:
    if actor.is_scorer:
        return actor.table.pk == table.pk
    return is_director_of(actor, table.session.tournament.club)


def require_table_access(actor: Actor, table: "Table") -> None:
    if not can_access_table(actor, table):
        if actor.is_scorer:
            raise PermissionDenied("This scorer link belongs to another table.")
        raise PermissionDenied("Only a director of this club or the table's scorer may do this.")


# ---------------------------------------------------------------------------------------------
# Looking things up by id: what the actor may not see answers as if it did not exist, so that the
# ids of other clubs and tables cannot be told apart from ids that do not exist.

def require_club_visible(actor: Actor, club: "Club", what: str) -> None:
    """NotFound ("No such <what>.") unless the actor directs ``club``."""
    if not is_director_of(actor, club):
        raise NotFound(f"No such {what}.")


def require_table_visible(actor: Actor, table: "Table", what: str = "table") -> None:
    """NotFound unless the actor may use this table (its scorer link, or a director of its club)."""
    if not can_access_table(actor, table):
        raise NotFound(f"No such {what}.")
