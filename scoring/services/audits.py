"""Replay audits: start one, plan it in chunks, check the chunks, finish, resume a stalled one.

An audit reports and never changes a result: it writes only its own rows (Audit, AuditChunk,
AuditFinding) and its ActionLog rows. The work goes through Celery, by task name:

1. ``audit_start`` (a director, or the nightly job) stores a queued Audit and enqueues
   ``scoring.audit_plan``.
2. ``audit_plan`` splits the tournament's deals, by round id, into chunks of ``chunk_rounds``
   (AuditChunk rows 1..N: first and last round id, number of deals), plus chunk 0, the check of
   the kept standings against a recomputation, and enqueues one ``scoring.audit_chunk`` per
   chunk, chunk 0 first: it reads the whole tournament, so it runs beside the deal chunks
   rather than after them. Deals recorded after the plan belong to the next audit.
3. ``audit_chunk_run`` checks one chunk (``selectors.audits.audit_chunk_findings``, or
   ``audit_standings_findings`` in one snapshot) and, in one transaction with the chunk's row
   locked, stores its findings, marks it done and adds its deals to the audit's ``done`` (an
   ``F()`` increment). A chunk delivered twice (acks_late and a worker that died after the
   commit) finds itself done and does nothing; a deal chunk being checked by another worker
   right now is skipped (SKIP LOCKED). So progress never passes the total (a database
   constraint says so too) and no finding is stored twice. The chunk whose increment completes
   the count enqueues ``scoring.audit_finish``.
4. ``audit_finish`` sets the status: ``failed`` if any finding is a problem or a check could
   not run (``error``), else ``passed``.

A check that raises (a stored value no reader can take, a record the engine chokes on) is no
reason to stall: the chunk is checked again deal by deal, each in a savepoint, the deals that
raise are named on the audit (``error``: the deal, its round id and the exception), the others'
findings are stored, and the chunk counts as done. Only the database going away (an
``OperationalError`` or ``InterfaceError``, which a retry may cure) is left to raise, for
``audits_resume`` to send the chunk again.

A worker that dies part-way loses the chunks it held (their transactions roll back) and
perhaps the messages it had reserved. ``audits_resume`` puts every unfinished step of an
active audit back on the queue: each worker runs it when it starts, and Celery beat every few
minutes for audits without progress for ``STALE_AFTER``. As every step is idempotent, a step
sent twice costs a few queries. An audit that stalls ``MAX_STALLS`` times in a row without any
progress gives up (failed, with ``error``).

Plan and chunk steps are the audit's own bookkeeping and write no ActionLog row; starting,
resuming and finishing do.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Concat
from django.utils import timezone
from django.utils.translation import gettext

import games
from scoring.domain.actors import Actor
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import MAX_ACTOR_LABEL, is_int
from scoring.domain.statuses import JOB_ACTIVE
from scoring.models import ActionLog, Audit, AuditChunk, AuditFinding, Round, Tournament
from scoring.selectors.access import require_director_of
from scoring.selectors.audits import audit_chunk_findings, audit_finding_counts, audit_standings_findings
from scoring.services.common import action_log, enqueue_on_commit

#: Deals per chunk: a chunk is one task of a few hundred milliseconds.
CHUNK_ROUNDS = 500
#: An active audit without progress for this long has stalled (its worker died, its messages
#: were lost) and is put back on the queue.
STALE_AFTER = timedelta(minutes=5)
#: Stalls in a row, without progress between them, after which an audit gives up.
MAX_STALLS = 5

#: The chunk that checks the kept standings (no deals of its own).
STANDINGS_CHUNK = 0


def audit_start(*, actor: Actor, tournament: Tournament, chunk_rounds: int | None = None) -> Audit:
    """Ask for a replay audit of ``tournament`` (directors of its club; the system). One at a
    time: while one is queued or running, that one is returned."""
    require_director_of(actor, tournament.club)
    chunk_rounds = CHUNK_ROUNDS if chunk_rounds is None else chunk_rounds
    if not is_int(chunk_rounds, 1):
        raise ValidationFailed(gettext("chunk_rounds is a whole number of at least 1."), path="chunk_rounds", code="bad_value")
    with transaction.atomic():
        # Two clicks at once start one audit: the tournament's row orders them.
        Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").first()
        active = Audit.objects.filter(tournament=tournament, status__in=JOB_ACTIVE).order_by("-id").first()
        if active is not None:
            return active
        audit = Audit.objects.create(tournament=tournament, chunk_rounds=chunk_rounds,
                                     engine_version=games.ENGINE_VERSION, requested_by=actor.user_or_none,
                                     requested_label=actor.label[:MAX_ACTOR_LABEL], updated_at=timezone.now())
        action_log(actor, ActionLog.Action.AUDIT_START, audit, tournament=tournament,
                   data={"audit": audit.pk, "engine_version": audit.engine_version})
        enqueue_on_commit("scoring.audit_plan", audit.pk)
    return audit


def audits_start_running(*, actor: Actor | None = None) -> int:
    """``audit_start`` for every running tournament (Celery beat, nightly), each in its own
    transaction. Returns how many audits were asked for (or were already under way)."""
    actor = actor or Actor.system()
    started = 0
    for tournament in Tournament.objects.filter(status=Tournament.Status.RUNNING).select_related("club").order_by("pk"):
        audit_start(actor=actor, tournament=tournament)
        started += 1
    return started


def audit_plan(*, audit: Audit) -> Audit:
    """Split a queued audit's deals into chunks and enqueue them; a planned audit is left as it
    is (a message delivered twice)."""
    with transaction.atomic():
        audit = Audit.objects.select_for_update().get(pk=audit.pk)
        if audit.status != Audit.Status.QUEUED:
            return audit
        ids = list(Round.objects.filter(table__session__tournament_id=audit.tournament_id)
                   .order_by("id").values_list("id", flat=True))
        size = audit.chunk_rounds
        chunks = [AuditChunk(audit=audit, number=STANDINGS_CHUNK, first_round=0, last_round=0, rounds=0)]
        chunks += [AuditChunk(audit=audit, number=i // size + 1, first_round=ids[i], last_round=ids[i:i + size][-1],
                              rounds=len(ids[i:i + size])) for i in range(0, len(ids), size)]
        AuditChunk.objects.bulk_create(chunks, batch_size=500)
        now = timezone.now()
        audit.status, audit.total, audit.chunk_count = Audit.Status.RUNNING, len(ids), len(chunks)
        audit.started_at = audit.updated_at = now
        audit.save(update_fields=["status", "total", "chunk_count", "started_at", "updated_at"])
        for chunk in chunks:
            enqueue_on_commit("scoring.audit_chunk", audit.pk, chunk.number)
    return audit


def audit_chunk_run(*, audit_id: int, number: int) -> bool:
    """Check chunk ``number`` of an audit and count it, exactly once. False when there was
    nothing to do: done already, being done by another worker, or the audit is over."""
    if number == STANDINGS_CHUNK:
        return _standings_chunk_run(audit_id)
    try:
        with transaction.atomic():
            chunk = _locked_chunk(audit_id, number)
            if chunk is None:
                return False
            found = audit_chunk_findings(tournament_id=chunk.audit.tournament_id, first_round=chunk.first_round,
                                         last_round=chunk.last_round)
            _chunk_done(chunk, found)
        return True
    except TRANSIENT:
        raise
    except Exception:  # noqa: BLE001 - rolled back; checked again deal by deal, each cause named
        pass
    with transaction.atomic():
        chunk = _locked_chunk(audit_id, number)
        if chunk is None:
            return False
        found, errors = _findings_deal_by_deal(chunk)
        _chunk_done(chunk, found, errors)
    return True


#: Errors a retry may cure (the database went away): raised, for ``audits_resume`` to retry.
TRANSIENT = (OperationalError, InterfaceError)


def _locked_chunk(audit_id: int, number: int) -> AuditChunk | None:
    """The deal chunk, locked, if it is still to be done by a running audit (one being checked
    by another worker is skipped)."""
    chunk = (AuditChunk.objects.select_for_update(of=("self",), skip_locked=True).select_related("audit")
             .filter(audit_id=audit_id, number=number, done=False).first())
    return chunk if chunk is not None and chunk.audit.status == Audit.Status.RUNNING else None


def _cause(e: Exception) -> str:
    return f"{type(e).__name__}: {e}"[:500]


def _findings_deal_by_deal(chunk: AuditChunk) -> tuple[list[dict], list[str]]:
    """A chunk that raised, checked one deal at a time (each in a savepoint: a failed statement
    must not end the transaction that holds the chunk): the findings of the deals that could be
    checked, and a sentence naming each deal that raised and why."""
    tournament_id = chunk.audit.tournament_id
    found, errors = [], []
    deals = (Round.objects.filter(table__session__tournament_id=tournament_id, id__gte=chunk.first_round,
                                  id__lte=chunk.last_round).order_by("id").values_list("id", "number", "table__name"))
    for round_id, number, table in deals:
        try:
            with transaction.atomic():
                found += audit_chunk_findings(tournament_id=tournament_id, first_round=round_id, last_round=round_id)
        except TRANSIENT:
            raise
        except Exception as e:  # noqa: BLE001 - the cause is the audit's report
            errors.append(f"Deal {number} of {table} (round {round_id}) could not be checked: {_cause(e)}.")
    return found, errors


def _standings_chunk_run(audit_id: int) -> bool:
    """The standings chunk: its reads need a snapshot of their own (a transaction begun for
    them), so they come first and the chunk is locked after; a twin delivery reads in vain."""
    chunk = (AuditChunk.objects.select_related("audit__tournament")
             .filter(audit_id=audit_id, number=STANDINGS_CHUNK, done=False).first())
    if chunk is None or chunk.audit.status != Audit.Status.RUNNING:
        return False
    try:
        found, errors = _standings_findings_in_one_snapshot(chunk.audit.tournament), []
    except TRANSIENT:
        raise
    except Exception as e:  # noqa: BLE001 - the cause is the audit's report
        found, errors = [], [f"The standings could not be checked: {_cause(e)}."]
    with transaction.atomic():
        if AuditChunk.objects.select_for_update().filter(pk=chunk.pk, done=False).values_list("pk").first() is None:
            return False
        _chunk_done(chunk, found, errors)
    return True


def _chunk_done(chunk: AuditChunk, found: list[dict], errors: list[str] = ()) -> None:
    """Store a chunk's findings, mark it done, count it into the audit's progress and, if it
    was the last, enqueue the finish; inside the caller's transaction, which holds the chunk.
    ``errors``: what the chunk could not check, added to the audit's ``error``."""
    audit_id = chunk.audit_id
    if found:
        AuditFinding.objects.bulk_create([AuditFinding(audit_id=audit_id, chunk=chunk.number, **f) for f in found])
    now = timezone.now()
    AuditChunk.objects.filter(pk=chunk.pk).update(done=True, finished_at=now)
    more = {"error": Concat(F("error"), Value("".join(f"{e}\n" for e in errors)))} if errors else {}
    Audit.objects.filter(pk=audit_id).update(done=F("done") + chunk.rounds, chunks_done=F("chunks_done") + 1,
                                             updated_at=now, stalls=0, **more)
    # Read after the increment, which holds the audit's row until commit: exactly one chunk
    # sees the count complete.
    chunks_done, chunk_count = Audit.objects.filter(pk=audit_id).values_list("chunks_done", "chunk_count").get()
    if chunks_done == chunk_count:
        enqueue_on_commit("scoring.audit_finish", audit_id)


def audit_finish(*, audit: Audit) -> Audit:
    """Settle the audit's status once every chunk is done; an audit not ready or already
    finished is left as it is."""
    with transaction.atomic():
        audit = Audit.objects.select_for_update().select_related("tournament").get(pk=audit.pk)
        if audit.status != Audit.Status.RUNNING or audit.chunks_done < audit.chunk_count:
            return audit
        counts = audit_finding_counts(audit.pk)
        failed = any(c["problems"] for c in counts.values()) or bool(audit.error)
        now = timezone.now()
        audit.status = Audit.Status.FAILED if failed else Audit.Status.PASSED
        audit.finished_at = audit.updated_at = now
        audit.save(update_fields=["status", "finished_at", "updated_at"])
        action_log(Actor.system(), ActionLog.Action.AUDIT_FINISH, audit, tournament=audit.tournament,
                   data={"audit": audit.pk, "status": audit.status, "deals": audit.total,
                         "findings": {k: c["count"] for k, c in sorted(counts.items())},
                         **({"error": audit.error} if audit.error else {})})
    return audit


def _standings_findings_in_one_snapshot(tournament: Tournament) -> list[dict]:
    """The kept standings and the deals they come from, read at one moment: in a running
    tournament a deal committed between two plain reads would look like drift. PostgreSQL: a
    REPEATABLE READ transaction (unless the caller's transaction is already open, as in tests)."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cur:  # before any other statement of the transaction
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return audit_standings_findings(tournament)


def audits_resume(*, actor: Actor | None = None, stale_after: timedelta | None = STALE_AFTER) -> int:
    """Put every unfinished step of each active audit back on the queue: its plan, or its
    chunks not done, or its finish. ``stale_after``: only audits without progress for that long
    (Celery beat); None: all active audits (a worker starting: any audit under way lost its
    worker, or has others that skip what is being done). Returns how many were resumed."""
    stale_before = timezone.now() - stale_after if stale_after is not None else None
    qs = Audit.objects.filter(status__in=JOB_ACTIVE)
    if stale_before is not None:
        qs = qs.filter(updated_at__lt=stale_before)
    resumed = 0
    for audit_id in qs.order_by("pk").values_list("pk", flat=True):
        resumed += audit_resume(actor=actor, audit_id=audit_id, stale_before=stale_before)
    return resumed


def audit_resume(*, actor: Actor | None = None, audit_id: int, stale_before=None) -> bool:
    """``audits_resume`` for one audit (if still active, and still stale when ``stale_before``
    is given)."""
    actor = actor or Actor.system()
    with transaction.atomic():
        audit = Audit.objects.select_for_update().select_related("tournament").filter(pk=audit_id).first()
        if audit is None or not audit.is_active or (stale_before is not None and audit.updated_at >= stale_before):
            return False
        now = timezone.now()
        if audit.stalls >= MAX_STALLS:
            audit.status, audit.finished_at, audit.updated_at = Audit.Status.FAILED, now, now
            audit.error = f"The audit stalled {audit.stalls} times without progress and gave up."
            audit.save(update_fields=["status", "finished_at", "updated_at", "error"])
            action_log(actor, ActionLog.Action.AUDIT_FINISH, audit, tournament=audit.tournament,
                       data={"audit": audit.pk, "status": audit.status, "error": audit.error})
            return True
        audit.stalls += 1
        audit.updated_at = now
        audit.save(update_fields=["stalls", "updated_at"])
        if audit.status == Audit.Status.QUEUED:
            steps = ["plan"]
            enqueue_on_commit("scoring.audit_plan", audit.pk)
        else:
            undone = list(AuditChunk.objects.filter(audit=audit, done=False).order_by("number")
                          .values_list("number", flat=True))
            for number in undone:
                enqueue_on_commit("scoring.audit_chunk", audit.pk, number)
            if not undone:
                enqueue_on_commit("scoring.audit_finish", audit.pk)
            steps = [f"{len(undone)} chunks"] if undone else ["finish"]
        action_log(actor, ActionLog.Action.AUDIT_RESUME, audit, tournament=audit.tournament,
                   data={"audit": audit.pk, "steps": steps, "done": audit.done, "total": audit.total,
                         "stalls": audit.stalls})
    return True
