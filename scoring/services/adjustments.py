"""Adjustments: a penalty, fine, chip correction or bonus a director records for one player
outside any deal, and its deletion.

An adjustment moves the player's net, in the tournament's unit (whole chips or points, as the
deals' nets): the kept standing row moves in the same transaction, as a deal moves it
(``services.standings``), and the from-scratch recomputation adds the adjustments in force
(``selectors.standings.tournament_figures``), so a rebuild agrees. It is no deal: it changes no
deals played, wins or places, and ratings never see it (they are made of deals' results). It is
not zero-sum: a fine goes to the house and a bonus comes from it (``selectors.payouts``).

Deleting one keeps its row (``deleted_at``, ``deleted_by``), as a voided deal stays in the
history: the director's list still shows it, struck through, and the audit log holds both rows
with the whole adjustment. Directors and the tournament's referees only; refused outside a running tournament
(``domain.lifecycle.adjustment_refusal``). Each write publishes a live event on commit.

Exactly once with an ``Idempotency-Key`` (as seating is): the key row, per tournament, is
inserted first; a retry with the same key and body answers the adjustment it made.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, IdempotencyKeyReused, ValidationFailed
from scoring.domain.inputs import MAX_ACTOR_LABEL, MAX_NOTE, MAX_TYPED, blank, is_int, text_problem
from scoring.domain.lifecycle import adjustment_refusal
from scoring.models import ActionLog, Adjustment, Entry, IdempotencyKey, Standing, Tournament
from scoring.selectors.access import require_official_of
from scoring.selectors.standings import place_count
from scoring.services.common import action_log
from scoring.services.events import STANDING_COLUMNS, event_publish, standing_row
from scoring.services.idempotency import check_idempotency_key, idempotency_request_hash, insert_key
from scoring.services.lifecycle import fresh_status


def checked_amount(value: Any) -> int:
    """A whole, non-zero number of chips or points, at most ``MAX_TYPED`` either way."""
    if not is_int(value):
        raise ValidationFailed(gettext("The amount is a whole number of chips or points."), path="amount",
                               code="bad_type")
    if value == 0:
        raise ValidationFailed(gettext("An adjustment of 0 changes nothing: give a fine (−) or a bonus (+)."),
                               path="amount", code="zero_amount")
    if abs(value) > MAX_TYPED:
        raise ValidationFailed(gettext("The amount is at most %(max)s either way.") % {"max": MAX_TYPED},
                               path="amount", code="out_of_range")
    return value


def checked_reason(value: Any) -> str:
    """The reason, required: text, stripped, at most ``MAX_NOTE`` characters, storable."""
    if not isinstance(value, str) or blank(value):
        raise ValidationFailed(gettext("Say why: the reason is shown with the adjustment."), path="reason",
                               code="required")
    value = value.strip()
    if len(value) > MAX_NOTE:
        raise ValidationFailed(gettext("The reason has at most %(max)s characters.") % {"max": MAX_NOTE},
                               path="reason", code="too_long")
    why = text_problem(value)
    if why:
        raise ValidationFailed(why, path="reason", code="bad_text")
    return value


def _require_running(tournament: Tournament) -> None:
    refusal = adjustment_refusal(fresh_status(tournament))
    if refusal is not None:
        refusal.raise_()


def _logged(adjustment: Adjustment) -> dict:
    """The whole adjustment, as both audit rows keep it."""
    return {"adjustment": adjustment.pk, "entry": adjustment.entry_id, "player": adjustment.entry.player_id,
            "name": adjustment.entry.player.name, "amount": adjustment.amount, "reason": adjustment.reason,
            "created_at": adjustment.created_at, "created_by": adjustment.created_by_label}


def _standing_move(tournament: Tournament, entry_id: int, amount: int) -> list[dict]:
    """Add ``amount`` to the entry's kept net (its row made if it has none yet); the row as the
    live events carry it."""
    moved = Standing.objects.filter(tournament=tournament, entry_id=entry_id).update(
        total=F("total") + amount, updated_at=timezone.now())
    if not moved:
        Standing.objects.create(tournament=tournament, entry_id=entry_id, total=amount)
    row = Standing.objects.filter(tournament=tournament, entry_id=entry_id).values_list(*STANDING_COLUMNS).get()
    return [standing_row(row, place_count(tournament))]


def _publish(kind: str, adjustment: Adjustment, standings: list[dict]) -> None:
    event_publish(tournament=adjustment.tournament_id, kind=kind, data={
        "adjustment": adjustment.pk, "entry": adjustment.entry_id, "player": adjustment.entry.player_id,
        "amount": adjustment.amount, "reason": adjustment.reason, "deleted": adjustment.is_deleted,
        "standings": standings})


def _create_locked(actor: Actor, tournament: Tournament, entry: Entry, amount: int, reason: str) -> Adjustment:
    _require_running(tournament)
    adjustment = Adjustment.objects.create(tournament=tournament, entry=entry, amount=amount, reason=reason,
                                           created_by=actor.user_or_none, created_by_label=actor.label[:MAX_ACTOR_LABEL])
    rows = _standing_move(tournament, entry.pk, amount)
    action_log(actor, ActionLog.Action.ADJUSTMENT_CREATE, adjustment, tournament=tournament,
               data=_logged(adjustment))
    _publish("adjustment_recorded", adjustment, rows)
    return adjustment


def _checked(actor: Actor, tournament: Tournament, entry: Entry, amount: Any, reason: Any) -> tuple[int, str]:
    require_official_of(actor, tournament, "adjustment_create")
    if entry.tournament_id != tournament.pk:
        raise ValidationFailed(gettext("No such player in this tournament."), path="player", code="not_found")
    return checked_amount(amount), checked_reason(reason)


def adjustment_create(*, actor: Actor, tournament: Tournament, entry: Entry, amount: Any, reason: Any) -> Adjustment:
    """Record ``amount`` (a fine: negative; a bonus: positive) for ``entry``'s player, with its
    ``reason``: the standing moves, the audit log and the live feed say so. Refusals: not a
    director of the club (403); 400 at ``amount`` (``bad_type``, ``zero_amount``,
    ``out_of_range``), at ``reason`` (``required``, ``too_long``, ``bad_text``), at ``player``
    (``not_found``: not an entry of this tournament); 409 ``tournament_not_running`` or
    ``tournament_finished``."""
    amount, reason = _checked(actor, tournament, entry, amount, reason)
    with transaction.atomic():
        return _create_locked(actor, tournament, entry, amount, reason)


def adjustment_create_once(*, actor: Actor, tournament: Tournament, entry: Entry, amount: Any, reason: Any,
                           key: Any) -> tuple[Adjustment, bool]:
    """``adjustment_create`` exactly once per (tournament, ``key``): ``(adjustment, replayed)``.
    The same key with another request: ``IdempotencyKeyReused`` (422)."""
    check_idempotency_key(key)
    amount, reason = _checked(actor, tournament, entry, amount, reason)
    request_hash = idempotency_request_hash({"adjustment": {"entry": entry.pk, "amount": amount, "reason": reason}})
    with transaction.atomic():
        key_id = insert_key(key, request_hash, tournament_id=tournament.pk)
        if key_id is None:
            idem = IdempotencyKey.objects.get(tournament=tournament, key=key)
            if idem.request_hash != request_hash or "adjustment" not in idem.response_body:
                raise IdempotencyKeyReused(gettext("This Idempotency-Key was already used with a different "
                                                   "request; use a new key for a new adjustment."))
            return Adjustment.objects.select_related("entry__player").get(pk=idem.response_body["adjustment"]), True
        adjustment = _create_locked(actor, tournament, entry, amount, reason)
        IdempotencyKey.objects.filter(pk=key_id).update(response_status=201,
                                                        response_body={"adjustment": adjustment.pk})
    return adjustment, False


def adjustment_delete(*, actor: Actor, adjustment: Adjustment) -> Adjustment:
    """Take an adjustment back: it stops counting (the standing moves back) and keeps its row,
    marked deleted; the audit log keeps the whole adjustment. Refusals: not a director (403);
    409 ``already_deleted``, ``tournament_not_running`` or ``tournament_finished``."""
    tournament = adjustment.tournament
    require_official_of(actor, tournament, "adjustment_delete")
    with transaction.atomic():
        locked = Adjustment.objects.select_for_update(of=("self",)).select_related("entry__player").get(
            pk=adjustment.pk)
        _require_running(tournament)
        if locked.deleted_at is not None:
            raise Conflict(gettext("This adjustment is already deleted."), code="already_deleted")
        locked.deleted_at, locked.deleted_by = timezone.now(), actor.user_or_none
        locked.save(update_fields=["deleted_at", "deleted_by"])
        rows = _standing_move(tournament, locked.entry_id, -locked.amount)
        action_log(actor, ActionLog.Action.ADJUSTMENT_DELETE, locked, tournament=tournament,
                   data={**_logged(locked), "deleted_at": locked.deleted_at})
        _publish("adjustment_deleted", locked, rows)
    adjustment.deleted_at, adjustment.deleted_by = locked.deleted_at, locked.deleted_by
    return adjustment
