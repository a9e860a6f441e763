"""Who is acting: a director or a referee (a Django user), the scorer link of one table, or the system.

Services take an ``Actor`` so that the audit row records who did what from where, and so that
the same permission checks (``scoring.selectors.access``) serve the API and the pages. Build one with
``scoring.web.auth.actor_from_request(request)`` (API and pages) or directly:
``Actor(user=director)``, ``Actor(table=table)``, ``Actor.system()``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Actor:
    user: Any = None          # a django.contrib.auth user (director), or None
    table: Any = None         # scoring.models.Table when acting through a scorer link
    ip: str | None = None
    is_system: bool = False   # Celery tasks, management commands
    #: The player who proved who they are for this write, as the label says it ("entered by Chen
    #: (proven)"); the services set it (``dataclasses.replace``) once the proof is checked.
    as_player: str = ""
    #: The phone acting through a scorer page (``scoring.web.player_proof.this_phone``), "" when not
    #: known: recorded with a deal it enters and a first code it sets (``scoring.domain.proof``).
    phone: str = ""

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
        base = self._who()
        return f"{base}, {self.as_player}" if self.as_player else base

    def _who(self) -> str:
        if self.is_system:
            return "system"
        if self.user is not None and getattr(self.user, "is_authenticated", False):
            # A signed-in user who is not staff can act as a tournament's referee only.
            return f"{'director' if self.is_director else 'referee'} {self.user.get_username()}"
        if self.table is not None:
            return f"scorer of table {self.table.name} (#{self.table.pk})"
        return "anonymous"

    @property
    def user_or_none(self):
        u = self.user
        return u if (u is not None and getattr(u, "is_authenticated", False)) else None
