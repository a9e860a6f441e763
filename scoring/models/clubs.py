"""Clubs and their registry of players."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scoring.domain import inputs, proof


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
    (the engine needs distinct names at a table).

    The player is the lasting identity: his personal code is his, in every tournament of the
    club (not another club's: a player belongs to one club). A phone remembers him by his id and
    the code version it was proven under (``scoring.web.player_proof``), at every tournament of
    the club, until the code changes. A code of one of his entries from before codes moved here
    (``Entry.legacy_code_hash``) still proves him in that tournament only, until the director
    sets, issues or resets his code (``scoring.services.players``): every change ends them all."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=inputs.MAX_PLAYER_NAME)
    #: The player's personal code (4 to 6 digits) as a keyed hash (``scoring.domain.code_hashes``);
    #: "" while none is set (he sets one at first use at any table of the club, or the director
    #: issues one).
    code_hash = models.CharField(max_length=128, blank=True, default="")
    #: Counts every change of the code (set, issued, reset): a phone remembers the player with the
    #: version it was proven under, so a new code or a reset makes every phone forget him.
    code_version = models.PositiveIntegerField(default=0)
    #: How the code in force came to be (``scoring.domain.proof``: "" none, "director", "first_use")
    #: and when: a code set at first use confirms only deals entered after it, on another phone.
    code_origin = models.CharField(max_length=10, blank=True, default="",
                                   choices=[(proof.ORIGIN_NONE, "none"), (proof.ORIGIN_DIRECTOR, "director"),
                                            (proof.ORIGIN_FIRST_USE, "first use")])
    code_set_at = models.DateTimeField(null=True, blank=True)
    #: The phone (``scoring.web.player_proof.this_phone``) a first-use code was set on; "" otherwise.
    code_set_on = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="player_unique_name_per_club")]

    def __str__(self) -> str:
        return self.name
