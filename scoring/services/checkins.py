"""Check-in per session: who is in the room before a session is seated.

Sessions are made by seating (session N+1 with its tables, ``services.seating``); so that
players can check in before that, the director opens the next session ahead of seating
(``session_open_ahead``: a session with no tables yet, the "check-in session"), and seating then
fills that session instead of making another. Check-ins are taken only for such a session: open,
not seated yet (a session with tables is seated: 409 ``session_seated``; a closed one: 409
``session_closed``).

A director ticks an entry in (``entry_check_in``) or out (``entry_check_in_undo``); a player
checks themselves in with their personal code (``entry_self_check_in``, from the room's QR
code; a wrong code changes nothing: 403 ``wrong_player_code``, counted by the HTTP edge).
Idempotent: checking in twice keeps the one row (no second log row); undoing a check-in that is
not there changes nothing. Every change is logged (``entry_check_in`` / ``entry_check_in_undo``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain import proof as proofs
from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from scoring.domain.inputs import MAX_ID, is_int
from scoring.models import ActionLog, Entry, Session, SessionCheckIn, Table, Tournament
from scoring.selectors.access import require_director_of
from scoring.selectors.checkins import check_in_session
from scoring.selectors.players import entry_code_matches, has_code
from scoring.services.common import action_log
from scoring.services.lifecycle import require_not_finished
from scoring.services.tables import withdrawn_problem


def session_open_ahead(*, actor: Actor, tournament: Tournament) -> tuple[Session, bool]:
    """The session players check in for, opened ahead of seating: the newest session when it is
    open and has no tables yet, else a new one (the next number, no tables; logged
    ``session_create``). ``(session, created)``: opening it twice makes one."""
    require_director_of(actor, tournament.club)
    require_not_finished(tournament)
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        found = check_in_session(tournament)
        if found is not None:
            return found, False
        number = (tournament.sessions.aggregate(m=Max("number"))["m"] or 0) + 1
        session = Session.objects.create(tournament=tournament, number=number)
        action_log(actor, ActionLog.Action.SESSION_CREATE, session, tournament=tournament,
                   data={"number": number, "ahead_of_seating": True})
    return session, True


def _entry(session: Session, entry_id: Any, path: str) -> Entry:
    """Entry ``entry_id`` of the session's tournament, not withdrawn (400 at ``path`` else)."""
    if not is_int(entry_id, 1, MAX_ID):
        raise ValidationFailed(gettext("entry is an entry id."), path=path, code="bad_type")
    entry = Entry.objects.select_related("player").filter(pk=entry_id, tournament_id=session.tournament_id).first()
    if entry is None:
        raise ValidationFailed(gettext("No such entry in this tournament."), path=path, code="not_found")
    if entry.withdrawn_at is not None:
        raise ValidationFailed(errors=[withdrawn_problem(path, entry)])
    return entry


def _require_checkable(session: Session) -> None:
    """Check-ins change only for an open session that is not seated yet."""
    if session.status != Session.Status.OPEN:
        raise Conflict(gettext("Session %(number)s is closed: check-in is over.") % {"number": session.number},
                       code="session_closed")
    if Table.objects.filter(session=session).exists():
        raise Conflict(gettext("Session %(number)s is seated already: check-in is for the session about to be "
                               "seated.") % {"number": session.number}, code="session_seated")


def _check_in(actor: Actor, session: Session, entry: Entry, how: str) -> tuple[SessionCheckIn, bool]:
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        _require_checkable(locked)
        found = SessionCheckIn.objects.select_related("entry__player").filter(session=locked, entry=entry).first()
        if found is not None:
            return found, False
        try:
            with transaction.atomic():
                row = SessionCheckIn.objects.create(
                    session=locked, entry=entry, checked_in_at=timezone.now(), how=how,
                    by=actor.user_or_none if how == SessionCheckIn.How.DIRECTOR else None)
        except IntegrityError:   # checked in meanwhile by another hand: that row stands
            return SessionCheckIn.objects.select_related("entry__player").get(session=locked, entry=entry), False
        action_log(actor, ActionLog.Action.ENTRY_CHECK_IN, row, tournament=session.tournament,
                   data={"session": locked.number, "entry": entry.pk, "name": entry.player.name, "how": how})
    return row, True


def entry_check_in(*, actor: Actor, session: Session, entry_id: Any) -> tuple[SessionCheckIn, bool]:
    """A director ticks entry ``entry_id`` in for ``session``. ``(row, created)``: a second
    check-in answers the first row (``created`` False) and logs nothing."""
    require_director_of(actor, session.tournament.club)
    require_not_finished(session.tournament)
    entry = _entry(session, entry_id, "entry")
    return _check_in(actor, session, entry, SessionCheckIn.How.DIRECTOR)


def entry_check_in_undo(*, actor: Actor, session: Session, entry_id: Any) -> bool:
    """A director takes entry ``entry_id``'s check-in back (a tick by mistake, a player who
    left). True when there was one; False (nothing changed, nothing logged) when there was none;
    NotFound for an entry of another tournament."""
    require_director_of(actor, session.tournament.club)
    require_not_finished(session.tournament)
    if not is_int(entry_id, 1, MAX_ID):
        raise ValidationFailed(gettext("entry is an entry id."), path="entry", code="bad_type")
    if not Entry.objects.filter(pk=entry_id, tournament_id=session.tournament_id).exists():
        raise NotFound(gettext("No such entry in this tournament."))
    with transaction.atomic():
        locked = Session.objects.select_for_update().get(pk=session.pk)
        _require_checkable(locked)
        row = SessionCheckIn.objects.filter(session=locked, entry_id=entry_id).first()
        if row is None:
            return False
        row.delete()
        action_log(actor, ActionLog.Action.ENTRY_CHECK_IN_UNDO, locked, tournament=session.tournament,
                   data={"session": locked.number, "entry": entry_id, "how": row.how})
    return True


def entry_self_check_in(*, actor: Actor, tournament: Tournament, entry_id: Any, code: Any) -> tuple[SessionCheckIn, bool]:
    """A player checks themselves in for the tournament's check-in session
    (``selectors.checkins.check_in_session``; 409 ``no_check_in`` when none is open), proving who
    they are with their personal code: no code yet (403 ``player_code_not_set``), a code of the
    wrong shape (400 ``bad_code``) or a wrong one (403 ``wrong_player_code``), at ``code``;
    nothing changes then."""
    require_not_finished(tournament)
    session = check_in_session(tournament)
    if session is None:
        raise Conflict(gettext("Check-in is not open: the director opens it before the session is seated."),
                       code="no_check_in")
    entry = _entry(session, entry_id, "entry")
    name = entry.player.name
    if not has_code(entry):
        raise PermissionDenied(gettext("%(name)s has no personal code yet: ask the director to check you in.")
                               % {"name": name}, path="code", code=proofs.CODE_NOT_SET)
    if not proofs.is_code(code):
        raise ValidationFailed(proofs.code_shape_message(), path="code", code="bad_code")
    if not entry_code_matches(entry, code):
        raise PermissionDenied(gettext("Wrong code for %(name)s.") % {"name": name}, path="code",
                               code=proofs.WRONG_CODE)
    return _check_in(replace(actor, as_player=f"{name} (proven)"), session, entry, SessionCheckIn.How.SELF)
