"""Clubs and their registry of players."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scoring.domain import inputs


class Club(models.Model):
    name = models.CharField(max_length=inputs.MAX_CLUB_NAME)
    slug = models.SlugField(max_length=inputs.MAX_SLUG, unique=True)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="clubs", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: The club's ratings ladder is shown to everyone (its public page and API), not only directors.
    ladder_public = models.BooleanField(default=False)
    #: Game keys (``games.GAMES``) the club's ratings leave out, whatever the tournament says.
    unrated_games = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A club's registry of players, reused across tournaments. Names are unique per club
    (the engine needs distinct names at a table)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=inputs.MAX_PLAYER_NAME)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="player_unique_name_per_club")]

    def __str__(self) -> str:
        return self.name
