"""A session's paper score sheets rendered by a worker (``services.paper_sheets``)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from scoring.domain import statuses
from scoring.models.jobs import WorkerJob
from scoring.models.tournaments import Session


class PaperSheetJob(WorkerJob):
    """One "Print paper sheets" of a session: every table's page in each of ``languages``, one
    PDF. ``done`` of ``total`` counts the tables drawn (each in every language). The PDF carries
    the tables' scorer links, so it is a secret kept only while it is useful: ``pdf`` is
    emptied when the session closes, a link of it is replaced, a table is added or deleted, the tournament finishes, or at
    ``expires_at``; the row stays, saying why (``reason``)."""

    class Status(models.TextChoices):
        QUEUED = statuses.JOB_QUEUED, "Queued"
        RUNNING = statuses.JOB_RUNNING, "Running"
        DONE = statuses.JOB_DONE, "Done"
        FAILED = statuses.JOB_FAILED, "Failed"
        #: The PDF was deleted (``reason`` says why), or the job was stopped for the same reasons.
        REMOVED = statuses.JOB_REMOVED, "Removed"

    class Reason(models.TextChoices):
        NONE = "", "-"
        NOT_QUEUED = "not_queued", "Not queued"
        RENDER_FAILED = "render_failed", "Render failed"
        STALLED = "stalled", "Stalled"
        SESSION_CLOSED = "session_closed", "Session closed"
        LINK_REPLACED = "link_replaced", "Link replaced"
        TABLES_CHANGED = "tables_changed", "Tables changed"
        TOURNAMENT_FINISHED = "tournament_finished", "Tournament finished"
        EXPIRED = "expired", "Expired"

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="paper_sheet_jobs")
    #: The languages' codes in the site's order, comma-separated ("en,zh-hant").
    languages = models.CharField(max_length=60)
    #: The site's address the links are built on (from the request that started it).
    base_url = models.CharField(max_length=300)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    reason = models.CharField(max_length=20, choices=Reason.choices, blank=True, default="")
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    pdf = models.BinaryField(null=True, blank=True)
    size = models.PositiveIntegerField(default=0)
    requested_ip = models.GenericIPAddressField(null=True, blank=True)
    #: When the PDF is deleted at the latest (done jobs).
    expires_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["session", "status"]), models.Index(fields=["status", "expires_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=list(statuses.PAPER_SHEET_STATUSES)),
                                   name="paper_sheet_job_status_valid"),
            models.CheckConstraint(condition=Q(done__lte=models.F("total")), name="paper_sheet_job_done_within_total"),
            # Only a done job holds a PDF.
            models.CheckConstraint(condition=Q(pdf__isnull=True) | Q(status=statuses.JOB_DONE),
                                   name="paper_sheet_job_pdf_only_done"),
        ]

    def __str__(self) -> str:
        return f"Paper sheets #{self.pk} of {self.session}: {self.status}"

    @property
    def language_list(self) -> list[str]:
        return [code for code in self.languages.split(",") if code]
