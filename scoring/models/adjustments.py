"""Adjustments: a penalty, fine, chip correction or bonus a director records outside any deal."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Length, Trim
from django.db.models.lookups import GreaterThan, LessThanOrEqual

from scoring.domain import inputs
from scoring.models.tournaments import Entry, Tournament


class Adjustment(models.Model):
    """An amount added to an entry's net (a fine is negative, a bonus positive), in the
    tournament's unit: whole chips or points, as the deals' nets are. It counts in the standings
    and the payouts (not in ratings: it is no result). Deleting one keeps the row
    (``deleted_at``, ``deleted_by``), as a voided deal stays: what counted once stays readable."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="adjustments")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="adjustments")
    amount = models.BigIntegerField()
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_by_label = models.CharField(max_length=inputs.MAX_ACTOR_LABEL)
    deleted_at = models.DateTimeField(null=True, blank=True)
    deleted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="adjustment_amount_not_zero"),
            # A reason is required, and no longer than a deal's (the services strip and check it).
            models.CheckConstraint(condition=GreaterThan(Length(Trim("reason")), 0), name="adjustment_reason_given"),
            models.CheckConstraint(condition=LessThanOrEqual(Length("reason"), inputs.MAX_NOTE),
                                   name="adjustment_reason_bounded"),
        ]
        indexes = [models.Index(fields=["tournament", "deleted_at"])]

    def __str__(self) -> str:
        return f"{self.entry}: {self.amount:+d} ({self.reason})"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

