"""What every long job a director starts and a worker does has (an audit, an import, paper
sheets): who asked, and when it was asked for, started, last moved and finished."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scoring.domain import inputs, statuses


class WorkerJob(models.Model):
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+")
    requested_label = models.CharField(max_length=inputs.MAX_ACTOR_LABEL)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    #: Set by every step and progress report: a job left alone too long has stalled (each
    #: kind's selectors say how long).
    updated_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def is_active(self) -> bool:
        """Not over: a worker has it, or will (``statuses.JOB_ACTIVE``)."""
        return self.status in statuses.JOB_ACTIVE
