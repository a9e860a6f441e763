"""Players' personal codes: set by the player at first use at a table (through its scorer link,
only while none is set) or by the director, issued by the director on a player card, reset by
the director. Stored hashed (Django's password hashers); the plain code is never stored or logged.

Every change counts up ``Entry.code_version``: a phone remembers a player with the version it
was proven under (``scoring.web.player_proof``), so a new code or a reset makes it forget them.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.domain.proof import ISSUED_CODE_DIGITS, code_shape_message, is_code
from scoring.models import ActionLog, Entry, Seat, Tournament
from scoring.selectors.access import require_director_of
from scoring.services.common import action_log, entry_locked
from scoring.services.lifecycle import require_not_finished, require_running


def _store(entry: Entry, code: str | None) -> None:
    entry.code_hash = make_password(code) if code is not None else ""
    entry.code_version += 1
    entry.save(update_fields=["code_hash", "code_version"])


def _logged(entry: Entry, by: str) -> dict:
    return {"player": entry.player_id, "name": entry.player.name, "by": by, "version": entry.code_version}


def entry_code_set(*, actor: Actor, entry: Entry, code: Any, code_again: Any = None) -> Entry:
    """Set ``entry``'s personal code (4 to 6 digits; ``code_again``, when given, must repeat it).

    Through a scorer link: the player sits at that table, the tournament runs, and no code is set
    yet (409 ``code_already_set``: only the director changes a code, so nobody at the table can
    take over another player's). A director of the club: any time before the finish."""
    if not is_code(code):
        raise ValidationFailed(code_shape_message(), path="code", code="bad_code")
    if code_again is not None and code_again != code:
        raise ValidationFailed(gettext("The two codes differ: type the same code twice."), path="code_again",
                               code="codes_differ")
    with transaction.atomic():
        e = entry_locked(entry)
        tournament = e.tournament
        if actor.is_scorer:
            if not Seat.objects.filter(table=actor.table, entry=e).exists():
                raise PermissionDenied(gettext("This player does not sit at this table."), code="not_at_table")
            require_running(tournament)
            if e.code_hash:
                raise Conflict(gettext("%(name)s already has a code: type it, or ask the director to reset it.")
                               % {"name": e.player.name}, path="code", code="code_already_set")
        else:
            require_director_of(actor, tournament.club)
            require_not_finished(tournament)
        _store(e, code)
        action_log(actor, ActionLog.Action.ENTRY_CODE_SET, e, tournament=tournament,
                   data=_logged(e, "player" if actor.is_scorer else "director"))
    entry.code_hash, entry.code_version = e.code_hash, e.code_version
    return entry


def _new_code() -> str:
    return f"{secrets.randbelow(10 ** ISSUED_CODE_DIGITS):0{ISSUED_CODE_DIGITS}d}"


def _issue(actor: Actor, entry: Entry, tournament: Tournament) -> str:
    code = _new_code()
    _store(entry, code)
    action_log(actor, ActionLog.Action.ENTRY_CODE_ISSUE, entry, tournament=tournament, data=_logged(entry, "director"))
    return code


def entry_code_issue(*, actor: Actor, entry: Entry) -> str:
    """A fresh code for ``entry`` (directors), replacing any: the plain code, to be printed on the
    player's card now; only its hash is kept."""
    require_director_of(actor, entry.tournament.club)
    with transaction.atomic():
        e = entry_locked(entry)
        require_not_finished(e.tournament)
        code = _issue(actor, e, e.tournament)
    entry.code_hash, entry.code_version = e.code_hash, e.code_version
    return code


def entry_codes_issue(*, actor: Actor, tournament: Tournament) -> list[tuple[Entry, str]]:
    """A fresh code for every entry of ``tournament`` (directors; the printable sheet of player
    cards): ``(entry, code)`` by player name. One row per entry, as ``entry_code_issue`` logs."""
    require_director_of(actor, tournament.club)
    with transaction.atomic():
        require_not_finished(tournament)
        entries = list(Entry.objects.select_for_update(of=("self",)).select_related("player")
                       .filter(tournament=tournament).order_by("player__name", "id"))
        return [(e, _issue(actor, e, tournament)) for e in entries]


def entry_code_reset(*, actor: Actor, entry: Entry) -> Entry:
    """Forget ``entry``'s code (directors): the player sets a new one at their next use, and every
    phone that remembered them forgets them."""
    require_director_of(actor, entry.tournament.club)
    with transaction.atomic():
        e = entry_locked(entry)
        require_not_finished(e.tournament)
        _store(e, None)
        action_log(actor, ActionLog.Action.ENTRY_CODE_RESET, e, tournament=e.tournament, data=_logged(e, "director"))
    entry.code_hash, entry.code_version = e.code_hash, e.code_version
    return entry
