"""Stored answers to repeated round creations."""

from __future__ import annotations

from django.db import models

from scoring.models.rounds import Round
from scoring.models.tables import Table


class IdempotencyKey(models.Model):
    """The stored answer to a round creation sent with an ``Idempotency-Key`` (per table)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="idempotency_keys")
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField(default=0)
    response_body = models.JSONField(default=dict, blank=True)
    round = models.ForeignKey(Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="idempotency_unique_key_per_table")]

    def __str__(self) -> str:
        return f"{self.table} key {self.key}"
