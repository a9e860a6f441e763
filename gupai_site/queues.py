"""The Celery side of the settings (``gupai_site.settings`` imports it): the queues, which task
goes to which, and beat's schedule.

Two queues, each with workers of its own in production (``docker-compose.yml``; ``make club``
starts one for each): ``celery``, the follow-ups (standings, ratings, audits, cleanups: short,
and what the pages wait for), and ``documents``, the long jobs a director starts (an import,
paper sheets, one a club at a time; a ratings rebuild) (``scoring.tasks``), and the nightly backup
(``gupai_site.tasks``). A worker started without ``-Q`` reads both. Beat sends each queue a
heartbeat every 30 s, which ``/readyz`` reads (``gupai_site.health``).
"""

from __future__ import annotations

from celery.schedules import crontab
from kombu import Exchange, Queue

__all__ = ["CELERY_BEAT_SCHEDULE", "CELERY_TASK_ACKS_LATE", "CELERY_TASK_DEFAULT_QUEUE", "CELERY_TASK_QUEUES",
           "CELERY_TASK_ROUTES", "CELERY_WORKER_PREFETCH_MULTIPLIER"]

FOLLOW_UPS = "celery"
DOCUMENTS = "documents"
#: The long jobs: their own queue (a ratings rebuild too, though not one a club at a time).
DOCUMENT_TASKS = ("scoring.tournament_import_run", "scoring.paper_sheets_render", "scoring.ratings_rebuild",
                  "gupai_site.backup")

CELERY_TASK_DEFAULT_QUEUE = FOLLOW_UPS
QUEUES = (FOLLOW_UPS, DOCUMENTS)
CELERY_TASK_QUEUES = tuple(Queue(name, Exchange(name), routing_key=name) for name in QUEUES)
CELERY_TASK_ROUTES = {name: {"queue": DOCUMENTS} for name in DOCUMENT_TASKS}
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
