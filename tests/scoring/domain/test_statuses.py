"""The statuses, named once (``scoring.domain.statuses``): a long job's, and what counts as under way."""

from __future__ import annotations

from scoring.domain.statuses import AUDIT_STATUSES, IMPORT_STATUSES, JOB_ACTIVE, PAPER_SHEET_STATUSES


def test_every_kind_of_job_is_queued_then_running_then_over():
    assert IMPORT_STATUSES == ("queued", "running", "done", "failed")
    assert PAPER_SHEET_STATUSES == ("queued", "running", "done", "failed", "removed")
    assert AUDIT_STATUSES == ("queued", "running", "passed", "failed")
    assert JOB_ACTIVE == ("queued", "running")
    assert all(kind[:2] == JOB_ACTIVE for kind in (IMPORT_STATUSES, PAPER_SHEET_STATUSES, AUDIT_STATUSES))
