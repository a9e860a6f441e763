"""What every service shares: the audit row, follow-up tasks after commit, checked text."""

from __future__ import annotations

import json
import logging
from typing import Any, Callable

from celery import current_app
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils.text import slugify

from scoring.domain.actors import Actor
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import MAX_ACTOR_LABEL, blank, text_problem
from scoring.models import ActionLog, Tournament

logger = logging.getLogger("scoring")


def action_log(actor: Actor, action: ActionLog.Action, target: Any = None, *, tournament: Tournament | None = None,
               data: dict | None = None) -> ActionLog:
    """The audit row of a write: who (user or scorer link, and address), what, on what."""
    return ActionLog.objects.create(
        actor_user=actor.user_or_none,
        actor_label=actor.label[:MAX_ACTOR_LABEL],
        action=action,
        target_model=type(target).__name__ if target is not None else "",
        target_id=str(target.pk) if target is not None and target.pk is not None else "",
        tournament=tournament,
        data=jsonable(data or {}),
        ip=actor.ip or None,
    )


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data (dates, decimals and the like as strings)."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def enqueue_on_commit(task_name: str, *args: Any) -> None:
    """Run a Celery task once the current transaction commits. The task is looked up by name in
    the app's registry, so services never import the tasks module (which imports services).

    Only follow-up work goes this way (checks, audits), never what a reader needs at once: with
    the broker down, the publish fails fast (settings), is logged, and the write stands; the
    nightly beat jobs catch up."""

    def publish() -> None:
        try:
            current_app.tasks[task_name].delay(*args)
        except Exception as exc:  # noqa: BLE001 - any broker failure; the write is already committed
            logger.warning("Could not enqueue %s%s: %s. The nightly jobs will catch up.", task_name, args, exc)

    transaction.on_commit(publish)


def require_text(value: Any, path: str, what: str, *, max_length: int) -> str:
    """Non-blank text, stripped, at most ``max_length`` characters, storable."""
    if not isinstance(value, str) or blank(value):
        raise ValidationFailed(f"{what} is required.", path=path, code="required")
    return optional_text(value, path, what, max_length=max_length)


def optional_text(value: Any, path: str, what: str, *, max_length: int) -> str:
    """Text (anything else counts as empty), stripped, at most ``max_length`` characters,
    storable."""
    value = value.strip() if isinstance(value, str) else ""
    if len(value) > max_length:
        raise ValidationFailed(f"{what} has at most {max_length} characters.", path=path, code="too_long")
    why = text_problem(value)
    if why:
        raise ValidationFailed(why, path=path, code="bad_text")
    return value


def unique_slug(base: str, taken: Callable[[str], bool], *, max_length: int = 80) -> str:
    """``base`` as a slug, with ``-2``, ``-3`` … added until ``taken`` says it is free."""
    base = (slugify(base) or "x")[: max_length - 8]
    slug, i = base, 2
    while taken(slug):
        slug = f"{base}-{i}"
        i += 1
    return slug
