"""The moves a tournament, a session and a deal may make, and their refusals, as data: one table,
one wording per refusal. Pure: the services guard their writes with it
(``scoring.services.lifecycle``), the pages and the API ask it which moves to offer.

A tournament goes draft → running → finished (read-only). A session is open or closed, back
and forth while the tournament is not finished; a closed session's scorer links record and
change nothing (a director still may: a late deal). An adjustment (a fine, a bonus) is
recorded and deleted only while the tournament runs (``adjustment_refusal``). A deal is
recorded, may be confirmed, and may be voided; independently it may be disputed and then resolved. Every round service asks
whether its move is allowed from the deal's present state; the pages ask
``round_moves_allowed`` (the same data, the same answer) which moves to offer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext, gettext_noop

from scoring.domain import statuses
from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, DomainError, PermissionDenied
from scoring.domain.outbox import drawn_while_open
from scoring.domain.statuses import (
    ROUND_CONFIRMED,
    ROUND_VOIDED,
    TOURNAMENT_DRAFT,
    TOURNAMENT_FINISHED,
    TOURNAMENT_RUNNING,
)

# ---------------------------------------------------------------------------------------------
# Refusals


@dataclass(frozen=True)
class Refusal:
    """Why a move is refused: the error it raises, its code (never translated) and its message,
    in English and marked for the catalogs; ``text`` is the message in the active language."""

    error: type[DomainError]
    code: str
    message: str

    @property
    def text(self) -> str:
        return gettext(self.message)

    def raise_(self) -> None:
        raise self.error(self.text, code=self.code)


# ---------------------------------------------------------------------------------------------
# Tournaments


@dataclass(frozen=True)
class TournamentMove:
    source: str
    target: str
    stamp: str      # the time field it sets
    verb: str       # for the refusal: "Only a draft tournament can start"


TOURNAMENT_MOVES: dict[str, TournamentMove] = {
    "tournament_start": TournamentMove(TOURNAMENT_DRAFT, TOURNAMENT_RUNNING, "started_at", "start"),
    "tournament_finish": TournamentMove(TOURNAMENT_RUNNING, TOURNAMENT_FINISHED, "finished_at", "finish"),
}


def tournament_move_refusal(action: str, status: str) -> str | None:
    """Why a tournament in ``status`` cannot make ``action`` (code ``bad_status``), or None."""
    move = TOURNAMENT_MOVES[action]
    if status == move.source:
        return None
    return f"Only a {move.source} tournament can {move.verb}; this one is {status}."


#: The tournament-state refusals, in one wording each: every write of a finished tournament,
#: and every deal outside a running one, is refused with these (pages too).
TOURNAMENT_FINISHED_REFUSAL = Refusal(Conflict, "tournament_finished",
                                      gettext_noop("This tournament is finished; it is read-only."))
TOURNAMENT_NOT_RUNNING_REFUSAL = Refusal(
    Conflict, "tournament_not_running",
    gettext_noop("This tournament has not started yet; start it before recording deals."))


def tournament_refusal(status: str) -> Refusal | None:
    """Why deals cannot be recorded or changed in a tournament of this status, or None."""
    if status == TOURNAMENT_FINISHED:
        return TOURNAMENT_FINISHED_REFUSAL
    if status != TOURNAMENT_RUNNING:
        return TOURNAMENT_NOT_RUNNING_REFUSAL
    return None


#: An adjustment (a fine, a bonus: ``services.adjustments``) outside a running tournament: a draft
#: has no standings to move yet; a finished one is read-only (``TOURNAMENT_FINISHED_REFUSAL``).
ADJUSTMENT_NOT_RUNNING_REFUSAL = Refusal(
    Conflict, "tournament_not_running",
    gettext_noop("This tournament has not started yet; start it before recording adjustments."))


def adjustment_refusal(status: str) -> Refusal | None:
    """Why adjustments cannot be recorded or deleted in a tournament of this status, or None."""
    if status == TOURNAMENT_FINISHED:
        return TOURNAMENT_FINISHED_REFUSAL
    if status != TOURNAMENT_RUNNING:
        return ADJUSTMENT_NOT_RUNNING_REFUSAL
    return None


# ---------------------------------------------------------------------------------------------
# Sessions


#: A scorer link of a closed session: its deals are the director's now (a late deal, a correction).
SESSION_CLOSED = Refusal(Conflict, "session_closed", gettext_noop(
    "This table's session has ended: its link records and changes no more deals. Ask the director to record "
    "a late deal."))
#: A new scorer link for a table of a closed session (one table's, or the whole sheet's): it would
#: record nothing, and would not be kept for the sheet; a director reopens the session first.
SESSION_CLOSED_NO_LINKS = Refusal(Conflict, "session_closed", gettext_noop(
    "This session is closed: its links record no deals. Open it again first to make new links."))
#: A session's status moves: action → (from, to, the refusal when it is already there).
SESSION_MOVES: dict[str, tuple[str, str, Refusal]] = {
    "session_close": (statuses.SESSION_OPEN, statuses.SESSION_CLOSED, Refusal(
        Conflict, "session_already_closed", gettext_noop("This session is already closed."))),
    "session_reopen": (statuses.SESSION_CLOSED, statuses.SESSION_OPEN, Refusal(
        Conflict, "session_already_open", gettext_noop("This session is already open."))),
}
NO_CLOCK = Refusal(Conflict, "no_clock", gettext_noop("This session has no clock to stop."))


def session_refusal(session_status: str, actor: Actor, *, drawn_at: datetime | None = None,
                    opened_at: datetime | None = None, closed_at: datetime | None = None) -> Refusal | None:
    """Why ``actor`` may not record or change deals at a table of a session in this status, or
    None: a closed session refuses scorer links only (directors record late deals), except a
    deal its phone drew (``drawn_at``) while the session was open (``opened_at`` to
    ``closed_at``: ``outbox.drawn_while_open``), recorded late. Only a new deal has a drawn time:
    a correction, confirmation or dispute is refused."""
    if session_status == statuses.SESSION_CLOSED and actor.is_scorer:
        if drawn_at is not None and opened_at is not None and drawn_while_open(drawn_at, opened_at=opened_at,
                                                                              closed_at=closed_at):
            return None
        return SESSION_CLOSED
    return None


def session_move_refusal(action: str, session_status: str) -> Refusal | None:
    """The refusal of ``session_close`` / ``session_reopen`` from this status, or None."""
    source, _target, refusal = SESSION_MOVES[action]
    return None if session_status == source else refusal


# ---------------------------------------------------------------------------------------------
# Deals


_VOIDED = Refusal(Conflict, "round_voided", gettext_noop("This deal is voided."))
#: The message and code of ``selectors.access.require_director_of``, which the services ask
#: first: only a scorer link is told this here, by the moves it may not make at all.
_DIRECTORS_ONLY = Refusal(PermissionDenied, "permission_denied", gettext_noop("Only a director of this club may do this."))
#: Once a player has called the referee, the table keeps its hands off the deal: no correction,
#: confirmation or void from a scorer link (whoever holds the phone could otherwise change the deal
#: under the referee's eyes) until a director settles the dispute. A director may still correct,
#: void and settle it.
DISPUTE_HOLD = Refusal(Conflict, "round_disputed", gettext_noop("This deal is disputed; a director must settle it."))


@dataclass(frozen=True)
class RoundMove:
    """``refused``: the statuses it cannot start from, and why; ``scorer_refused``: more of
    them for a scorer link; ``held_by_dispute``: refused to a scorer link while the deal is
    disputed (``DISPUTE_HOLD``, before any other refusal); ``disputed``: the refusal when the
    deal is not disputed, for a move that needs a dispute (``needs_dispute``);
    ``directors_only``: never from a scorer link."""

    refused: dict[str, Refusal] = field(default_factory=dict)
    scorer_refused: dict[str, Refusal] = field(default_factory=dict)
    held_by_dispute: bool = False
    disputed: Refusal | None = None
    needs_dispute: bool = False
    directors_only: bool = False
    #: Refused to a scorer link once the deal's session is closed (``session_refusal``).
    open_session_only: bool = False


ROUND_MOVES: dict[str, RoundMove] = {
    "round_correct": RoundMove(
        refused={ROUND_VOIDED: Refusal(Conflict, "round_voided",
                                        gettext_noop("This deal is voided; it cannot be corrected."))},
        scorer_refused={ROUND_CONFIRMED: Refusal(PermissionDenied, "round_confirmed", gettext_noop(
            "This deal is confirmed; only a director can correct it now."))},
        held_by_dispute=True, open_session_only=True),
    "round_confirm": RoundMove(
        refused={ROUND_CONFIRMED: Refusal(Conflict, "already_confirmed",
                                           gettext_noop("This deal is already confirmed.")),
                 ROUND_VOIDED: _VOIDED},
        held_by_dispute=True, open_session_only=True),
    "round_void": RoundMove(
        refused={ROUND_VOIDED: Refusal(Conflict, "round_voided", gettext_noop("This deal is already voided."))},
        held_by_dispute=True, directors_only=True),
    "round_dispute": RoundMove(refused={ROUND_VOIDED: _VOIDED}),
    "round_dispute_resolve": RoundMove(
        disputed=Refusal(Conflict, "not_disputed", gettext_noop("This deal is not disputed.")), needs_dispute=True,
        directors_only=True),
}


def _round_refusal(move: RoundMove, *, status: str, disputed: bool, is_scorer: bool) -> Refusal | None:
    if move.held_by_dispute and is_scorer and disputed:
        # first: the table is told why the deal is out of its hands, whatever else would refuse
        return DISPUTE_HOLD
    if move.directors_only and is_scorer:
        return _DIRECTORS_ONLY
    refusal = move.refused.get(status)
    if refusal is None and is_scorer:
        refusal = move.scorer_refused.get(status)
    if refusal is not None:
        return refusal
    if move.needs_dispute and not disputed:
        return move.disputed
    return None


def round_moves_allowed(round: Any, actor: Actor, *,
                        tournament: Any = None, session: Any = None) -> dict[str, Refusal | None]:
    """Each move of ``ROUND_MOVES`` on this deal now, for this kind of actor (director or scorer
    link): None when allowed, else its refusal — a tournament that is not running first, then
    a closed session (for a scorer link), then the deal's own state. What the pages offer and
    what ``round_guard`` lets through.

    ``round``: a Round, or a deal as the pages list it (a dict with ``status`` and ``disputed``,
    ``tournament`` then given, and ``session`` for a scorer link's page: without it no session
    refuses). Whose club it is, and the moves' inputs, are the services' to check.
    ``tournament``, ``session``: as read by the caller (not read again here)."""
    if isinstance(round, Mapping):
        status, disputed = round["status"], round["disputed"]
    else:
        status, disputed = round.status, round.disputed
        tournament = tournament or round.table.session.tournament
        if session is None and round.table_id is not None:
            session = round.table.session
    if tournament is None:
        raise TypeError("round_moves_allowed needs the tournament of a deal given as a dict")
    blocked = tournament_refusal(tournament.status)
    ended = session_refusal(session.status, actor) if session is not None else None
    return {action: blocked or (ended if move.open_session_only else None)
            or _round_refusal(move, status=status, disputed=disputed, is_scorer=actor.is_scorer)
            for action, move in ROUND_MOVES.items()}


def round_moves_open(round: Any, actor: Actor, *,
                     tournament: Any = None, session: Any = None) -> set[str]:
    """The moves ``round_moves_allowed`` allows, by name (what a page offers)."""
    return {action for action, refusal in round_moves_allowed(round, actor, tournament=tournament,
                                                              session=session).items()
            if refusal is None}


def confirmed_with_the_shown(round: Any) -> bool:
    """Whether a deal is one that "Confirm all shown" on the director's table page confirms: recorded,
    not disputed, and typed in by a director — from the table's paper sheet, or late — so that no
    phone at the table will confirm it. ``round``: a Round, or a deal as the pages list it."""
    if isinstance(round, Mapping):
        status, disputed, late, paper_sheet = round["status"], round["disputed"], round["late"], round["paper_sheet"]
    else:
        status, disputed, late, paper_sheet = round.status, round.disputed, round.late, round.paper_sheet
    return status == statuses.ROUND_RECORDED and not disputed and bool(late or paper_sheet)
