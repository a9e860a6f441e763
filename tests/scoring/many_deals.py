"""Thousands of deals in a test, fast: one deal recorded through the service, the rest copied
from it straight into the database (rounds, their first revisions, the log lines a deal writes).

The copies are real deals to every reader (a current revision the engine produced, a status, a
time), but the kept standings do not count them and their hash chains are not real: for pages
that must not grow with the deals, not for the audit.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from scoring.models import ActionLog, Round, RoundRevision, Table
from scoring.services.rounds import round_record

from .bodies import JIE_LONG


def add_deals(setup, n: int, *, tables: list[Table] | None = None, body: dict | None = None) -> list[int]:
    """``n`` more deals, dealt out over ``tables`` (the setup's table unless given), numbered on
    from each table's last, all unconfirmed, each with its
    ``round_record`` log line; their ids, in order."""
    tables = tables or [setup.table]
    model = round_record(actor=setup.director_actor, table=tables[0], body=body or JIE_LONG)
    rev = model.current_revision
    numbers = {t.pk: Round.objects.filter(table=t).order_by("-number").values_list("number", flat=True).first() or 0
               for t in tables}
    start = timezone.now() - timedelta(minutes=1)
    rounds = []
    for k in range(n - 1):
        table = tables[(k + 1) % len(tables)]
        numbers[table.pk] += 1
        rounds.append(Round(table=table, number=numbers[table.pk], status=Round.Status.RECORDED,
                            leader=model.leader, next_leader=model.next_leader, entered_by=model.entered_by))
    Round.objects.bulk_create(rounds, batch_size=1000)
    RoundRevision.objects.bulk_create(
        [RoundRevision(round=r, number=1, body=rev.body, record=rev.record, result=rev.result,
                       engine_version=rev.engine_version, actor_label=rev.actor_label, created_at=start,
                       hash=rev.hash) for r in rounds], batch_size=1000)
    ids = [r.pk for r in rounds]
    first = RoundRevision.objects.filter(round=OuterRef("pk"), number=1).values("pk")[:1]
    Round.objects.filter(pk__in=ids).update(current_revision=Subquery(first))
    ActionLog.objects.bulk_create(
        [ActionLog(actor_label="director alice", action=ActionLog.Action.ROUND_RECORD, target_model="Round",
                   target_id=str(pk), tournament=setup.tournament) for pk in ids], batch_size=1000)
    return [*ids, model.pk]
