"""A tournament document uploaded on a club's page, imported by a worker (``services.imports``)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from scoring.domain import statuses
from scoring.models.clubs import Club
from scoring.models.jobs import WorkerJob
from scoring.models.tournaments import Tournament

#: The longest file name kept (what the director's browser sent, for the page to name the file).
MAX_FILE_NAME = 200


class TournamentImport(WorkerJob):
    """One upload: the document waits here (``document``) until a worker imports it with
    ``services.exports.tournament_import``; the row then keeps only how it went. ``checked`` of
    ``total`` counts the document's revisions checked (each one evaluated by the engine, the
    slow part); once all are checked the tournament is being stored. A refused document leaves
    its first problem in ``error`` (``{"path", "code", "message"}``, the message in English: the
    page translates it) and nothing else."""

    class Status(models.TextChoices):
        QUEUED = statuses.JOB_QUEUED, "Queued"
        RUNNING = statuses.JOB_RUNNING, "Running"
        DONE = statuses.JOB_DONE, "Done"
        FAILED = statuses.JOB_FAILED, "Failed"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="imports")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    file_name = models.CharField(max_length=MAX_FILE_NAME, blank=True, default="")
    #: The uploaded document until the worker is done with it (then null: a refused document is
    #: not kept, an accepted one is the tournament).
    document = models.JSONField(null=True, blank=True)
    #: Whether the new tournament's deals count in the club's ratings: only when the director asks
    #: (a backup restored would otherwise count every result again).
    rated = models.BooleanField(default=False)
    total = models.PositiveIntegerField(default=0)
    checked = models.PositiveIntegerField(default=0)
    error = models.JSONField(null=True, blank=True)
    #: The tournament it made (done).
    tournament = models.ForeignKey(Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    requested_ip = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "status"])]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=list(statuses.IMPORT_STATUSES)),
                                   name="import_status_valid"),
            models.CheckConstraint(condition=Q(checked__lte=models.F("total")), name="import_checked_within_total"),
        ]

    def __str__(self) -> str:
        return f"Import #{self.pk} into {self.club}: {self.status}"
