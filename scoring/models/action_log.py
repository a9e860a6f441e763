"""The log of every change a service makes."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from scoring.domain import inputs
from scoring.models.tournaments import Tournament


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
        SESSION_CLOSE = "session_close"
        SESSION_REOPEN = "session_reopen"
        SESSION_CLOCK_START = "session_clock_start"
        SESSION_CLOCK_STOP = "session_clock_stop"
        TOURNAMENT_IMPORT = "tournament_import"
        TOURNAMENT_IMPORT_QUEUE = "tournament_import_queue"
        AUDIT_START = "audit_start"
        AUDIT_RESUME = "audit_resume"
        AUDIT_FINISH = "audit_finish"
        ENTRY_CODE_SET = "entry_code_set"
        ENTRY_CODE_ISSUE = "entry_code_issue"
        ENTRY_CODE_RESET = "entry_code_reset"
        PLAYER_RENAME = "player_rename"
        ENTRY_WITHDRAW = "entry_withdraw"
        ENTRY_REENTER = "entry_reenter"
        TABLE_DELETE = "table_delete"
        TABLE_SUBSTITUTE = "table_substitute"
        TOURNAMENT_DELETE = "tournament_delete"
        SEASON_CREATE = "season_create"
        SEASON_UPDATE = "season_update"
        SEASON_TOURNAMENT_ADD = "season_tournament_add"
        SEASON_TOURNAMENT_REMOVE = "season_tournament_remove"
        RATINGS_REBUILD = "ratings_rebuild"
        PAPER_SHEETS_START = "paper_sheets_start"
        CLUB_RATINGS_UPDATE = "club_ratings_update"
        ADJUSTMENT_CREATE = "adjustment_create"
        ADJUSTMENT_DELETE = "adjustment_delete"
        PUSH_SUBSCRIBE = "push_subscribe"
        PUSH_UNSUBSCRIBE = "push_unsubscribe"
        PUSH_NOTICE_SEND = "push_notice_send"
        REFEREE_ADD = "referee_add"
        REFEREE_REMOVE = "referee_remove"
        REFEREE_ACCOUNT_CREATE = "referee_account_create"
        ENTRY_CHECK_IN = "entry_check_in"
        ENTRY_CHECK_IN_UNDO = "entry_check_in_undo"

    actor_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    actor_label = models.CharField(max_length=inputs.MAX_ACTOR_LABEL)
    action = models.CharField(max_length=60, choices=Action.choices)
    target_model = models.CharField(max_length=60, blank=True, default="")
    target_id = models.CharField(max_length=40, blank=True, default="")
    #: SET_NULL: the rows of a deleted (draft) tournament stay; its ``tournament_delete`` row names
    #: it and lists them (``services.roster.tournament_delete``).
    tournament = models.ForeignKey(Tournament, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="action_logs")
    data = models.JSONField(default=dict, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_label}: {self.action} {self.target_model}#{self.target_id}"
