"""Deals at a table and their immutable, hash-chained revisions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.domain import inputs, statuses
from scoring.models.tables import Table


class Round(models.Model):
    """One deal at a table. Its content lives in RoundRevision rows (immutable);
    ``current_revision`` points at the one in force. Seat indexes stored here (leader, banker,
    entered_by, confirmed_by, next_leader, next_banker) are table seat positions."""

    class Status(models.TextChoices):
        RECORDED = statuses.ROUND_RECORDED, _("Recorded")
        CONFIRMED = statuses.ROUND_CONFIRMED, _("Confirmed")
        VOIDED = statuses.ROUND_VOIDED, _("Voided")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RECORDED)
    current_revision = models.OneToOneField("RoundRevision", on_delete=models.PROTECT, null=True,
                                            blank=True, related_name="+")
    leader = models.PositiveSmallIntegerField(null=True, blank=True)
    banker = models.PositiveSmallIntegerField(null=True, blank=True)
    next_leader = models.PositiveSmallIntegerField(null=True, blank=True)
    next_banker = models.PositiveSmallIntegerField(null=True, blank=True)
    entered_by = models.PositiveSmallIntegerField(null=True, blank=True)
    confirmed_by = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The entries that proved who they are with their code (or a phone that remembers them), when
    #: they did: the enterer and the confirmer named with proof; null when not proven.
    entered_by_entry = models.ForeignKey("scoring.Entry", on_delete=models.SET_NULL, null=True, blank=True,
                                         related_name="+")
    confirmed_by_entry = models.ForeignKey("scoring.Entry", on_delete=models.SET_NULL, null=True, blank=True,
                                           related_name="+")
    confirmed_by_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                          blank=True, related_name="+")
    #: The phone that entered the deal from the scorer page (``scoring.web.player_proof.this_phone``);
    #: "" when not known (the API, a director): a code set at first use on it does not confirm it.
    entered_on = models.CharField(max_length=40, blank=True, default="")
    confirmed_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True, default="")
    disputed = models.BooleanField(default=False)
    dispute_message = models.TextField(blank=True, default="")
    disputed_at = models.DateTimeField(null=True, blank=True)
    #: Recorded by a director at a table whose session was already closed.
    late = models.BooleanField(default=False)
    #: Recorded once the session's clock had run out (by the server's clock): the director decides.
    after_time = models.BooleanField(default=False)
    #: Typed in by a director from the table's paper score sheet (``services.paper_sheet_entry``):
    #: nobody at the table confirmed it from a phone, so the director confirms it, one or a page at a time.
    paper_sheet = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="round_unique_number_per_table"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(condition=Q(status__in=["recorded", "confirmed", "voided"]),
                                   name="round_status_valid"),
            models.CheckConstraint(condition=~Q(status="confirmed") | Q(confirmed_at__isnull=False),
                                   name="round_confirmed_has_time"),
            models.CheckConstraint(condition=Q(entered_by__isnull=True) | Q(confirmed_by__isnull=True)
                                   | ~Q(entered_by=models.F("confirmed_by")),
                                   name="round_confirmed_by_other_seat"),
        ]
        indexes = [models.Index(fields=["table", "status"])]

    def __str__(self) -> str:
        return f"{self.table} round {self.number}"


class RoundRevision(models.Model):
    """One immutable version of a round: what the engine saw and said, who sent it and why,
    chained by hash to the previous revision of the same round."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="revisions")
    number = models.PositiveIntegerField()
    #: The request body as understood (with leader/banker/entered_by resolved), seats by table position.
    body = models.JSONField()
    #: The full round record sent to the engine (seats in playing order).
    record = models.JSONField()
    #: The engine's result, exactly as returned.
    result = models.JSONField()
    engine_version = models.CharField(max_length=inputs.MAX_ENGINE_VERSION)
    actor_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    actor_label = models.CharField(max_length=inputs.MAX_ACTOR_LABEL)
    reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64, blank=True, default="")
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="revision_unique_number_per_round"),
            models.CheckConstraint(condition=Q(number__gte=1), name="revision_number_positive"),
            models.CheckConstraint(condition=Q(number=1, prev_hash="") | (Q(number__gt=1) & ~Q(prev_hash="")),
                                   name="revision_chain_link"),
        ]

    def __str__(self) -> str:
        return f"{self.round} rev {self.number}"
