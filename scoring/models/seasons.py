"""A club's seasons: tournaments grouped, each with a weight, into one standings."""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import Q

from scoring.domain import inputs
from scoring.models.clubs import Club
from scoring.models.tournaments import Tournament


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=inputs.MAX_TOURNAMENT_NAME)
    slug = models.SlugField(max_length=inputs.MAX_SLUG, blank=True, default="")
    #: Anyone may see a public season (its page, the API, the CSV); otherwise its club's directors only.
    public = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name


class SeasonTournament(models.Model):
    """A tournament counted in a season; its net counts ``weight`` times (a final: 2). The
    tournament is one of the season's club's (checked by ``services.seasons``)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="links")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="season_links")
    weight = models.DecimalField(max_digits=8, decimal_places=3, default=Decimal("1"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "tournament"], name="season_tournament_unique"),
            models.CheckConstraint(condition=Q(weight__gt=0), name="season_tournament_weight_positive"),
        ]
