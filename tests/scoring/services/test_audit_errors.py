"""Issue 16: an audit chunk that raises names the cause on the audit (``Audit.error``: the deal,
its round id, the exception) and the audit finishes, failed, instead of being retried until it
gave up with "stalled 5 times" and no cause. The other deals of the chunk are still checked."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection

from scoring.models import ActionLog, Audit, AuditChunk, AuditFinding
from scoring.selectors import audits as audits_selectors
from scoring.services import audits
from scoring.services.audits import audit_chunk_run

from .test_audits import disable_revision_guard, record, run_audit

pytestmark = pytest.mark.django_db


def test_a_deal_whose_check_raises_is_named_on_the_audit(jie_long, monkeypatch, django_capture_on_commit_callbacks):
    rounds = record(jie_long, 3)
    bad = rounds[1]
    real = audits_selectors._deal_findings

    def checker(deal, revs):
        if deal[0] == bad.pk:
            raise RuntimeError("the engine choked on this record")
        return real(deal, revs)

    monkeypatch.setattr(audits_selectors, "_deal_findings", checker)
    audit = run_audit(jie_long, django_capture_on_commit_callbacks)
    assert audit.status == Audit.Status.FAILED
    assert audit.error == (f"Deal 2 of Table 1 (round {bad.pk}) could not be checked: "
                           "RuntimeError: the engine choked on this record.\n")
    assert audit.done == audit.total == 3 and not AuditChunk.objects.filter(audit=audit, done=False).exists()
    assert audit.stalls == 0
    log = ActionLog.objects.get(action=ActionLog.Action.AUDIT_FINISH)
    assert log.data["status"] == "failed" and log.data["error"] == audit.error


def test_the_other_deals_of_the_chunk_are_still_checked(jie_long, monkeypatch, django_capture_on_commit_callbacks):
    rounds = record(jie_long, 3)
    real = audits_selectors._deal_findings

    def checker(deal, revs):
        if deal[0] == rounds[0].pk:
            raise KeyError("seats")
        found = real(deal, revs)
        if deal[0] == rounds[2].pk:   # something for the others to find
            found.append(audits_selectors._finding(AuditFinding.Kind.ZERO_SUM, deal, 1, "planted"))
        return found

    monkeypatch.setattr(audits_selectors, "_deal_findings", checker)
    audit = run_audit(jie_long, django_capture_on_commit_callbacks, chunk_rounds=10)
    assert f"(round {rounds[0].pk})" in audit.error and "KeyError" in audit.error
    assert list(AuditFinding.objects.filter(audit=audit).values_list("round", "detail")) == [(rounds[2].pk, "planted")]


def test_a_standings_check_that_raises_is_named_too(jie_long, monkeypatch, django_capture_on_commit_callbacks):
    record(jie_long, 1)

    def boom(tournament):
        raise ValueError("no such entry")

    monkeypatch.setattr(audits, "audit_standings_findings", boom)
    audit = run_audit(jie_long, django_capture_on_commit_callbacks)
    assert audit.status == Audit.Status.FAILED
    assert audit.error == "The standings could not be checked: ValueError: no such entry.\n"


def test_a_stored_date_no_reader_can_take_is_named(jie_long, django_capture_on_commit_callbacks):
    """What the import let in before issue 16: a moment of year 0 in UTC, which PostgreSQL stores
    (1 BC) and no ``datetime`` holds, so that reading it raises."""
    rnd = record(jie_long, 2)[1]
    disable_revision_guard()
    year_0 = "'0001-12-31 23:30:00+00 BC'" if connection.vendor == "postgresql" else "'0000-12-31 23:30:00'"
    with connection.cursor() as cur:
        cur.execute(f"UPDATE scoring_roundrevision SET created_at = {year_0} WHERE round_id = %s", [rnd.pk])
    audit = run_audit(jie_long, django_capture_on_commit_callbacks)
    assert audit.status == Audit.Status.FAILED
    assert audit.error.startswith(f"Deal 2 of Table 1 (round {rnd.pk}) could not be checked: ")
    assert audit.done == audit.total == 2


def test_a_database_gone_away_is_left_to_the_retry(jie_long, monkeypatch, django_capture_on_commit_callbacks):
    """An error a retry may cure is not the deal's fault: raised, the chunk left to be done again."""
    record(jie_long, 1)

    def gone(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(audits, "audit_chunk_findings", gone)
    audit = run_audit(jie_long, django_capture_on_commit_callbacks)   # the task's failure is logged
    assert audit.status == Audit.Status.RUNNING and audit.error == ""
    with pytest.raises(OperationalError):
        audit_chunk_run(audit_id=audit.pk, number=1)
    assert AuditChunk.objects.get(audit=audit, number=1).done is False
    monkeypatch.undo()
    assert audit_chunk_run(audit_id=audit.pk, number=1)
    audit.refresh_from_db()
    assert audit.done == audit.total == 1 and audit.error == ""
