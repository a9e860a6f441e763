"""The Celery side of the settings (``gupai_site.settings`` imports it): the queues, which task
goes to which, the tasks' time limits and beat's schedule.

Four queues by kind, each with workers of its own in production (``docker-compose.yml``, ``make
cluster``; ``make club`` starts one for each): ``celery``, a deal's follow-ups (the standings'
check, cleanups: short, and what the pages wait for); ``ratings`` (a club's ratings after its
deals, and a rebuild); ``audits`` (the replay audits' plan, chunks and finish); and
``documents``, the long jobs a director starts (an import, paper sheets, one a club at a time)
(``scoring.tasks``), and the nightly backup (``gupai_site.tasks``). A worker started without
``-Q`` reads them all. Beat sends each queue a heartbeat every 30 s, which ``/readyz`` reads
(``gupai_site.health``).

Redis hands a message that was taken but not acknowledged to another worker once
``BROKER_VISIBILITY_TIMEOUT`` has passed; with ``acks_late`` a task is acknowledged when it
ends, so the timeout is longer than any task may run (``CELERY_TASK_TIME_LIMIT``, the longest
of the per-task limits in ``TASK_TIME_LIMITS``): else a long task would run twice at once.
"""

from __future__ import annotations

from celery.schedules import crontab
from kombu import Exchange, Queue

__all__ = ["BROKER_VISIBILITY_TIMEOUT", "CELERY_BEAT_SCHEDULE", "CELERY_TASK_ACKS_LATE", "CELERY_TASK_ANNOTATIONS",
           "CELERY_TASK_DEFAULT_QUEUE", "CELERY_TASK_QUEUES", "CELERY_TASK_ROUTES", "CELERY_TASK_TIME_LIMIT",
           "CELERY_WORKER_PREFETCH_MULTIPLIER"]

FOLLOW_UPS = "celery"
RATINGS = "ratings"
AUDITS = "audits"
DOCUMENTS = "documents"
#: The long jobs: their own queue.
DOCUMENT_TASKS = ("scoring.tournament_import_run", "scoring.paper_sheets_render", "gupai_site.backup")
RATING_TASKS = ("scoring.ratings_follow", "scoring.ratings_rebuild")
AUDIT_TASKS = ("scoring.audit_plan", "scoring.audit_chunk", "scoring.audit_finish", "scoring.audits_resume",
               "scoring.audits_nightly")

CELERY_TASK_DEFAULT_QUEUE = FOLLOW_UPS
QUEUES = (FOLLOW_UPS, RATINGS, AUDITS, DOCUMENTS)
CELERY_TASK_QUEUES = tuple(Queue(name, Exchange(name), routing_key=name) for name in QUEUES)
CELERY_TASK_ROUTES = ({name: {"queue": DOCUMENTS} for name in DOCUMENT_TASKS}
                      | {name: {"queue": RATINGS} for name in RATING_TASKS}
                      | {name: {"queue": AUDITS} for name in AUDIT_TASKS})

#: A task still running after this many seconds is killed (its worker process replaced): 10
#: minutes, 15 times the longest import measured (10,000 entries and 5,000 deals: 36 s).
CELERY_TASK_TIME_LIMIT = 600
#: Longer limits of their own: a backup (a dump of the whole database) and a ratings rebuild
#: (every deal of a club since its first) grow with the data.
TASK_TIME_LIMITS = {"gupai_site.backup": 3600, "scoring.ratings_rebuild": 1800}
CELERY_TASK_ANNOTATIONS = {name: {"time_limit": limit} for name, limit in TASK_TIME_LIMITS.items()}
#: Redis' visibility timeout (settings: ``CELERY_BROKER_TRANSPORT_OPTIONS``): twice the longest limit.
BROKER_VISIBILITY_TIMEOUT = 2 * max(CELERY_TASK_TIME_LIMIT, *TASK_TIME_LIMITS.values())

# A worker takes one message a process at a time, acknowledged once done (``acks_late``): a long
# job does not hold messages behind it that an idle process could run, and a job whose worker
# dies is delivered again.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ACKS_LATE = True

# Periodic housekeeping (run `celery -A gupai_site beat` beside the worker).
CELERY_BEAT_SCHEDULE = {
    "idempotency-keys-cleanup": {"task": "scoring.idempotency_keys_cleanup", "schedule": 3600.0},
    # Expired director API tokens no longer work; the rows go, once a day.
    "auth-tokens-cleanup": {"task": "scoring.auth_tokens_cleanup", "schedule": crontab(hour=2, minute=30)},
    # Kept standings are exact by construction; this is the check that would find (and repair)
    # a drift, and it catches up any check missed while the broker was down.
    "standings-check": {"task": "scoring.standings_check", "schedule": crontab(hour=4, minute=0)},
    # Replay audits of the running tournaments, before the standings check (which would repair
    # a drift the audit is there to report).
    "audits-nightly": {"task": "scoring.audits_nightly", "schedule": crontab(hour=3, minute=0)},
    # Audits whose worker died (no progress for a while: services.audits.STALE_AFTER) go back on
    # the queue.
    "audits-resume": {"task": "scoring.audits_resume", "schedule": 120.0},
    # Paper sheets' PDFs carry live scorer links: deleted once past their time (the download
    # refuses them from then on anyway).
    "paper-sheets-expire": {"task": "scoring.paper_sheets_expire", "schedule": 300.0},
    # Web Push's "5 minutes left": the sessions between 5 and 4 minutes from their clock's end
    # (scoring.services.push), once each.
    "push-clock-warnings": {"task": "scoring.push_clock_warnings", "schedule": 20.0},
    # The database and the stored files, nightly (gupai_site.backups; docs/reliability.md, Backups).
    "backup-nightly": {"task": "gupai_site.backup", "schedule": crontab(hour=1, minute=30)},
}
#: Every HEARTBEAT_EVERY seconds a tiny task to each queue: /readyz reads when each last ran
#: (gupai_site.health). One that waited past its expiry is dropped (the queue is late anyway).
HEARTBEAT_EVERY = 30.0
CELERY_BEAT_SCHEDULE |= {
    f"queue-heartbeat-{name}": {"task": "gupai_site.queue_heartbeat", "schedule": HEARTBEAT_EVERY, "args": (name,),
                                "options": {"queue": name, "expires": 2 * HEARTBEAT_EVERY}}
    for name in QUEUES
}
