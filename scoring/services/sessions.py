"""A session's status and clock: close, reopen, start the clock, stop it.

A closed session's scorer links record and change nothing (``lifecycle.session_refusal``); a
director may still record a late deal there. Closing erases the links' kept secrets
(``Table.scorer_token_secret``): a closed session's sheet shows no links, even reopened. Seating the next session closes the open earlier
ones (``services.seating.session_seat``, through ``session_close``) unless the director keeps
them open. The clock is two times on the session, set here from the server's clock: the pages
count down from them, and a deal recorded after the end is marked ``after_time``. Starting or
stopping it is a live event (``session_clock_started``, ``session_clock_stopped``): the room
display and the public pages show the new clock at once.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import MAX_CLOCK_MINUTES, is_int
from scoring.domain.lifecycle import NO_CLOCK, SESSION_CLOSED, session_move_refusal
from scoring.models import ActionLog, PaperSheetJob, Session, Table
from scoring.selectors.access import require_director_of
from scoring.services.common import action_log
from scoring.services.events import event_publish, session_data
from scoring.services.lifecycle import require_not_finished
from scoring.services.paper_sheets import paper_sheets_drop


def _locked(session: Session) -> Session:
    """The session's row, locked (a deal being recorded holds it in share mode: see
    ``services.rounds``), with its tournament and club."""
    return Session.objects.select_for_update(of=("self",)).select_related("tournament__club").get(pk=session.pk)


def _check(actor: Actor, session: Session) -> None:
    require_director_of(actor, session.tournament.club)
    require_not_finished(session.tournament)


def _move(*, actor: Actor, session: Session, action: str, publish: bool = True) -> Session:
    _check(actor, session)
    with transaction.atomic():
        locked = _locked(session)
        refusal = session_move_refusal(action, locked.status)
        if refusal is not None:
            refusal.raise_()
        closing = action == "session_close"
        locked.status = Session.Status.CLOSED if closing else Session.Status.OPEN
        locked.closed_at = timezone.now() if closing else None
        locked.save(update_fields=["status", "closed_at", "changed_at"])
        if closing:   # its links are shown no more: their kept secrets go (reopened, new links are made)
            Table.objects.filter(session=locked).exclude(scorer_token_secret=None).update(scorer_token_secret=None)
            paper_sheets_drop(sessions=[locked.pk], reason=PaperSheetJob.Reason.SESSION_CLOSED)
        action_log(actor, ActionLog.Action(action), locked, tournament=locked.tournament,
                   data={"number": locked.number})
        if publish:
            event_publish(tournament=locked.tournament, kind="session_closed" if closing else "session_reopened",
                          data=session_data(locked))
    return locked


def session_close(*, actor: Actor, session: Session, publish: bool = True) -> Session:
    """Close an open session: its scorer links record no more deals (Conflict
    ``session_closed``), its scorer pages say where each player sits now. Conflict
    ``session_already_closed`` when it is closed.

    ``publish=False``: no live event of its own — seating closes earlier sessions and says so in
    its one event, taken last: the feed's lock taken between two session locks would deadlock
    with a deal that holds one of them (``services.events``)."""
    return _move(actor=actor, session=session, action="session_close", publish=publish)


def session_reopen(*, actor: Actor, session: Session) -> Session:
    """Open a closed session again (closed by mistake, or sessions that overlap). Conflict
    ``session_already_open`` when it is open."""
    return _move(actor=actor, session=session, action="session_reopen")


def _minutes(value: Any) -> int:
    if not is_int(value, 1, MAX_CLOCK_MINUTES):
        raise ValidationFailed(gettext("minutes is a whole number of minutes, 1 to %(max)s.") % {"max": MAX_CLOCK_MINUTES},
                               path="minutes", code="bad_minutes")
    return value


def session_clock_start(*, actor: Actor, session: Session, minutes: Any) -> Session:
    """Start the session's clock: it ends ``minutes`` from now (the server's time). Started
    again, it starts over. A closed session has no clock to start (Conflict ``session_closed``)."""
    _check(actor, session)
    minutes = _minutes(minutes)
    with transaction.atomic():
        locked = _locked(session)
        if locked.is_closed:
            raise SESSION_CLOSED.error(gettext("This session is closed: reopen it to start its clock."),
                                       code=SESSION_CLOSED.code)
        now = timezone.now()
        locked.clock_started_at, locked.clock_ends_at = now, now + timedelta(minutes=minutes)
        locked.save(update_fields=["clock_started_at", "clock_ends_at", "changed_at"])
        action_log(actor, ActionLog.Action.SESSION_CLOCK_START, locked, tournament=locked.tournament,
                   data={"number": locked.number, "minutes": minutes, "ends_at": locked.clock_ends_at})
        event_publish(tournament=locked.tournament, kind="session_clock_started",
                      data=session_data(locked, ends_at=locked.clock_ends_at))
    return locked


def session_clock_stop(*, actor: Actor, session: Session) -> Session:
    """Take the clock off the session (running or run out). Conflict ``clock_not_running``
    when it has none."""
    _check(actor, session)
    with transaction.atomic():
        locked = _locked(session)
        if locked.clock_ends_at is None:
            NO_CLOCK.raise_()
        ended = locked.clock_ends_at
        locked.clock_started_at = locked.clock_ends_at = None
        locked.save(update_fields=["clock_started_at", "clock_ends_at", "changed_at"])
        action_log(actor, ActionLog.Action.SESSION_CLOCK_STOP, locked, tournament=locked.tournament,
                   data={"number": locked.number, "ends_at": ended})
        event_publish(tournament=locked.tournament, kind="session_clock_stopped",
                      data=session_data(locked, ends_at=None))
    return locked
