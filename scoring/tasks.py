"""Celery tasks: they only look things up and call services."""

from __future__ import annotations

from celery import shared_task

from . import services
from .models import Tournament


@shared_task(name="scoring.standings_refresh")
def standings_refresh(tournament_id: int) -> int:
    """Recompute a tournament's standings (enqueued on commit by every round write)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    return len(services.standings_refresh(tournament=tournament))


@shared_task(name="scoring.idempotency_keys_cleanup")
def idempotency_keys_cleanup() -> int:
    """Delete Idempotency-Key answers older than 24 hours (Celery beat runs it hourly)."""
    return services.idempotency_keys_cleanup()
