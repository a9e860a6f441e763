"""A table's paper score sheet, typed in by the director afterwards: every deal of the sheet
recorded in one transaction, in row order, or none of them.

Each deal goes through ``rounds.record_locked`` (the same checks, revision, audit row, standings
and live event as any deal, the director as the actor); the first refused deal undoes the
deals before it. A sheet is recorded exactly once per (table, key): the key row is inserted
first, in the same transaction (``services.idempotency``), so a form sent twice (a double
click, a retry on bad wifi) is answered from the first sending and records nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import IdempotencyKeyReused, ValidationFailed
from scoring.models import IdempotencyKey, Table
from scoring.selectors.access import require_director_of
from scoring.services.idempotency import check_idempotency_key, idempotency_request_hash, insert_key
from scoring.services.rounds import record_locked

#: Deals on one sheet at most: the printed sheet has 20 rows; a few more leave room for a
#: second sheet's rows typed on the same page, and bound the work of one request.
MAX_SHEET_DEALS = 40


@dataclass
class SheetOutcome:
    """The deals a sheet recorded (ids and numbers, in row order); ``replayed``: the answer of
    an earlier sending of the same sheet, nothing recorded now."""

    rounds: list[int]
    numbers: list[int]
    replayed: bool


def row_path(row: int, path: str) -> str:
    """A deal's body-relative error path as a path into the sheet: ``deals[3].values[1]``."""
    return f"deals[{row}]" + (f".{path}" if path and not path.startswith("[") else path or "")


def _answer(stored: IdempotencyKey, request_hash: str) -> SheetOutcome:
    """The first answer to a sheet sent again; IdempotencyKeyReused when it was another sheet."""
    if stored.request_hash != request_hash:
        raise IdempotencyKeyReused(gettext("This sheet was already recorded with other values; nothing was changed."))
    answer = stored.response_body
    return SheetOutcome(list(answer.get("rounds", [])), list(answer.get("numbers", [])), True)


def _sent_hash(sent: Any, first_number: int | None) -> str:
    return idempotency_request_hash({"sent": sent, "first_number": first_number})


def paper_sheet_replay(*, actor: Actor, table: Table, key: Any, sent: Any,
                       first_number: int | None = None) -> SheetOutcome | None:
    """The answer to a sheet already recorded under ``key`` at ``table`` (``replayed``), or
    None when none is. Asked before the sheet is read again: once its deals are recorded, the
    order its blank columns follow has moved on, so its rows would read otherwise; what is
    compared is what was sent. The same key with another sheet: IdempotencyKeyReused."""
    require_director_of(actor, table.session.tournament.club)
    check_idempotency_key(key)
    stored = IdempotencyKey.objects.filter(table_id=table.pk, key=key).first()
    if stored is None:
        return None
    return _answer(stored, _sent_hash(sent, first_number))


def paper_sheet_record(*, actor: Actor, table: Table, bodies: Any, key: Any, sent: Any = None,
                       first_number: int | None = None) -> SheetOutcome:
    """Record ``bodies`` (a list of deal bodies, as for ``rounds.round_record``) at ``table``, in
    order, as deals ``first_number``, ``first_number + 1``, ... (None: whatever the table's next
    deal is; a number already taken is a Conflict ``deal_number_taken``: deals were recorded at
    the table since the sheet's page was shown). Directors of the club only. A refused deal
    refuses the whole sheet: ValidationFailed with every error's path inside the sheet
    (``deals[3].values[1]``). ``sent``: what the director sent (the typed grid; None: the
    bodies), which a sheet sent again is compared by: the same key with the same ``sent``
    again gets the first answer (``replayed``), nothing recorded; with another,
    IdempotencyKeyReused."""
    require_director_of(actor, table.session.tournament.club)
    check_idempotency_key(key)
    if not isinstance(bodies, list) or not bodies:
        raise ValidationFailed(gettext("The sheet has no deals: fill in at least one row."), path="deals",
                               code="required")
    if len(bodies) > MAX_SHEET_DEALS:
        raise ValidationFailed(gettext("A sheet has at most %(max)s deals.") % {"max": MAX_SHEET_DEALS},
                               path="deals", code="too_many")
    request_hash = _sent_hash(bodies if sent is None else sent, first_number)
    with transaction.atomic():
        key_id = insert_key(key, request_hash, table_id=table.pk)
        if key_id is None:  # sent before (a concurrent sending waited here for the first to commit)
            return _answer(IdempotencyKey.objects.get(table_id=table.pk, key=key), request_hash)
        rounds: list[int] = []
        numbers: list[int] = []
        for row, body in enumerate(bodies):
            if first_number is not None and isinstance(body, dict):
                body = {**body, "number": first_number + row}
            try:
                rnd, _seats = record_locked(actor=actor, table=table, body=body, paper_sheet=True)
            except ValidationFailed as e:
                raise ValidationFailed(e.message, errors=[
                    {**err, "path": row_path(row, err.get("path") or "")} for err in e.errors]) from None
            rounds.append(rnd.pk)
            numbers.append(rnd.number)
        IdempotencyKey.objects.filter(pk=key_id).update(
            response_status=201, response_body={"rounds": rounds, "numbers": numbers}, round_id=rounds[0])
    return SheetOutcome(rounds, numbers, False)


__all__ = ["MAX_SHEET_DEALS", "SheetOutcome", "paper_sheet_record", "paper_sheet_replay", "row_path"]
