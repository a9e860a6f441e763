"""What every service shares: the audit row, follow-up tasks after commit, checked text, locked reads
of rows more than one module writes."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Sequence
from typing import Any, Callable

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models, transaction
from django.utils.text import slugify

from scoring.domain.actors import Actor
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import MAX_ACTOR_LABEL, blank, text_problem
from scoring.models import ActionLog, Entry, Tournament

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


def entry_locked(entry: Entry) -> Entry:
    """``entry`` read again and locked until the transaction ends (only its own row), with its
    tournament's club and its player: what a roster or code change checks and logs."""
    return Entry.objects.select_for_update(of=("self",)).select_related("tournament__club", "player").get(pk=entry.pk)


def action_logs(actor: Actor, action: ActionLog.Action, items: Sequence[tuple[Any, dict]], *,
                tournament: Tournament | None = None) -> None:
    """``action_log`` for many targets at once (``(target, data)`` each): one INSERT a batch."""
    ActionLog.objects.bulk_create([ActionLog(
        actor_user=actor.user_or_none, actor_label=actor.label[:MAX_ACTOR_LABEL], action=action,
        target_model=type(target).__name__, target_id=str(target.pk), tournament=tournament,
        data=jsonable(data), ip=actor.ip or None) for target, data in items], batch_size=2000)


#: Rows an ``update_from_values`` statement writes when the backend sets no limit on parameters.
UPDATE_CHUNK = 2000


def update_chunk_rows(width: int) -> int:
    """Rows of ``width`` values an UPDATE … FROM (VALUES …) writes: ``UPDATE_CHUNK``, or as many
    as the backend's parameters a statement hold (SQLite: 999)."""
    limit = connection.features.max_query_params
    return min(UPDATE_CHUNK, (limit - 4) // width) if limit else UPDATE_CHUNK


def update_from_values(model: type[models.Model], *, key: str, columns: Sequence[str], rows: Sequence[Sequence[Any]],
                       set_also: dict[str, Any] | None = None, where: dict[str, Any] | None = None) -> None:
    """Write many rows, each its own values: ``WITH v (key, columns…) AS (VALUES …) UPDATE table
    SET column = v.column … FROM v WHERE table.key = v.key``, a chunk of rows a statement.

    Django's ``bulk_update`` writes ``SET column = CASE WHEN id = … THEN … END`` instead, which
    PostgreSQL evaluates for every row against every branch: its cost grows with the square of
    the rows (8,800 rows ran 19½ minutes). Here each row is joined to its values through the
    key's index, so the cost grows with the rows. ``rows``: ``(key value, column values…)``;
    ``set_also``: the same value for every row (``updated_at``); ``where``: column = value
    conditions on the rows written (``tournament_id``). PostgreSQL and SQLite 3.33+ read it; an
    older SQLite writes the rows with one prepared UPDATE (executemany)."""
    if not rows:
        return
    fields = [model._meta.get_field(name) for name in (key, *columns)]
    names = [f.column for f in fields]
    table = connection.ops.quote_name(model._meta.db_table)
    q = connection.ops.quote_name
    also = [(q(model._meta.get_field(n).column), model._meta.get_field(n).get_db_prep_save(v, connection))
            for n, v in (set_also or {}).items()]
    conditions = [(q(model._meta.get_field(n).column), model._meta.get_field(n).get_db_prep_value(v, connection))
                  for n, v in (where or {}).items()]
    values = [[f.get_db_prep_save(v, connection) for f, v in zip(fields, row)] for row in rows]
    postgres = connection.vendor == "postgresql"
    if connection.vendor == "sqlite" and not _sqlite_update_from():
        sets = ", ".join([f"{q(c)} = %s" for c in names[1:]] + [f"{c} = %s" for c, _ in also])
        where_sql = " AND ".join([f"{q(names[0])} = %s"] + [f"{c} = %s" for c, _ in conditions])
        with connection.cursor() as cursor:
            cursor.executemany(f"UPDATE {table} SET {sets} WHERE {where_sql}",
                               [(*v[1:], *(x for _, x in also), v[0], *(x for _, x in conditions)) for v in values])
        return
    # PostgreSQL types a VALUES column from its values (an all-NULL one as text): cast each.
    sets = ", ".join([f"{q(c)} = v.{q(c)}" + (f"::{f.db_type(connection)}" if postgres else "")
                      for c, f in zip(names[1:], fields[1:])] + [f"{c} = %s" for c, _ in also])
    where_sql = " AND ".join([f"{table}.{q(names[0])} = v.{q(names[0])}"] + [f"{table}.{c} = %s" for c, _ in conditions])
    one = "(" + ", ".join(["%s"] * len(names)) + ")"
    chunk = update_chunk_rows(len(names))
    with connection.cursor() as cursor:
        for i in range(0, len(values), chunk):
            part = values[i:i + chunk]
            cursor.execute(f"WITH v ({', '.join(q(c) for c in names)}) AS (VALUES {', '.join([one] * len(part))}) "
                           f"UPDATE {table} SET {sets} FROM v WHERE {where_sql}",
                           [*(x for row in part for x in row), *(x for _, x in also), *(x for _, x in conditions)])


def _sqlite_update_from() -> bool:
    """SQLite reads ``UPDATE … FROM`` from 3.33 on."""
    import sqlite3

    return sqlite3.sqlite_version_info >= (3, 33)


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


#: How long a queued follow-up stands for the next ones (seconds): past it, one more is queued
#: (a worker down or far behind; the nightly jobs catch up anyway).
QUEUED_FOR = 300
#: A follow-up queued once waits this long (seconds) for the deals that come meanwhile.
FOLLOW_AFTER = 1.0
class Resting:
    """A service this process calls after a commit (Redis: the cache, the live events' channel)
    that, once it failed, is not asked again for ``seconds``: a deal with Redis down must not pay
    a failed round trip (and its retries) each time, only the first in every ``seconds``."""

    def __init__(self, what: str, *, seconds: float = 5.0, consequence: str) -> None:
        self.what, self.seconds, self.consequence = what, seconds, consequence
        self.until = 0.0

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)``; None when it fails (then resting) or while resting."""
        if time.monotonic() < self.until:
            return None
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - whatever the client raises, the write is committed
            self.until = time.monotonic() + self.seconds
            logger.warning("%s failed (%s); %s; not asked again for %s s", self.what, exc, self.consequence,
                           self.seconds)
            return None

    def wake(self) -> None:
        """Ask again from now on (a fresh process's state; the tests)."""
        self.until = 0.0


#: The cache, for the follow-ups' marks.
CACHE = Resting("The cache", consequence="follow-ups are queued unmarked")


def _queued_key(task_name: str, args: tuple) -> str:
    prefix = getattr(settings, "QUEUED_TASKS_CACHE_PREFIX", "queued:")   # the tests' own per test
    return f"{prefix}{task_name}:{json.dumps(args, separators=(',', ':'))}"


def enqueue_once_on_commit(task_name: str, *args: Any, after: float = FOLLOW_AFTER) -> None:
    """``enqueue_on_commit`` ``after`` seconds, unless the same task with the same arguments is
    queued and not yet started (marked in the cache, one round trip): the one queued will see
    this transaction's rows, since it starts after this commit (``queued_task_started``, first
    thing in the task). Every deal of a busy club queued a ratings follow-up each, which the
    worker then ran one after another on the web's cores; now at most one a second per club.
    With the cache down (or resting: ``CACHE``), it is queued as
    ``enqueue_on_commit`` would."""

    def publish() -> None:
        if CACHE.call(cache.add, _queued_key(task_name, args), 1, QUEUED_FOR) is False:
            return   # one is queued and not yet started
        try:
            current_app.tasks[task_name].apply_async(args, countdown=after or None)
        except Exception as exc:  # noqa: BLE001 - any broker failure; the write is already committed
            logger.warning("Could not enqueue %s%s: %s. The nightly jobs will catch up.", task_name, args, exc)
            CACHE.call(cache.delete, _queued_key(task_name, args))   # else its mark expires

    transaction.on_commit(publish)


def queued_task_started(task_name: str, *args: Any) -> None:
    """A task queued by ``enqueue_once_on_commit`` starts: the next commit queues another (called
    before the task reads anything, so that nothing committed after this is missed)."""
    CACHE.call(cache.delete, _queued_key(task_name, args))   # the cache down: its mark expires


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


def checked_settings(changes: dict, fields, checks: dict) -> dict:
    """The settings of ``changes`` among ``fields`` (in that order), each through its check in
    ``checks``: the checked values, or every refusal at once (ValidationFailed)."""
    new, errors = {}, []
    for field in fields:
        if field in changes:
            try:
                new[field] = checks[field](changes[field])
            except ValidationFailed as e:
                errors.extend(e.errors)
    if errors:
        raise ValidationFailed(errors=errors)
    return new
