"""Whose rows a piece of work may reach: the scope PostgreSQL's row-level security reads.

Every club-owned table has policies (migration 0033) keyed on three settings of the current
transaction: ``gupai.all`` (``on``: the system — a management command, a housekeeping task),
``gupai.clubs`` (the club ids a worker's job or a scorer link belong to) and ``gupai.user``
(a signed-in director: the policies read their clubs from ``scoring_club_directors`` themselves,
so a director's request costs no query to learn them; a referee's, the clubs of the tournaments
they referee, from ``scoring_tournamentreferee``: migration 0034). With none of them, only what the public
pages show is readable.

The scope lives in a context variable, per request or task; ``sql()`` is the statement that
sets it with ``set_config(…, true)``, local to the transaction (never to the session: a pooled
connection would carry it to the next client). The site's connections put it before every
statement that reads a ``scoring_`` table (``gupai_site.row_security``). Pure: no Django.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class Scope:
    """``system``: every row; else the rows of ``clubs``, of the clubs ``user`` directs, and
    the public ones. ``lazy_user`` (a request's) gives the signed-in user when first needed."""

    system: bool = False
    clubs: set[int] = field(default_factory=set)
    user: int | None = None
    lazy_user: Callable[[], object] | None = None
    _resolving: bool = False

    def add_club(self, club_id: int) -> None:
        self.clubs.add(int(club_id))

    def set_user(self, user) -> None:
        """A signed-in user: a superuser reaches every row (the admin), a director their clubs."""
        self.lazy_user = None
        if getattr(user, "is_superuser", False):
            self.system = True
        elif getattr(user, "is_authenticated", False) and getattr(user, "pk", None) is not None:
            self.user = int(user.pk)

    def resolve(self) -> None:
        """Ask ``lazy_user`` now (its own queries, run meanwhile in the public scope, read no
        club-owned table: the session and the user)."""
        if self.lazy_user is None or self._resolving:
            return
        self._resolving = True
        try:
            user = self.lazy_user()
        finally:
            self._resolving = False
        self.set_user(user)

    def sql(self) -> str:
        """The statement setting this scope for the current transaction only. Every value is a
        number the site made, never text from a request."""
        if not self._resolving:
            self.resolve()
        clubs = "{" + ",".join(str(int(c)) for c in sorted(self.clubs)) + "}"
        user = "" if self.user is None else str(int(self.user))
        return (f"SELECT set_config('gupai.all', '{'on' if self.system else 'off'}', true), "
                f"set_config('gupai.clubs', '{clubs}', true), set_config('gupai.user', '{user}', true)")


def public() -> Scope:
    return Scope()


def system() -> Scope:
    return Scope(system=True)


def of_clubs(club_ids: Iterable[int]) -> Scope:
    return Scope(clubs={int(c) for c in club_ids})


#: What a process does when no request or task set a scope: public (web servers, workers);
#: ``manage.py`` makes its commands and migrations the system (``use_by_default``).
_default: list[Scope] = [public()]
_current: contextvars.ContextVar[Scope] = contextvars.ContextVar("gupai_row_scope")


def current() -> Scope:
    try:
        return _current.get()
    except LookupError:
        return _default[0]


def use_by_default(scope: Scope) -> None:
    """The scope of everything this process runs outside a request or a task."""
    _default[0] = scope


def enter(scope: Scope) -> contextvars.Token:
    return _current.set(scope)


def leave(token: contextvars.Token) -> None:
    _current.reset(token)


@contextmanager
def within(scope: Scope) -> Iterator[Scope]:
    """Run the block in ``scope``; the previous scope after it."""
    token = enter(scope)
    try:
        yield scope
    finally:
        leave(token)


def _own() -> Scope:
    """This context's scope, to widen: never the process's default (shared by every context),
    a copy of it set here instead."""
    try:
        return _current.get()
    except LookupError:
        base = _default[0]
        scope = Scope(system=base.system, clubs=set(base.clubs), user=base.user)
        _current.set(scope)
        return scope


def admit_club(club_id: int) -> None:
    """The current scope reaches ``club_id``'s rows too (a scorer link's club, found)."""
    _own().add_club(club_id)


def admit_user(user) -> None:
    """The current scope reaches what ``user`` may (a director's token, checked)."""
    _own().set_user(user)


def narrow_to_club(club_id: int) -> None:
    """The current scope becomes ``club_id``'s rows and the public's only (a worker, its job's
    club found)."""
    scope = _own()
    scope.system, scope.clubs, scope.user, scope.lazy_user = False, {int(club_id)}, None, None
