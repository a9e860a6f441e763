"""Uploaded tournament documents and how their imports go (``services.imports`` writes them)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain.errors import NotFound
from scoring.domain.statuses import JOB_ACTIVE
from scoring.models import Club, TournamentImport

#: A running import without progress for this long has stalled (its worker died): the page
#: says so, and the task delivered again takes it over (``services.imports``).
IMPORT_STALE_AFTER = timedelta(minutes=5)


def import_get(import_id: Any) -> TournamentImport:
    try:
        return TournamentImport.objects.select_related("club", "tournament").defer("document").get(pk=import_id)
    except (TournamentImport.DoesNotExist, ValueError, TypeError):
        raise NotFound(gettext("No such import.")) from None


def import_detail(job: TournamentImport) -> dict:
    """What the import's box shows: ``status``, ``active``, ``stalled``, ``checked`` of
    ``total`` revisions, ``storing`` (every revision checked, the tournament being stored),
    ``error`` (the first problem, as stored) and the ``tournament`` made."""
    active = job.is_active
    stalled = active and job.updated_at < timezone.now() - IMPORT_STALE_AFTER
    return {"id": job.pk, "club": job.club, "status": job.status, "file_name": job.file_name,
            "active": active and not stalled, "stalled": stalled, "checked": job.checked, "total": job.total,
            "storing": job.status == TournamentImport.Status.RUNNING and job.checked >= job.total,
            "error": job.error, "tournament": job.tournament, "created_at": job.created_at,
            "requested_label": job.requested_label}


def imports_under_way(club: Club) -> list[TournamentImport]:
    """The club's imports queued or running (stalled ones included: the page says so)."""
    return list(TournamentImport.objects.filter(club=club, status__in=JOB_ACTIVE)
                .defer("document").order_by("-created_at", "-id"))
