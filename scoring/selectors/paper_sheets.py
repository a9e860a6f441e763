"""A session's paper sheet jobs and their PDFs (``services.paper_sheets`` writes them)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain.errors import NotFound
from scoring.domain.statuses import JOB_ACTIVE
from scoring.models import PaperSheetJob, Session

#: A running job without progress for this long has stalled (its worker died): the page says so,
#: the task delivered again takes it over, a new start replaces it.
STALE_AFTER = timedelta(minutes=2)
#: How long a done job's PDF is kept: time to download it and print it, again after a paper
#: jam; after that a new start draws it again (100 tables in 3 languages: seconds).
KEEP = timedelta(hours=1)
#: Jobs shown on the session's sheet page at most (the latest).
SHOWN = 3


def is_stalled(job: PaperSheetJob, now: datetime | None = None) -> bool:
    return job.status == PaperSheetJob.Status.RUNNING and job.updated_at < (now or timezone.now()) - STALE_AFTER


def paper_sheet_job_get(job_id: Any) -> PaperSheetJob:
    """The job without its PDF, with its session, tournament and club."""
    try:
        return (PaperSheetJob.objects.select_related("session__tournament__club").defer("pdf").get(pk=job_id))
    except (PaperSheetJob.DoesNotExist, ValueError, TypeError):
        raise NotFound(gettext("No such paper sheets.")) from None


def paper_sheet_job_pdf(job: PaperSheetJob, now: datetime | None = None) -> bytes | None:
    """The job's PDF while it is kept: done and not past ``expires_at`` (whether or not the
    cleanup has run yet); None otherwise."""
    pdf = (PaperSheetJob.objects.filter(pk=job.pk, status=PaperSheetJob.Status.DONE,
                                        expires_at__gt=now or timezone.now())
           .values_list("pdf", flat=True).first())
    return bytes(pdf) if pdf is not None else None


def paper_sheet_job_detail(job: PaperSheetJob, now: datetime | None = None) -> dict:
    """What the job's box shows: ``status``, ``active`` (polling on), ``stalled``, ``done`` of
    ``total`` tables, ``reason``, the languages' names, who started it, and for a done one its
    size and ``expires_at`` (``ready``: the PDF may be downloaded)."""
    now = now or timezone.now()
    names = dict(settings.LANGUAGES)
    stalled = is_stalled(job, now)
    done = job.status == PaperSheetJob.Status.DONE
    return {"id": job.pk, "status": job.status, "active": job.is_active and not stalled, "stalled": stalled,
            "done": job.done, "total": job.total, "reason": job.reason,
            "languages": [names.get(code, code) for code in job.language_list],
            "requested_label": job.requested_label, "created_at": job.created_at, "updated_at": job.updated_at,
            "size": job.size, "expires_at": job.expires_at,
            "ready": done and job.expires_at is not None and job.expires_at > now}


def paper_sheet_jobs_shown(session: Session, now: datetime | None = None) -> list[PaperSheetJob]:
    """The session's latest jobs worth showing (``SHOWN`` at most, without their PDFs): under
    way, or over within the time a PDF is kept. One query."""
    since = (now or timezone.now()) - KEEP
    return list(PaperSheetJob.objects.filter(session=session)
                .filter(Q(status__in=JOB_ACTIVE) | Q(updated_at__gte=since))
                .defer("pdf").order_by("-created_at", "-id")[:SHOWN])
