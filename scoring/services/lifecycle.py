"""The guards each service calls before a move: the tournament's status read again from the
database, then the answer of the moves' table (``scoring.domain.lifecycle``, where the moves and
their refusals are written, once)."""

from __future__ import annotations

from scoring.domain.actors import Actor
from scoring.domain.lifecycle import TOURNAMENT_FINISHED_REFUSAL, round_moves_allowed, tournament_refusal
from scoring.models import Round, Tournament


def fresh_status(tournament: Tournament) -> str:
    """The status in the database (objects passed in may be stale)."""
    status = Tournament.objects.filter(pk=tournament.pk).values_list("status", flat=True).first()
    tournament.status = status or tournament.status
    return tournament.status


def require_not_finished(tournament: Tournament, *, fresh: bool = True) -> None:
    status = fresh_status(tournament) if fresh else tournament.status
    if status == Tournament.Status.FINISHED:
        TOURNAMENT_FINISHED_REFUSAL.raise_()


def require_running(tournament: Tournament, *, fresh: bool = True) -> None:
    """Deals are recorded and changed only while the tournament runs. ``fresh=False``: the
    caller has just read (and locked) the tournament itself."""
    refusal = tournament_refusal(fresh_status(tournament) if fresh else tournament.status)
    if refusal is not None:
        refusal.raise_()


def round_guard(*, action: str, round: Round, tournament: Tournament, actor: Actor, fresh: bool = True) -> None:
    """Raise the refusal of ``action`` on this deal now, if any (see ``round_moves_allowed``);
    the tournament's status is read again unless ``fresh=False`` (the caller has just locked it)."""
    require_running(tournament, fresh=fresh)  # the status read again (and set on ``tournament``)
    refusal = round_moves_allowed(round, actor, tournament=tournament)[action]
    if refusal is not None:
        refusal.raise_()
