"""Referees: users a club's director names for one tournament, to settle its disputes, record
its adjustments and substitute its players (``scoring.selectors.access``: their role)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scoring.models.tournaments import Tournament


class TournamentReferee(models.Model):
    """``user`` referees ``tournament``: named by ``added_by`` (a director of its club)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="referees")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="refereeing")
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="referee_once_per_tournament")]
        indexes = [models.Index(fields=["user", "tournament"])]

    def __str__(self) -> str:
        return f"{self.user} referees {self.tournament}"
