"""Celery tasks: they only look things up and call services.

The long jobs a director starts (an import, paper sheets) go to their own queue,
``documents`` (``gupai_site/queues.py``), so that follow-ups (standings, ratings, audits)
never wait behind them; and a club runs one at a time: a club's job that finds another of the
club's under way goes back on the queue for ``DEFER_SECONDS``, so that the worker takes another
club's job meanwhile (one club's six sessions of paper sheets held another club's import for
151 s).

On PostgreSQL each task runs in a row scope (row-level security, ``domain.row_scope``): a job's
task in its club's (the job found by id first, as the system), the housekeeping of every club
as the system."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from celery.signals import task_postrun, task_prerun, worker_ready
from django.db import connection

from scoring.domain import row_scope
from scoring.models import Audit, Club, PaperSheetJob, Session, Tournament, TournamentImport
from scoring.services import audits as audits_services
from scoring.services import auth as auth_services
from scoring.services import idempotency as idempotency_services
from scoring.services import imports as imports_services
from scoring.services import paper_sheets as paper_sheets_services
from scoring.services import push as push_services
from scoring.services import ratings as ratings_services
from scoring.services import standings as standings_services
from scoring.services.audits import STALE_AFTER
from scoring.services.common import queued_task_started
from scoring.services.jobs import ClubBusy

logger = logging.getLogger("scoring")

#: Seconds a club's long job waits while another of the club's is under way (checked again then).
DEFER_SECONDS = 5


def _one_per_club(task) -> bool:
    """Whether ``task`` waits for its club's job under way (``services.jobs.ClubBusy``). Never when
    run in-process (no worker: no other club to let through, and an eager retry would run again
    at once)."""
    return not task.request.is_eager


@shared_task(name="scoring.standings_refresh")
def standings_refresh(tournament_id: int) -> int:
    """Check a tournament's kept standings against a recomputation and repair any drift."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    return standings_services.standings_refresh(tournament=tournament)


@shared_task(name="scoring.ratings_follow")
def ratings_follow(club_id: int) -> int:
    """Rate the club's deals not yet rated (enqueued after deal writes, once while one waits:
    ``enqueue_once_on_commit``). Returns how many."""
    queued_task_started("scoring.ratings_follow", club_id)
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        return 0
    return ratings_services.ratings_follow(club=club)["deals"]


@shared_task(name="scoring.ratings_rebuild")
def ratings_rebuild(club_id: int) -> int:
    """Rebuild the club's ratings from scratch, as a director asked. Returns the deals rated."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        return 0
    return ratings_services.ratings_rebuild_run(club=club)["deals"]


@shared_task(name="scoring.standings_check")
def standings_check() -> int:
    """``standings_refresh`` for every running tournament (Celery beat runs it nightly)."""
    return standings_services.standings_check_running()


@shared_task(name="scoring.idempotency_keys_cleanup", ignore_result=False)
def idempotency_keys_cleanup() -> int:
    """Delete Idempotency-Key answers older than 24 hours (Celery beat runs it hourly)."""
    return idempotency_services.idempotency_keys_cleanup()


@shared_task(name="scoring.auth_tokens_cleanup", ignore_result=False)
def auth_tokens_cleanup() -> int:
    """Delete director API tokens expired for over a day (Celery beat runs it daily)."""
    return auth_services.auth_tokens_cleanup()


@shared_task(name="scoring.tournament_import_run", bind=True, max_retries=None)
def tournament_import_run(self, import_id: int) -> str:
    """Import a document uploaded on a club's page (``services.imports``). Returns its status."""
    try:
        job = imports_services.tournament_import_run(import_id=import_id, one_per_club=_one_per_club(self))
    except ClubBusy:
        raise self.retry(countdown=DEFER_SECONDS) from None
    return job.status if job is not None else ""


@shared_task(name="scoring.paper_sheets_render", bind=True, max_retries=None)
def paper_sheets_render(self, job_id: int) -> str:
    """Draw a session's paper sheets (``services.paper_sheets``; the drawing is the web layer's
    PDF, handed to the service). Returns the job's status."""
    from scoring.web.paper_sheets import session_sheets_pdf

    try:
        job = paper_sheets_services.paper_sheets_render(job_id=job_id, render=session_sheets_pdf,
                                                        one_per_club=_one_per_club(self))
    except ClubBusy:
        raise self.retry(countdown=DEFER_SECONDS) from None
    return job.status if job is not None else ""


@shared_task(name="scoring.paper_sheets_expire", ignore_result=False)
def paper_sheets_expire() -> int:
    """Delete the paper sheets' PDFs kept past their time (Celery beat runs it every 5 minutes)."""
    return paper_sheets_services.paper_sheets_expire()


# --- Web Push (scoring/services/push.py) ----------------------------------------------------------

@shared_task(name="scoring.push_session_seated")
def push_session_seated(session_id: int) -> int:
    """Tell each seated player of a session where they sit. Returns how many phones it was sent to."""
    session = Session.objects.select_related("tournament").filter(pk=session_id).first()
    if session is None:
        return 0
    notice = push_services.push_session_seated(session=session)
    return notice.sent if notice is not None else 0


@shared_task(name="scoring.push_clock_warnings")
def push_clock_warnings() -> int:
    """"5 minutes left" to the sessions whose clock calls for it (Celery beat runs it every 20 s)."""
    return push_services.push_clock_warnings()


@shared_task(name="scoring.push_standings_released")
def push_standings_released(tournament_id: int) -> int:
    """Tell a finished tournament's players its standings are out. Returns how many phones."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    notice = push_services.push_standings_released(tournament=tournament)
    return notice.sent if notice is not None else 0


# --- Replay audits (scoring/services/audits.py tells the whole story) ----------------------------

@shared_task(name="scoring.audit_plan")
def audit_plan(audit_id: int) -> int:
    """Split an audit into chunks and enqueue them. Returns the number of chunks."""
    audit = Audit.objects.filter(pk=audit_id).first()
    if audit is None:
        return 0
    return audits_services.audit_plan(audit=audit).chunk_count


@shared_task(name="scoring.audit_chunk")
def audit_chunk(audit_id: int, number: int) -> bool:
    """Check one chunk of an audit (the service finds and locks it; done twice, it counts once)."""
    return audits_services.audit_chunk_run(audit_id=audit_id, number=number)


@shared_task(name="scoring.audit_finish")
def audit_finish(audit_id: int) -> str:
    """The audit's final status, once every chunk is done."""
    audit = Audit.objects.select_related("tournament").filter(pk=audit_id).first()
    if audit is None:
        return ""
    return audits_services.audit_finish(audit=audit).status


@shared_task(name="scoring.audits_resume")
def audits_resume(stale_after_seconds: float | None = None) -> int:
    """Put the unfinished steps of active audits back on the queue: those without progress for
    ``stale_after_seconds`` (default ``audits_services.STALE_AFTER``: Celery beat); 0: all."""
    stale_after = timedelta(seconds=stale_after_seconds) if stale_after_seconds is not None else STALE_AFTER
    return audits_services.audits_resume(stale_after=stale_after)


@shared_task(name="scoring.audits_nightly")
def audits_nightly() -> int:
    """An audit of every running tournament (Celery beat runs it nightly)."""
    return audits_services.audits_start_running()


@worker_ready.connect
def resume_audits_when_a_worker_starts(sender=None, **kwargs) -> None:
    """A worker that starts may be the one that died in the middle of an audit: put the audits
    under way back on the queue at once (their steps are idempotent), rather than waiting for
    beat to find them stalled. Called here, not sent as a task: a worker of another queue (the
    tests') would leave the message on the default queue."""
    try:
        audits_services.audits_resume(stale_after=timedelta(0))
    except Exception:  # noqa: BLE001 - the worker starts whatever the database says; beat catches up
        logger.exception("Could not resume the audits under way.")
    finally:
        if not connection.in_atomic_block:
            connection.close()   # nothing for the pool's future children to inherit


# --- Row scope (PostgreSQL's row-level security) ---------------------------------------------------

#: A job's task → where its club is: (the job's model, the argument naming it, the path to its club).
_CLUB_OF = {
    "scoring.standings_refresh": (Tournament, "tournament_id", "club_id"),
    "scoring.ratings_follow": (Club, "club_id", "pk"),
    "scoring.ratings_rebuild": (Club, "club_id", "pk"),
    "scoring.tournament_import_run": (TournamentImport, "import_id", "club_id"),
    "scoring.paper_sheets_render": (PaperSheetJob, "job_id", "session__tournament__club_id"),
    "scoring.audit_plan": (Audit, "audit_id", "tournament__club_id"),
    "scoring.audit_chunk": (Audit, "audit_id", "tournament__club_id"),
    "scoring.audit_finish": (Audit, "audit_id", "tournament__club_id"),
    "scoring.push_session_seated": (Session, "session_id", "tournament__club_id"),
    "scoring.push_standings_released": (Tournament, "tournament_id", "club_id"),
}
_scopes: dict = {}


@task_prerun.connect
def enter_the_tasks_scope(sender=None, task_id=None, args=(), kwargs=None, **extra) -> None:
    """The system's scope, narrowed to the job's club for a job's task (not on SQLite: no policies)."""
    _scopes[task_id] = row_scope.enter(row_scope.system())
    club_of = _CLUB_OF.get(getattr(sender, "name", ""))
    if club_of is None or connection.vendor != "postgresql":
        return
    model, argument, path = club_of
    job_id = args[0] if args else (kwargs or {}).get(argument)
    try:
        club = model.objects.filter(pk=job_id).values_list(path, flat=True).first()
    except (TypeError, ValueError):
        club = None
    if club is not None:
        row_scope.narrow_to_club(club)


@task_postrun.connect
def leave_the_tasks_scope(sender=None, task_id=None, **extra) -> None:
    token = _scopes.pop(task_id, None)
    if token is not None:
        row_scope.leave(token)
