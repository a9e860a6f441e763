"""Data of Gupai Club: clubs, players, tournaments, tables, deals and their revisions.

No business logic lives here (no work in ``save()``): every write goes through
``scoring.services``; every read beyond a plain get through ``scoring.selectors``. The database
holds the invariants it can (unique numbers, one seat per position, status values, ...).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

import games
from scoring.domain import statuses
from scoring.domain.standings import PLACES, default_tie_breaks

def game_name(key: str) -> str:
    """The game's name in the active language, in its own script (頂牛, 꼬리붙이기, ...)."""
    return games.get_game(key).name_in(get_language() or "en")


#: Labels evaluated when shown, so ``get_game_display`` speaks the page's language.
GAME_CHOICES = [(g.key, lazy(game_name, str)(g.key)) for g in games.CATALOG.values()]



class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    directors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="clubs", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A club's registry of players, reused across tournaments. Names are unique per club
    (the engine needs distinct names at a table)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["club", "name"], name="player_unique_name_per_club")]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = statuses.TOURNAMENT_DRAFT, _("Draft")
        RUNNING = statuses.TOURNAMENT_RUNNING, _("Running")
        FINISHED = statuses.TOURNAMENT_FINISHED, _("Finished")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    game = models.CharField(max_length=20, choices=GAME_CHOICES)
    #: The full variant (engine defaults merged with the director's choices), checked on create.
    variant = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    public = models.BooleanField(default=False)
    require_confirmation = models.BooleanField(default=False)
    chip_value = models.DecimalField(max_digits=10, decimal_places=2, default=Decimal("0"))
    currency = models.CharField(max_length=3, blank=True, default="")
    #: The standings' order: keys of ``TIE_BREAKS``, most important first (checked by the
    #: tournament services).
    tie_breaks = models.JSONField(default=default_tie_breaks, blank=True)
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
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING


class Entry(models.Model):
    """A player registered in a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "entries"
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="entry_unique_player")]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Session(models.Model):
    """A sitting of the tournament: session 1, 2, ..."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="session_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="session_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} — session {self.number}"


class Table(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tables")
    name = models.CharField(max_length=60)
    #: sha256 hex of the scorer token; the plain token is shown once (create / rotate) and never stored.
    scorer_token_hash = models.CharField(max_length=64, unique=True)
    scorer_token_created_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

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
    confirmed_by_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                          blank=True, related_name="+")
    confirmed_at = models.DateTimeField(null=True, blank=True)
    void_reason = models.TextField(blank=True, default="")
    disputed = models.BooleanField(default=False)
    dispute_message = models.TextField(blank=True, default="")
    disputed_at = models.DateTimeField(null=True, blank=True)
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
    engine_version = models.CharField(max_length=40)
    actor_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    actor_label = models.CharField(max_length=200)
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


class ActionLog(models.Model):
    """Every service call that changes anything: who, what, when, from where."""

    class Action(models.TextChoices):
        DIRECTOR_CREATE = "director_create"
        AUTH_TOKEN_CREATE = "auth_token_create"
        CLUB_CREATE = "club_create"
        CLUB_DIRECTOR_ADD = "club_director_add"
        PLAYER_CREATE = "player_create"
        TOURNAMENT_CREATE = "tournament_create"
        TOURNAMENT_UPDATE = "tournament_update"
        TOURNAMENT_START = "tournament_start"
        TOURNAMENT_FINISH = "tournament_finish"
        ENTRY_CREATE = "entry_create"
        SESSION_CREATE = "session_create"
        TABLE_CREATE = "table_create"
        TABLE_SCORER_TOKEN_ROTATE = "table_scorer_token_rotate"
        ROUND_RECORD = "round_record"
        ROUND_CORRECT = "round_correct"
        ROUND_CONFIRM = "round_confirm"
        ROUND_VOID = "round_void"
        ROUND_DISPUTE = "round_dispute"
        ROUND_DISPUTE_RESOLVE = "round_dispute_resolve"
        AUTH_TOKENS_REVOKE = "auth_tokens_revoke"
        IDEMPOTENCY_KEYS_CLEANUP = "idempotency_keys_cleanup"
        AUTH_TOKENS_CLEANUP = "auth_tokens_cleanup"
        STANDINGS_REPAIR = "standings_repair"
        SESSION_SEAT = "session_seat"
        TOURNAMENT_IMPORT = "tournament_import"
        AUDIT_START = "audit_start"
        AUDIT_RESUME = "audit_resume"
        AUDIT_FINISH = "audit_finish"

    actor_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    actor_label = models.CharField(max_length=200)
    action = models.CharField(max_length=60, choices=Action.choices)
    target_model = models.CharField(max_length=60, blank=True, default="")
    target_id = models.CharField(max_length=40, blank=True, default="")
    tournament = models.ForeignKey(Tournament, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="action_logs")
    data = models.JSONField(default=dict, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_label}: {self.action} {self.target_model}#{self.target_id}"


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


class IdempotencyKey(models.Model):
    """The stored answer to a round creation sent with an ``Idempotency-Key`` (per table)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="idempotency_keys")
    key = models.CharField(max_length=255)
    request_hash = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField(default=0)
    response_body = models.JSONField(default=dict, blank=True)
    round = models.ForeignKey(Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="idempotency_unique_key_per_table")]

    def __str__(self) -> str:
        return f"{self.table} key {self.key}"


class ApiToken(models.Model):
    """A director's API token. Only its sha256 is stored (the plain token is shown once, when
    made); it expires, and the director may revoke every token at once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"API token of {self.user} until {self.expires_at:%Y-%m-%d}"


class Audit(models.Model):
    """A replay audit of a tournament: every stored revision re-evaluated by the current engine,
    every hash chain verified, every deal's balance and the kept standings checked. It only
    reports (``AuditFinding``); it never changes a result. The work is split into chunks of
    deals (``AuditChunk``), each a Celery task; ``done``/``total`` count the deals checked."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        PASSED = "passed", "Passed"
        FAILED = "failed", "Failed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audits")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    #: Deals per chunk, fixed when the audit is asked for.
    chunk_rounds = models.PositiveIntegerField(default=500)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    chunk_count = models.PositiveIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    #: The engine that re-evaluated the records.
    engine_version = models.CharField(max_length=40)
    #: Times the audit was found stalled and put back on the queue since its last progress.
    stalls = models.PositiveSmallIntegerField(default=0)
    #: Why the audit failed without finishing its checks (it gave up); empty otherwise.
    error = models.TextField(blank=True, default="")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+")
    requested_label = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    #: Set by every step (plan, chunk, finish): an audit left alone too long has stalled.
    updated_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tournament", "-created_at"]), models.Index(fields=["status"])]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=["queued", "running", "passed", "failed"]),
                                   name="audit_status_valid"),
            # A chunk delivered twice counts once: progress can never pass the total.
            models.CheckConstraint(condition=Q(done__lte=models.F("total")), name="audit_done_within_total"),
            models.CheckConstraint(condition=Q(chunks_done__lte=models.F("chunk_count")),
                                   name="audit_chunks_done_within_count"),
            models.CheckConstraint(condition=Q(chunk_rounds__gte=1), name="audit_chunk_rounds_positive"),
        ]

    def __str__(self) -> str:
        return f"Audit #{self.pk} of {self.tournament}: {self.status}"

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)


class AuditChunk(models.Model):
    """A run of consecutive deals of an audit (by round id, ``first_round``..``last_round``, of
    the audit's tournament); number 0 is the check of the kept standings (no deals). ``done``
    turns true in the same transaction that stores the chunk's findings and counts its deals
    into the audit's progress: a chunk done twice is done once."""

    audit = models.ForeignKey(Audit, on_delete=models.CASCADE, related_name="chunks")
    number = models.PositiveIntegerField()
    first_round = models.BigIntegerField()
    last_round = models.BigIntegerField()
    rounds = models.PositiveIntegerField()
    done = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["audit", "number"]
        constraints = [
            models.UniqueConstraint(fields=["audit", "number"], name="audit_chunk_unique_number"),
            models.CheckConstraint(condition=Q(first_round__lte=models.F("last_round")), name="audit_chunk_range"),
        ]

    def __str__(self) -> str:
        return f"{self.audit} chunk {self.number}"


class AuditFinding(models.Model):
    """Something an audit found. Deals are named by id and number, not by foreign key: a
    finding is a report, kept as written."""

    class Kind(models.TextChoices):
        RESULT_MISMATCH = "result_mismatch"
        HASH_CHAIN = "hash_chain"
        ZERO_SUM = "zero_sum"
        STANDINGS_MISMATCH = "standings_mismatch"
        ENGINE_VERSION = "engine_version"

    audit = models.ForeignKey(Audit, on_delete=models.CASCADE, related_name="findings")
    #: The number of the chunk that found it (0: the standings check).
    chunk = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    round = models.BigIntegerField(null=True, blank=True)
    table = models.BigIntegerField(null=True, blank=True)
    number = models.PositiveIntegerField(null=True, blank=True)
    revision = models.PositiveIntegerField(null=True, blank=True)
    detail = models.TextField()
    stored = models.JSONField(null=True, blank=True)
    recomputed = models.JSONField(null=True, blank=True)
    #: ``engine_version`` findings: whether today's engine still gives the stored result.
    agrees = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["audit", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["result_mismatch", "hash_chain", "zero_sum",
                                                         "standings_mismatch", "engine_version"]),
                                   name="audit_finding_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.audit}: {self.kind} {self.detail[:60]}"
