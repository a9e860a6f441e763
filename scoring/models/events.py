"""A tournament's live feed: its version number and the recent events that made it.

The version lives on a row of its own, not on the tournament's: ``standings_refresh`` locks the
tournament's row and then standing rows, while a deal locks standing rows and only then the
feed (at the very end of its transaction); the tournament's row there would deadlock them.
"""

from __future__ import annotations

from django.db import models

from scoring.models.tournaments import Tournament


class TournamentFeed(models.Model):
    """The tournament's version: +1 with every committed change the live pages show
    (``services.events.event_publish``). Its row lock, held till commit, orders the versions."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True, related_name="feed")
    version = models.PositiveBigIntegerField(default=0)


class TournamentEvent(models.Model):
    """One change, as the events stream sends it (``id`` = ``version``); only the latest few
    hundred of a tournament are kept (``services.events.KEEP``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    version = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "version"], name="tournament_event_version")]
