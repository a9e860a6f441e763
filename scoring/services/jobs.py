"""What the worker of every long job a director starts (``models.jobs.WorkerJob``: an import,
paper sheets) does alike: claim its row, and report its progress on it as it goes."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from scoring.domain.statuses import JOB_QUEUED, JOB_RUNNING
from scoring.models import Club


class ClubBusy(Exception):
    """Another long job of the job's club is under way: this one waits its turn (the task puts
    it back on the queue, ``scoring.tasks.DEFER_SECONDS``), so the worker takes another club's."""


def job_claim(rows: QuerySet, *, counter: str, stale_after: timedelta, club_id: int | None = None,
              club_busy: Callable[[], bool] | None = None):
    """The job of ``rows`` (one: ``filter(pk=...)``) made running by this worker, its ``counter``
    back to 0: one queued, or running without progress for ``stale_after`` (its worker died: a
    task delivered again takes it over). None otherwise: no such row, over already, or running
    in another worker that still reports progress. The row is locked while it is claimed, so
    two deliveries claim it once.

    With ``club_busy`` (a worker's run, not an in-process one), ``ClubBusy`` when it says the club
    ``club_id`` has another job under way. The club's row is locked first: two workers taking two
    of a club's jobs at the same moment claim one after the other, and the second sees the
    first's running (a check before the claim let both run)."""
    now = timezone.now()
    with transaction.atomic():
        if club_busy is not None and club_id:
            list(Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True))
            if club_busy():
                raise ClubBusy
        job = rows.select_for_update(of=("self",)).first()
        if job is None:
            return None
        stalled = job.status == JOB_RUNNING and job.updated_at < now - stale_after
        if job.status != JOB_QUEUED and not stalled:
            return None
        job.status, job.updated_at = JOB_RUNNING, now
        setattr(job, counter, 0)
        job.started_at = job.started_at or now
        job.save(update_fields=["status", counter, "updated_at", "started_at"])
    return job


class JobProgress:
    """A worker's ``progress(count, total)`` callback: the row's ``counter`` of ``total``, at most
    every ``every`` seconds (one UPDATE of ``rows`` each, committed at once: the page's poller
    sees it), and always the last one."""

    def __init__(self, rows: QuerySet, *, counter: str, every: float):
        self.rows, self.counter, self.every, self.last = rows, counter, every, 0.0

    def __call__(self, count: int, total: int) -> None:
        now = time.monotonic()
        if count < total and now - self.last < self.every:
            return
        self.last = now
        self.rows.update(**{self.counter: min(count, total)}, total=total, updated_at=timezone.now())
