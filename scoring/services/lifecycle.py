"""The moves a tournament and a deal may make, as data, and the one guard each service calls.

A tournament goes draft → running → finished (read-only). A deal is recorded, may be confirmed,
and may be voided; independently it may be disputed and then resolved. Every round service
asks ``round_guard`` whether its move is allowed from the deal's present state.
"""

from __future__ import annotations

from django.utils.translation import gettext
from dataclasses import dataclass, field

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, DomainError, PermissionDenied
from scoring.models import Round, Tournament

Status = Round.Status

# ---------------------------------------------------------------------------------------------
# Tournaments


@dataclass(frozen=True)
class TournamentMove:
    source: str
    target: str
    stamp: str      # the time field it sets
    verb: str       # for the refusal: "Only a draft tournament can start"


TOURNAMENT_MOVES: dict[str, TournamentMove] = {
    "tournament_start": TournamentMove(Tournament.Status.DRAFT, Tournament.Status.RUNNING, "started_at", "start"),
    "tournament_finish": TournamentMove(Tournament.Status.RUNNING, Tournament.Status.FINISHED, "finished_at",
                                        "finish"),
}


def fresh_status(tournament: Tournament) -> str:
    """The status in the database (objects passed in may be stale)."""
    status = Tournament.objects.filter(pk=tournament.pk).values_list("status", flat=True).first()
    tournament.status = status or tournament.status
    return tournament.status


def _finished() -> Conflict:
    return Conflict(gettext("This tournament is finished; it is read-only."), code="tournament_finished")


def require_not_finished(tournament: Tournament, *, fresh: bool = True) -> None:
    status = fresh_status(tournament) if fresh else tournament.status
    if status == Tournament.Status.FINISHED:
        raise _finished()


def require_running(tournament: Tournament, *, fresh: bool = True) -> None:
    """Deals are recorded and changed only while the tournament runs. ``fresh=False``: the
    caller has just read (and locked) the tournament itself."""
    status = fresh_status(tournament) if fresh else tournament.status
    if status == Tournament.Status.FINISHED:
        raise _finished()
    if status != Tournament.Status.RUNNING:
        raise Conflict(gettext("This tournament has not started yet; start it before recording deals."),
                       code="tournament_not_running")


# ---------------------------------------------------------------------------------------------
# Deals


@dataclass(frozen=True)
class Refusal:
    error: type[DomainError]
    code: str
    message: str

    def raise_(self) -> None:
        raise self.error(self.message, code=self.code)


_VOIDED = Refusal(Conflict, "round_voided", "This deal is voided.")


@dataclass(frozen=True)
class RoundMove:
    """``refused``: the statuses it cannot start from, and why; ``scorer_refused``: more of
    them for a scorer link; ``disputed``: the refusal when the deal is (or, with
    ``needs_dispute``, is not) disputed — for scorers only unless ``needs_dispute``."""

    refused: dict[str, Refusal] = field(default_factory=dict)
    scorer_refused: dict[str, Refusal] = field(default_factory=dict)
    disputed: Refusal | None = None
    needs_dispute: bool = False


ROUND_MOVES: dict[str, RoundMove] = {
    "round_correct": RoundMove(
        refused={Status.VOIDED: Refusal(Conflict, "round_voided", "This deal is voided; it cannot be corrected.")},
        scorer_refused={Status.CONFIRMED: Refusal(PermissionDenied, "round_confirmed",
                                                  "This deal is confirmed; only a director can correct it now.")}),
    "round_confirm": RoundMove(
        refused={Status.CONFIRMED: Refusal(Conflict, "already_confirmed", "This deal is already confirmed."),
                 Status.VOIDED: _VOIDED},
        disputed=Refusal(Conflict, "round_disputed", "This deal is disputed; a director must settle it.")),
    "round_void": RoundMove(
        refused={Status.VOIDED: Refusal(Conflict, "round_voided", "This deal is already voided.")}),
    "round_dispute": RoundMove(refused={Status.VOIDED: _VOIDED}),
    "round_dispute_resolve": RoundMove(
        disputed=Refusal(Conflict, "not_disputed", "This deal is not disputed."), needs_dispute=True),
}


def round_guard(*, action: str, round: Round, tournament: Tournament, actor: Actor, fresh: bool = True) -> None:
    """Raise the refusal of ``action`` on this deal now, if any: a tournament that is not
    running, a status the move cannot start from, a dispute in the way (or missing)."""
    require_running(tournament, fresh=fresh)
    move = ROUND_MOVES[action]
    refusal = move.refused.get(round.status)
    if refusal is None and actor.is_scorer:
        refusal = move.scorer_refused.get(round.status)
    if refusal is not None:
        refusal.raise_()
    if move.disputed is not None:
        if move.needs_dispute and not round.disputed:
            move.disputed.raise_()
        if not move.needs_dispute and actor.is_scorer and round.disputed:
            move.disputed.raise_()
