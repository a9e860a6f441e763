"""Tournaments, their entries and sessions, and the game choices a tournament is played in."""

from __future__ import annotations

from decimal import Decimal

from django.db import models
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

import games
from scoring.domain import inputs, proof, statuses
from scoring.domain.standings import default_tie_breaks
from scoring.models.clubs import Club, Player


def game_name(key: str) -> str:
    """The game's name in the active language, in its own script (頂牛, 꼬리붙이기, ...)."""
    return games.get_game(key).name_in(get_language() or "en")


#: Labels evaluated when shown, so ``get_game_display`` speaks the page's language.
GAME_CHOICES = [(g.key, lazy(game_name, str)(g.key)) for g in games.CATALOG.values()]


#: Every game's ways of entering a deal (games/entry.py); a tournament offers its own game's.
ENTRY_LEVEL_CHOICES = list({level: label for g in games.CATALOG.values()
                            for level, label in g.entry.ways_of_entering()}.items())


#: Which tournaments anyone may see, with no login: public ones that have started (a draft is
#: still being set up). The one rule of the public pages, the home page's list and the API's
#: anonymous reads; ``Tournament.publicly_visible`` says the same of one tournament.
PUBLICLY_VISIBLE = Q(public=True) & ~Q(status=statuses.TOURNAMENT_DRAFT)


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = statuses.TOURNAMENT_DRAFT, _("Draft")
        RUNNING = statuses.TOURNAMENT_RUNNING, _("Running")
        FINISHED = statuses.TOURNAMENT_FINISHED, _("Finished")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=inputs.MAX_TOURNAMENT_NAME)
    #: Unique within the club, and among the tournaments anyone may see (their address
    #: ``/t/<slug>/``); a tournament that only its club sees claims no slug from other clubs.
    slug = models.SlugField(max_length=inputs.MAX_SLUG)
    game = models.CharField(max_length=20, choices=GAME_CHOICES)
    #: The full variant (engine defaults merged with the director's choices), checked on create.
    variant = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    public = models.BooleanField(default=False)
    require_confirmation = models.BooleanField(default=False)
    #: Whether a scorer link records and confirms deals only with the players' proof (their
    #: personal codes, ``Player.code_hash``): who entered and who confirmed is then known.
    require_proof = models.BooleanField(default=False)
    chip_value = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    currency = models.CharField(max_length=inputs.MAX_CURRENCY, blank=True, default="")
    #: The standings' order: keys of ``TIE_BREAKS``, most important first (checked by the
    #: tournament services).
    tie_breaks = models.JSONField(default=default_tie_breaks, blank=True)
    #: Whether the tournament's deals count in the club's ratings (the director may leave one out).
    rated = models.BooleanField(default=True)
    #: The level of detail a phone with none of its own starts a deal on (one of the game's ways of
    #: entering, checked by the tournament services); "" is the game's first (``start_level``).
    entry_level = models.CharField(max_length=20, blank=True, default="", choices=ENTRY_LEVEL_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=["draft", "running", "finished"]),
                                   name="tournament_status_valid"),
            models.CheckConstraint(condition=Q(game__in=list(games.CATALOG)), name="tournament_game_valid"),
            models.CheckConstraint(condition=Q(chip_value__gte=0), name="tournament_chip_value_not_negative"),
            models.UniqueConstraint(fields=["club", "slug"], name="tournament_unique_slug_per_club"),
            models.UniqueConstraint(fields=["slug"], condition=PUBLICLY_VISIBLE, name="tournament_unique_public_slug"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def start_level(self) -> str:
        """The level a new phone starts on: ``entry_level``, else the game's first."""
        return self.entry_level or games.get_game(self.game).entry.ways_of_entering()[0][0]

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def publicly_visible(self) -> bool:
        """``PUBLICLY_VISIBLE``, of this tournament."""
        return self.public and self.status != self.Status.DRAFT


class Entry(models.Model):
    """A player registered in a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    #: Legacy: the player's code in this tournament from before codes belonged to the club's
    #: Player (migration 0034; nothing writes one since). Until the director sets, issues or
    #: resets the player's code (which clears it), it still proves the player here, and only
    #: here, beside his own code (``scoring.selectors.players.entry_codes``); with where it came
    #: from, as on ``Player``: what it confirms (``scoring.domain.proof``).
    legacy_code_hash = models.CharField(max_length=128, blank=True, default="")
    legacy_code_origin = models.CharField(max_length=10, blank=True, default="",
                                          choices=[(proof.ORIGIN_NONE, "none"), (proof.ORIGIN_DIRECTOR, "director"),
                                                   (proof.ORIGIN_FIRST_USE, "first use")])
    legacy_code_set_at = models.DateTimeField(null=True, blank=True)
    legacy_code_set_on = models.CharField(max_length=40, blank=True, default="")
    #: When the player left the tournament (null: playing). A withdrawn entry keeps its deals, its
    #: standing and its seats; seating leaves it out from then on, until it is entered again.
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "entries"
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique_player")]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class Session(models.Model):
    """A sitting of the tournament: session 1, 2, ... It is open (its scorer links record deals)
    until it is closed (seating the next one closes it, unless the director keeps it open); it
    may have a clock: the time it was started and the time it ends (UTC)."""

    class Status(models.TextChoices):
        OPEN = statuses.SESSION_OPEN, _("Open")
        CLOSED = statuses.SESSION_CLOSED, _("Closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    closed_at = models.DateTimeField(null=True, blank=True)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_ends_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Stamped by every save (close, reopen, clock): the live pages' version reads it.
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="session_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_positive"),
            models.CheckConstraint(condition=Q(status__in=["open", "closed"]), name="session_status_valid"),
            models.CheckConstraint(condition=~Q(status="closed") | Q(closed_at__isnull=False),
                                   name="session_closed_has_time"),
            models.CheckConstraint(condition=Q(clock_started_at__isnull=True, clock_ends_at__isnull=True)
                                   | Q(clock_started_at__isnull=False, clock_ends_at__gt=models.F("clock_started_at")),
                                   name="session_clock_ends_after_start"),
        ]

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED

    def __str__(self) -> str:
        return f"{self.tournament} — session {self.number}"
