"""The statuses a tournament, a session, a deal and a long job can have: the values the database
stores, named once. The models' choices, the services, the pages and the pure rules
(``scoring.domain.standings``, ``scoring.domain.lifecycle``) all read them."""

from games.standings import CONFIRMED, RECORDED, VOIDED

TOURNAMENT_DRAFT = "draft"
TOURNAMENT_RUNNING = "running"
TOURNAMENT_FINISHED = "finished"

# A deal's: the engine's (``games.standings``), as its counting rule reads them.
ROUND_RECORDED = RECORDED
ROUND_CONFIRMED = CONFIRMED
ROUND_VOIDED = VOIDED

SESSION_OPEN = "open"
SESSION_CLOSED = "closed"

#: A long job a director starts and a worker does (``models.jobs.WorkerJob``: an import, paper
#: sheets, an audit): queued until a worker claims it, running, then over.
JOB_QUEUED = "queued"
JOB_RUNNING = "running"
JOB_DONE = "done"
JOB_FAILED = "failed"
#: An audit is over as passed or failed, never done.
JOB_PASSED = "passed"
#: Paper sheets whose PDF was deleted, or that were stopped for the same reasons.
JOB_REMOVED = "removed"
#: Not over: a worker has it, or will.
JOB_ACTIVE = (JOB_QUEUED, JOB_RUNNING)

IMPORT_STATUSES = (JOB_QUEUED, JOB_RUNNING, JOB_DONE, JOB_FAILED)
PAPER_SHEET_STATUSES = (*IMPORT_STATUSES, JOB_REMOVED)
AUDIT_STATUSES = (JOB_QUEUED, JOB_RUNNING, JOB_PASSED, JOB_FAILED)
