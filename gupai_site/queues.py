"""The Celery side of the settings (``gupai_site.settings`` imports it): beat's schedule."""

from __future__ import annotations

from celery.schedules import crontab

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
}
