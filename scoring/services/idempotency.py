"""Exactly-once deal recording (and seating, ``services.seating``): a retry with the same
``Idempotency-Key`` gets the first answer.

The key row is inserted first, in the same transaction as the deal: a concurrent request with
the same key waits on the unique index (PostgreSQL; SQLite's transactions queue whole) until the
first commits, then finds and replays the stored answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.chain import canonical_json, sha256_hex
from scoring.domain.errors import IdempotencyKeyReused, ValidationFailed
from scoring.domain.inputs import MAX_IDEMPOTENCY_KEY, blank, text_problem
from scoring.domain.proof import PlayerProof
from scoring.models import ActionLog, IdempotencyKey, Table
from scoring.selectors.access import require_table_access
from scoring.selectors.rounds import round_detail
from scoring.services.common import action_log
from scoring.services.rounds import record_locked

IDEMPOTENCY_KEY_TTL = timedelta(hours=24)


@dataclass
class IdempotentOutcome:
    """The answer to a round creation with an Idempotency-Key: the first one, or its replay."""

    status: int
    body: dict
    round_id: int | None
    replayed: bool


def idempotency_request_hash(body: Any) -> str:
    return sha256_hex(canonical_json(body))


def check_idempotency_key(key: Any) -> str:
    """The key as sent, or a refusal (400 ``bad_idempotency_key``) that stores nothing."""
    if not isinstance(key, str) or blank(key) or len(key) > MAX_IDEMPOTENCY_KEY or text_problem(key):
        raise ValidationFailed(f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} characters, not only spaces.",
                               path="", code="bad_idempotency_key")
    return key


def insert_key(key: str, request_hash: str, *, table_id: int | None = None, tournament_id: int | None = None) -> int | None:
    """Insert the key row (a deal's: per table; a seating's: per tournament); its id, or None when
    the key is already there. One statement (``ON CONFLICT DO NOTHING``, PostgreSQL and SQLite
    alike), so a duplicate needs no savepoint."""
    t = IdempotencyKey._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f'INSERT INTO "{t}" ("table_id", "tournament_id", "key", "request_hash", "response_status", '
            '"response_body", "created_at") '
            "VALUES (%s, %s, %s, %s, 0, %s, %s) ON CONFLICT DO NOTHING RETURNING \"id\"",
            [table_id, tournament_id, key, request_hash, "{}", timezone.now()])
        row = cursor.fetchone()
    return row[0] if row else None


def _store_answer(key_id: int, response: str, round_id: int) -> None:
    """The first answer kept in the key's row (SQL: this runs in every deal's transaction)."""
    with connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{IdempotencyKey._meta.db_table}" SET "response_status" = 201, "response_body" = %s, '
                       '"round_id" = %s WHERE "id" = %s', [response, round_id, key_id])


def round_record_idempotent(*, actor: Actor, table: Table, body: Any, key: str, proof: PlayerProof | None = None,
                            before_new: Callable[[], None] | None = None,
                            drawn_at: datetime | None = None) -> IdempotentOutcome:
    """``round_record`` exactly once per (table, key). Same key with another body:
    IdempotencyKeyReused. An invalid body stores nothing, key included (a retry is evaluated
    again). ``proof`` (the enterer's, as for ``round_record``) is no part of the body: a replay
    is answered from the store without it, as it would be to anyone holding the link.

    ``before_new``: called once the key's insert has shown that this is a new deal, not the
    replay of a stored one, before the deal is recorded — the caller's count of deals per scorer
    link, which a replay does not touch. Whatever it raises undoes the key's insert too. (Asking
    whether the key is stored before the transaction would cost every deal one more statement.)
    ``drawn_at``: when the phone drew the deal (``record_locked``: a late deal). The key reused
    with another body: the refusal names the deal stored under it (``number``)."""
    require_table_access(actor, table)
    check_idempotency_key(key)
    request_hash = idempotency_request_hash(body)
    with transaction.atomic():
        key_id = insert_key(key, request_hash, table_id=table.pk)
        if key_id is None:
            idem = IdempotencyKey.objects.get(table_id=table.pk, key=key)
            if idem.request_hash != request_hash:
                stored = idem.response_body.get("number") if isinstance(idem.response_body, dict) else None
                raise IdempotencyKeyReused(
                    gettext("This Idempotency-Key was already used with a different body; use a new key for a new deal."),
                    number=stored)
            return IdempotentOutcome(idem.response_status, idem.response_body, idem.round_id, True)
        if before_new is not None:
            before_new()
        rnd, seats = record_locked(actor=actor, table=table, body=body, proof=proof, drawn_at=drawn_at)
        text = json.dumps(round_detail(rnd, seats=seats, tournament=rnd.table.session.tournament), cls=DjangoJSONEncoder)
        _store_answer(key_id, text, rnd.pk)
        response = json.loads(text)   # the answer as a replay will read it (plain JSON: dates as text)
    return IdempotentOutcome(201, response, rnd.pk, False)


def idempotency_keys_cleanup(*, older_than: timedelta = IDEMPOTENCY_KEY_TTL, actor: Actor | None = None) -> int:
    """Delete idempotency keys older than ``older_than`` (at least 24 hours). Returns how many."""
    actor = actor or Actor.system()
    if older_than < IDEMPOTENCY_KEY_TTL:
        raise ValidationFailed(gettext("Keys are kept at least 24 hours."), path="older_than", code="too_short")
    with transaction.atomic():
        deleted, _ = IdempotencyKey.objects.filter(created_at__lt=timezone.now() - older_than).delete()
        if deleted:
            action_log(actor, ActionLog.Action.IDEMPOTENCY_KEYS_CLEANUP, None, data={"deleted": deleted})
    return deleted
