"""A tournament document uploaded on a club's page, imported off the request path.

1. ``tournament_import_queue`` (the club page's upload) refuses at once, with its path, a
   document that cannot be kept (``domain.document_shape.storable_problem``) or whose shape
   breaks the documented schema (``check_shape``: a key missing or unknown, a value of the wrong
   type, length, pattern or choice); else it keeps the document on a queued
   ``TournamentImport`` row and, once that commits, sends the task
   ``scoring.tournament_import_run`` (run in-process at once when ``REDIS_URL`` is unset, as
   every task is).
2. ``tournament_import_run`` (the worker) claims the row and calls the one import,
   ``services.exports.tournament_import``, which checks the whole document, then stores the
   tournament in one transaction (its ``tournament_import`` ActionLog row included). While the
   document is checked, the row's ``checked`` of ``total`` revisions moves on: each report is a
   single UPDATE outside that transaction (the checks come before it), so it is committed and
   seen by the page's poller at once. Once every revision is checked, the page says the
   tournament is being stored. Then the row is done, pointing at the new tournament, or failed
   with the document's first problem (English; the page translates it by its code) and nothing
   else stored. Either way the document is dropped from the row.

A worker that dies part-way leaves the row running without progress: after ``IMPORT_STALE_AFTER``
the page says so, and the task delivered again (``acks_late``) takes it over. The import's own
transaction rolled back with the worker, so running it again stores it once.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone, translation

from scoring.domain.actors import Actor
from scoring.domain.document_shape import check_shape, revision_count, storable_problem
from scoring.domain.errors import DomainError, ValidationFailed, problem
from scoring.domain.inputs import MAX_ACTOR_LABEL, text_problem
from scoring.models import ActionLog, Club, TournamentImport
from scoring.models.imports import MAX_FILE_NAME
from scoring.selectors.access import require_director_of
from scoring.selectors.imports import IMPORT_STALE_AFTER
from scoring.services.common import action_log
from scoring.services.exports import tournament_import
from scoring.services.jobs import JobProgress, job_claim

logger = logging.getLogger("scoring")

#: The task that imports a queued upload (``scoring.tasks.tournament_import_run``).
TASK = "scoring.tournament_import_run"
#: Seconds between two progress reports (the last revision is always reported).
PROGRESS_EVERY = 0.5

Status = TournamentImport.Status


def tournament_import_queue(*, actor: Actor, club: Club, document: Any, file_name: str = "",
                            rated: bool = False) -> TournamentImport:
    """Keep an uploaded ``document`` for a worker to import into ``club`` (directors of the club).
    Refused now: what would stop it being kept (text no database stores, absurd nesting) and a
    shape the documented schema does not allow (quick: each value on its own); what the values
    mean (ids, the game's rules, every revision's hash and engine result) is the worker's to
    check, as that takes longer than a request should. ``rated``: whether the new tournament
    counts in the club's ratings (not unless the director asks)."""
    require_director_of(actor, club)
    found = storable_problem(document)
    if found:
        raise ValidationFailed(errors=[found])
    check_shape(document)   # ValidationFailed at the first break, nothing stored
    name = file_name[:MAX_FILE_NAME] if isinstance(file_name, str) and not text_problem(file_name) else ""
    with transaction.atomic():
        job = TournamentImport.objects.create(
            club=club, file_name=name, document=document, total=revision_count(document), rated=bool(rated),
            requested_by=actor.user_or_none, requested_label=actor.label[:MAX_ACTOR_LABEL],
            requested_ip=actor.ip or None, updated_at=timezone.now())
        action_log(actor, ActionLog.Action.TOURNAMENT_IMPORT_QUEUE, job,
                   data={"import": job.pk, "file_name": name, "revisions": job.total, "rated": job.rated})
        transaction.on_commit(lambda: _send(job.pk))
    return job


def _send(import_id: int) -> None:
    """Hand the import to a worker. Unlike follow-up work, nothing would ever pick it up if the
    broker does not take it: the import fails at once, saying so."""
    try:
        current_app.tasks[TASK].delay(import_id)
    except Exception as exc:  # noqa: BLE001 - any broker failure; the upload is already committed
        logger.warning("Could not enqueue %s(%s): %s.", TASK, import_id, exc)
        _finish(import_id, Status.FAILED, status_was=Status.QUEUED, error=problem(
            "", "not_queued", "The import could not be handed to a worker. Try again in a moment."))


def tournament_import_run(*, import_id: int) -> TournamentImport | None:
    """Import a queued upload (the worker's step; see the module). None when there is nothing to
    do: no such row, done already, or running in another worker that still reports progress."""
    job = _claim(import_id)
    if job is None:
        return None
    actor = Actor(user=job.requested_by, ip=job.requested_ip)   # the director who uploaded it
    report = _Progress(job.pk)
    # The row keeps the messages in English, as the API's error codes are; the page translates.
    with translation.override("en"):
        try:
            tournament = tournament_import(actor=actor, club=job.club, document=job.document, progress=report,
                                           rated=job.rated)
        except DomainError as e:
            _finish(job.pk, Status.FAILED, error=e.errors[0] if e.errors else problem("", e.default_code, e.message))
        except (OperationalError, InterfaceError):
            raise   # the database went away: the task delivered again finds the row stalled and retries
        except Exception:
            logger.exception("Import #%s stopped on an unexpected error.", job.pk)
            _finish(job.pk, Status.FAILED, error=problem(
                "", "import_failed", "The import stopped on an unexpected error; nothing was stored."))
        else:
            _finish(job.pk, Status.DONE, tournament=tournament)
    job.refresh_from_db()
    return job


def _claim(import_id: int) -> TournamentImport | None:
    return job_claim(TournamentImport.objects.select_related("club", "requested_by").filter(pk=import_id),
                     counter="checked", stale_after=IMPORT_STALE_AFTER)


class _Progress(JobProgress):
    """The import's ``progress`` callback: the row's count of revisions checked (``JobProgress``)."""

    def __init__(self, import_id: int):
        self.import_id = import_id
        super().__init__(TournamentImport.objects.filter(pk=import_id), counter="checked", every=PROGRESS_EVERY)


def _finish(import_id: int, status: str, *, status_was: str | None = None, error: dict | None = None,
            tournament=None) -> None:
    now = timezone.now()
    rows = TournamentImport.objects.filter(pk=import_id)
    if status_was:
        rows = rows.filter(status=status_was)
    changes = {"status": status, "error": error, "tournament": tournament, "document": None, "finished_at": now,
               "updated_at": now}
    if status == Status.DONE:
        changes["checked"] = F("total")
    rows.update(**changes)
