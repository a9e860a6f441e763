"""Stored answers to repeated round creations and seatings."""

from __future__ import annotations

from django.db import models

from scoring.domain import inputs
from scoring.models.rounds import Round
from scoring.models.tables import Table
from scoring.models.tournaments import Session, Tournament


class IdempotencyKey(models.Model):
    """The stored answer to a request sent with an ``Idempotency-Key``: a round creation (per
    table: ``table``, ``round``) or a seating (per tournament: ``tournament``, ``session``; its
    answer is read again from the session, the links from their kept secrets, never stored here)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, null=True, blank=True, related_name="idempotency_keys")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    key = models.CharField(max_length=inputs.MAX_IDEMPOTENCY_KEY)
    request_hash = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField(default=0)
    response_body = models.JSONField(default=dict, blank=True)
    round = models.ForeignKey(Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "key"], name="idempotency_unique_key_per_table"),
            models.UniqueConstraint(fields=["tournament", "key"], name="idempotency_unique_key_per_tournament"),
            models.CheckConstraint(condition=models.Q(table__isnull=False, tournament__isnull=True)
                                   | models.Q(table__isnull=True, tournament__isnull=False),
                                   name="idempotency_table_or_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.table or self.tournament} key {self.key}"
