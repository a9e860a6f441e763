"""Each entry's kept figures over its tournament."""

from __future__ import annotations

from django.db import models

from scoring.domain.standings import PLACES
from scoring.models.tournaments import Entry, Tournament


class Standing(models.Model):
    """An entry's figures over its tournament's counted deals: kept exact by every deal write
    (``services.standings``), checked and repaired by ``standings_refresh``.

    ``total`` is the net (chips or points), ``rounds_counted`` the deals played; places are a
    histogram, one column per place (``place_1`` = first places), as many as the most seats a
    game has, so that a deal adds to them in the same single UPDATE as to the totals."""

    #: The histogram's columns, place 1 first.
    PLACES = PLACES

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="standing")
    total = models.BigIntegerField(default=0)
    rounds_counted = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    place_1 = models.PositiveIntegerField(default=0)
    place_2 = models.PositiveIntegerField(default=0)
    place_3 = models.PositiveIntegerField(default=0)
    place_4 = models.PositiveIntegerField(default=0)
    place_5 = models.PositiveIntegerField(default=0)
    place_6 = models.PositiveIntegerField(default=0)
    #: When the latest counted deal the entry played was recorded; null before the first.
    last_deal_at = models.DateTimeField(null=True, blank=True)
    #: The last change applied (every write sets it, ``.update()`` included).
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "-total"]

    def __str__(self) -> str:
        return f"{self.entry}: {self.total}"
