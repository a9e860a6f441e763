"""Celery tasks: they only look things up and call services."""

from __future__ import annotations

from celery import shared_task

from . import services
from .models import Tournament


@shared_task(name="scoring.standings_refresh")
def standings_refresh(tournament_id: int) -> int:
    """Check a tournament's kept standings against a recomputation and repair any drift."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    return len(services.standings_refresh(tournament=tournament))


@shared_task(name="scoring.standings_check")
def standings_check() -> int:
    """``standings_refresh`` for every running tournament (Celery beat runs it nightly)."""
    return services.standings_check_running()


@shared_task(name="scoring.idempotency_keys_cleanup", ignore_result=False)
def idempotency_keys_cleanup() -> int:
    """Delete Idempotency-Key answers older than 24 hours (Celery beat runs it hourly)."""
    return services.idempotency_keys_cleanup()
