"""Who is in the room for a session: a check-in per (session, entry), by the player themselves
(the room's QR code and their personal code) or ticked by the director."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from scoring.models.tournaments import Entry, Session


class SessionCheckIn(models.Model):
    """Entry ``entry`` is present for ``session`` (``services.checkins``): seating with
    ``entries="checked_in"`` seats these only. ``by``: the director who ticked it (None for a
    player's own check-in, or once that account is gone)."""

    class How(models.TextChoices):
        SELF = "self", "Self"
        DIRECTOR = "director", "Director"

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="check_ins")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="check_ins")
    checked_in_at = models.DateTimeField()
    how = models.CharField(max_length=10, choices=How.choices)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                           related_name="+")

    class Meta:
        ordering = ["session", "checked_in_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "entry"], name="checkin_unique_entry_per_session"),
            models.CheckConstraint(condition=Q(how__in=["self", "director"]), name="checkin_how_valid"),
            models.CheckConstraint(condition=Q(how="director") | Q(by__isnull=True), name="checkin_self_has_no_user"),
        ]

    def __str__(self) -> str:
        return f"{self.session}: entry {self.entry_id} ({self.how})"
