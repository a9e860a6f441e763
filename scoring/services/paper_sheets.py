"""A session's paper score sheets rendered off the request path, and kept only while useful.

1. ``paper_sheets_start`` (the director's "Print paper sheets") stores a queued
   ``PaperSheetJob`` for the session and the languages chosen, with the site's address the
   links are built on (the request's, ``links.site_base``: the worker has no request), and,
   once that commits, sends ``scoring.paper_sheets_render``. While a job for the same session
   and languages is queued or running, that job is returned: a double click starts one.
2. ``paper_sheets_render`` (the worker) claims the row, reads the session's tables with their
   kept links, has them drawn (the ``render`` it is handed: ``web.paper_sheets``'
   ``session_sheets_pdf``; services draw nothing), reporting ``done`` of ``total`` tables as it
   goes (one UPDATE at most every ``PROGRESS_EVERY`` seconds, and the last), and stores the
   PDF on the row, done, until ``expires_at`` (``KEEP`` later).

The PDF carries the tables' scorer links: whoever holds it can score. So it is dropped
(``paper_sheets_drop``, inside the write that makes it stale) when the session closes, when a
table's link is replaced, when the tournament finishes — a job still under way then is stopped
too, and its PDF never stored — and ``KEEP`` after it is done (``paper_sheets_expire``, Celery
beat; the download also refuses it from then on, beat or not). The row stays, saying why.

A worker that dies part-way leaves the row running without progress: after ``STALE_AFTER`` the
page says so, the task delivered again (``acks_late``) takes it over, and a new start replaces it.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from celery import current_app
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import MAX_ACTOR_LABEL
from scoring.domain.statuses import JOB_ACTIVE
from scoring.models import ActionLog, PaperSheetJob, Session, Table
from scoring.selectors.access import require_director_of
from scoring.selectors.jobs import club_job_under_way, paper_sheets_club
from scoring.selectors.paper_sheets import KEEP, STALE_AFTER, is_stalled
from scoring.selectors.seating import session_sheet_tables
from scoring.services.common import action_log
from scoring.services.jobs import JobProgress, job_claim

logger = logging.getLogger("scoring")

#: The task that renders a queued job (``scoring.tasks.paper_sheets_render``).
TASK = "scoring.paper_sheets_render"
#: Seconds between two progress reports (the last table is always reported).
PROGRESS_EVERY = 0.5

Status, Reason = PaperSheetJob.Status, PaperSheetJob.Reason
__all__ = ["KEEP", "STALE_AFTER", "paper_sheets_drop", "paper_sheets_expire", "paper_sheets_render",
           "paper_sheets_start"]


def _languages(value: Any) -> str:
    """The chosen languages in the site's order, comma-separated; each one of the site's."""
    codes = [code for code, _name in settings.LANGUAGES]
    if not isinstance(value, (list, tuple)) or not value:
        raise ValidationFailed(gettext("Choose at least one language."), path="languages", code="required")
    for i, code in enumerate(value):
        if code not in codes:
            raise ValidationFailed(gettext("Not one of the site's languages."), path=f"languages[{i}]",
                                   code="bad_language")
    return ",".join(code for code in codes if code in value)


def paper_sheets_start(*, actor: Actor, session: Session, languages: Any, base_url: str) -> PaperSheetJob:
    """Ask a worker for ``session``'s paper sheets in ``languages`` (directors of its club), the
    links on ``base_url``. The same session and languages queued or running: that job."""
    require_director_of(actor, session.tournament.club)
    codes = _languages(languages)
    if not isinstance(base_url, str) or len(base_url) > 300:
        raise ValidationFailed("base_url is the site's address.", path="base_url", code="bad_value")
    now = timezone.now()
    with transaction.atomic():
        # Two clicks at once start one job: the session's row orders them.
        locked = Session.objects.select_for_update().get(pk=session.pk)
        active = (PaperSheetJob.objects.filter(session=locked, languages=codes, status__in=JOB_ACTIVE)
                  .defer("pdf").order_by("-id").first())
        if active is not None and not is_stalled(active, now):
            return active
        if active is not None:   # its worker died: this start replaces it (a late delivery finds it over)
            PaperSheetJob.objects.filter(pk=active.pk).update(status=Status.FAILED, reason=Reason.STALLED,
                                                              finished_at=now, updated_at=now)
        job = PaperSheetJob.objects.create(
            session=locked, languages=codes, base_url=base_url, total=Table.objects.filter(session=locked).count(),
            requested_by=actor.user_or_none, requested_label=actor.label[:MAX_ACTOR_LABEL],
            requested_ip=actor.ip or None, updated_at=now)
        action_log(actor, ActionLog.Action.PAPER_SHEETS_START, job, tournament=session.tournament,
                   data={"job": job.pk, "session": locked.number, "languages": codes.split(","), "tables": job.total})
        transaction.on_commit(lambda: _send(job.pk))
    return job


def _send(job_id: int) -> None:
    """Hand the job to a worker; if the broker does not take it, nothing ever would: the job
    fails at once, saying so."""
    try:
        current_app.tasks[TASK].delay(job_id)
    except Exception as exc:  # noqa: BLE001 - any broker failure; the job is already committed
        logger.warning("Could not enqueue %s(%s): %s.", TASK, job_id, exc)
        PaperSheetJob.objects.filter(pk=job_id, status=Status.QUEUED).update(
            status=Status.FAILED, reason=Reason.NOT_QUEUED, finished_at=timezone.now(), updated_at=timezone.now())


def paper_sheets_render(*, job_id: int, render: Callable[..., bytes],
                        one_per_club: bool = False) -> PaperSheetJob | None:
    """Draw a queued job's PDF with ``render`` and keep it (the worker's step; see the module).
    None when there is nothing to do: no such row, over already, or running in another worker
    that still reports progress. ``one_per_club`` (a worker's run): ``services.jobs.ClubBusy``
    while another long job of the club is under way."""
    job = _claim(job_id, one_per_club)
    if job is None:
        return None
    session = job.session
    try:
        rows = session_sheet_tables(session)
        PaperSheetJob.objects.filter(pk=job.pk, status=Status.RUNNING).update(total=len(rows), done=0,
                                                                              updated_at=timezone.now())
        pdf = render(tournament=session.tournament, session=session, rows=rows, base_url=job.base_url,
                     languages=job.language_list, progress=_Progress(job.pk))
    except (OperationalError, InterfaceError):
        raise   # the database went away: the task delivered again finds the row stalled and retries
    except Exception:
        logger.exception("Paper sheets #%s stopped on an unexpected error.", job.pk)
        now = timezone.now()
        PaperSheetJob.objects.filter(pk=job.pk, status=Status.RUNNING).update(
            status=Status.FAILED, reason=Reason.RENDER_FAILED, finished_at=now, updated_at=now)
    else:
        now = timezone.now()
        # Only a job still running keeps its PDF: one dropped meanwhile (the session closed, a
        # link replaced) drew links that are stale, and is left as it was marked.
        PaperSheetJob.objects.filter(pk=job.pk, status=Status.RUNNING).update(
            status=Status.DONE, pdf=pdf, size=len(pdf), done=F("total"), finished_at=now, updated_at=now,
            expires_at=now + KEEP)
    job.refresh_from_db()
    return job


def _claim(job_id: int, one_per_club: bool) -> PaperSheetJob | None:
    club_id = paper_sheets_club(job_id) if one_per_club else None
    return job_claim(PaperSheetJob.objects.defer("pdf").select_related("session__tournament__club").filter(pk=job_id),
                     counter="done", stale_after=STALE_AFTER, club_id=club_id,
                     club_busy=(lambda: club_job_under_way(club_id, sheets_id=job_id)) if club_id else None)


class _Progress(JobProgress):
    """The renderer's ``progress`` callback: the row's count of tables drawn (``JobProgress``),
    while the job runs (one dropped meanwhile stays as it was marked)."""

    def __init__(self, job_id: int):
        self.job_id = job_id
        super().__init__(PaperSheetJob.objects.filter(pk=job_id, status=Status.RUNNING), counter="done",
                         every=PROGRESS_EVERY)


def paper_sheets_drop(*, sessions: Any, reason: str) -> int:
    """Delete the stored PDFs of ``sessions`` (a queryset or ids) and stop their jobs under way,
    saying ``reason``: called inside the write that makes them stale (``session_close``, a link
    replaced, ``tournament_finish``), so that both commit together. Returns the jobs changed."""
    now = timezone.now()
    return (PaperSheetJob.objects.filter(session__in=sessions, status__in=(*JOB_ACTIVE, Status.DONE))
            .update(status=Status.REMOVED, reason=reason, pdf=None, updated_at=now))


def paper_sheets_expire(*, now=None) -> int:
    """Delete the PDFs kept past ``expires_at`` (Celery beat, every few minutes). Returns how many."""
    now = now or timezone.now()
    return (PaperSheetJob.objects.filter(status=Status.DONE, expires_at__lte=now)
            .update(status=Status.REMOVED, reason=Reason.EXPIRED, pdf=None, updated_at=now))
