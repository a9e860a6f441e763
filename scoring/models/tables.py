"""Tables of a session, their seats and the substitutions at them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from scoring.domain import inputs
from scoring.models.tournaments import Entry, Session, Tournament


class Table(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    name = models.CharField(max_length=inputs.MAX_TABLE_NAME)
    #: sha256 hex of the scorer token: how a link finds its table (the plain token is not stored).
    scorer_token_hash = models.CharField(max_length=64, unique=True)
    #: The token encrypted with the server's link key (``scoring.domain.link_secrets``) while the
    #: session is open, so the director's sheet can show the link again; erased (NULL) when the
    #: session closes, and replaced when the link is made anew. NULL: the link cannot be shown.
    scorer_token_secret = models.TextField(null=True, blank=True)
    scorer_token_created_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    #: When a phone last reached the table's scorer link (written at most every few seconds:
    #: ``scoring.domain.outbox.heard_is_news``); NULL: never.
    phone_heard_at = models.DateTimeField(null=True, blank=True)
    #: How many deals (and corrections, confirmations, disputes) that phone said it held unsent.
    phone_outbox = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["session", "id"]
        constraints = [models.UniqueConstraint(fields=["session", "name"], name="table_unique_name_per_session")]

    def __str__(self) -> str:
        return self.name

    @property
    def tournament(self) -> Tournament:
        return self.session.tournament


class Seat(models.Model):
    """Seat positions 0..N-1 of a table, counter-clockwise = playing order."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["table", "entry"], name="seat_unique_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}: {self.entry.player}"


class Substitution(models.Model):
    """Another entry takes a seat of a table from deal ``from_deal`` on. The Seat row holds who
    sits there now; these rows say who sat there before, so a deal keeps the players who played
    it (``scoring.domain.substitutions``)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="substitutions")
    seat = models.PositiveSmallIntegerField()
    entry_in = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="substitutions_in")
    entry_out = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="substitutions_out")
    from_deal = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        ordering = ["table", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(from_deal__gte=1), name="substitution_from_deal_positive"),
            models.CheckConstraint(condition=~Q(entry_in=models.F("entry_out")), name="substitution_other_entry"),
        ]
        indexes = [models.Index(fields=["table", "seat"])]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat} from deal {self.from_deal}"
