"""The long jobs a director starts (imports, paper sheets) across their kinds: whether a club
has one under way, so that a club's next one waits its turn (``scoring.tasks``)."""

from __future__ import annotations

from django.utils import timezone

from scoring.domain.statuses import JOB_RUNNING
from scoring.models import PaperSheetJob, TournamentImport
from scoring.selectors.imports import IMPORT_STALE_AFTER
from scoring.selectors.paper_sheets import STALE_AFTER


def import_club(import_id: int) -> int | None:
    return TournamentImport.objects.filter(pk=import_id).values_list("club_id", flat=True).first()


def paper_sheets_club(job_id: int) -> int | None:
    return PaperSheetJob.objects.filter(pk=job_id).values_list("session__tournament__club_id", flat=True).first()


def club_job_under_way(club_id: int, *, import_id: int | None = None, sheets_id: int | None = None) -> bool:
    """Whether a worker runs a long job of the club other than the one named, and it still
    reports progress (a stalled one's worker died: it holds nothing). Two queries at most."""
    now = timezone.now()
    imports = (TournamentImport.objects.filter(club_id=club_id, status=JOB_RUNNING,
                                               updated_at__gte=now - IMPORT_STALE_AFTER).exclude(pk=import_id))
    if imports.exists():
        return True
    sheets = (PaperSheetJob.objects.filter(session__tournament__club_id=club_id, status=JOB_RUNNING,
                                           updated_at__gte=now - STALE_AFTER).exclude(pk=sheets_id))
    return sheets.exists()
