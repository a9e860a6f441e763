"""Replay audits of a tournament: the audit, its chunks of deals and what it found."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from scoring.domain import inputs, statuses
from scoring.models.jobs import WorkerJob
from scoring.models.tournaments import Tournament


class Audit(WorkerJob):
    """A replay audit of a tournament: every stored revision re-evaluated by the current engine,
    every hash chain verified, every deal's balance and the kept standings checked. It only
    reports (``AuditFinding``); it never changes a result. The work is split into chunks of
    deals (``AuditChunk``), each a Celery task; ``done``/``total`` count the deals checked."""

    class Status(models.TextChoices):
        QUEUED = statuses.JOB_QUEUED, "Queued"
        RUNNING = statuses.JOB_RUNNING, "Running"
        PASSED = statuses.JOB_PASSED, "Passed"
        FAILED = statuses.JOB_FAILED, "Failed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audits")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    #: Deals per chunk, fixed when the audit is asked for.
    chunk_rounds = models.PositiveIntegerField(default=500)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    chunk_count = models.PositiveIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    #: The engine that re-evaluated the records.
    engine_version = models.CharField(max_length=inputs.MAX_ENGINE_VERSION)
    #: Times the audit was found stalled and put back on the queue since its last progress.
    stalls = models.PositiveSmallIntegerField(default=0)
    #: What could not be checked (a line a deal whose check raised, naming it and the cause), or
    #: why the audit gave up; empty otherwise. Not empty: the audit failed.
    error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tournament", "-created_at"]), models.Index(fields=["status"])]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=list(statuses.AUDIT_STATUSES)),
                                   name="audit_status_valid"),
            # A chunk delivered twice counts once: progress can never pass the total.
            models.CheckConstraint(condition=Q(done__lte=models.F("total")), name="audit_done_within_total"),
            models.CheckConstraint(condition=Q(chunks_done__lte=models.F("chunk_count")),
                                   name="audit_chunks_done_within_count"),
            models.CheckConstraint(condition=Q(chunk_rounds__gte=1), name="audit_chunk_rounds_positive"),
        ]

    def __str__(self) -> str:
        return f"Audit #{self.pk} of {self.tournament}: {self.status}"


class AuditChunk(models.Model):
    """A run of consecutive deals of an audit (by round id, ``first_round``..``last_round``, of
    the audit's tournament); number 0 is the check of the kept standings (no deals). ``done``
    turns true in the same transaction that stores the chunk's findings and counts its deals
    into the audit's progress: a chunk done twice is done once."""

    audit = models.ForeignKey(Audit, on_delete=models.CASCADE, related_name="chunks")
    number = models.PositiveIntegerField()
    first_round = models.BigIntegerField()
    last_round = models.BigIntegerField()
    rounds = models.PositiveIntegerField()
    done = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["audit", "number"]
        constraints = [
            models.UniqueConstraint(fields=["audit", "number"], name="audit_chunk_unique_number"),
            models.CheckConstraint(condition=Q(first_round__lte=models.F("last_round")), name="audit_chunk_range"),
        ]

    def __str__(self) -> str:
        return f"{self.audit} chunk {self.number}"


class AuditFinding(models.Model):
    """Something an audit found. Deals are named by id and number, not by foreign key: a
    finding is a report, kept as written."""

    class Kind(models.TextChoices):
        RESULT_MISMATCH = "result_mismatch"
        HASH_CHAIN = "hash_chain"
        ZERO_SUM = "zero_sum"
        STANDINGS_MISMATCH = "standings_mismatch"
        ENGINE_VERSION = "engine_version"

    audit = models.ForeignKey(Audit, on_delete=models.CASCADE, related_name="findings")
    #: The number of the chunk that found it (0: the standings check).
    chunk = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    round = models.BigIntegerField(null=True, blank=True)
    table = models.BigIntegerField(null=True, blank=True)
    number = models.PositiveIntegerField(null=True, blank=True)
    revision = models.PositiveIntegerField(null=True, blank=True)
    detail = models.TextField()
    stored = models.JSONField(null=True, blank=True)
    recomputed = models.JSONField(null=True, blank=True)
    #: ``engine_version`` findings: whether today's engine still gives the stored result.
    agrees = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["audit", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["result_mismatch", "hash_chain", "zero_sum",
                                                         "standings_mismatch", "engine_version"]),
                                   name="audit_finding_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.audit}: {self.kind} {self.detail[:60]}"
