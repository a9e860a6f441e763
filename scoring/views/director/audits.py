"""Replay audits: the dashboard's "Audit" box, and that box alone for the page's poller
(static/js/live.js, data-poll) while an audit runs."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from scoring.domain.errors import DomainError
from scoring.selectors.access import require_club_visible
from scoring.selectors.audits import audit_detail, audit_get, audit_latest
from scoring.services import audits as audits_services
from scoring.views.director.access import director_required, visible_tournament

#: Findings listed on the page at most (the API sends more).
AUDIT_FINDINGS_SHOWN = 200


def audit_panel(tournament, audit=None) -> dict:
    """What the audit box shows: the tournament and its latest audit (``audit_detail``, or None)."""
    audit = audit or audit_latest(tournament)
    detail = audit_detail(audit, limit=AUDIT_FINDINGS_SHOWN, table_names=True) if audit else None
    if detail:
        detail["active"] = audit.is_active
        detail["more"] = detail["findings_count"] - len(detail["findings"])
    return {"tournament": tournament, "latest": detail}


@director_required
@require_POST
def audit_start(request, actor, tournament_id: int):
    tournament = visible_tournament(actor, tournament_id)
    try:
        audits_services.audit_start(actor=actor, tournament=tournament)
    except DomainError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, gettext("Audit under way: every deal is replayed and checked; nothing is changed."))
    return redirect(reverse("director-tournament", args=[tournament.pk]) + "#audit")


@director_required
@require_GET
def audit_box(request, actor, audit_id: int):
    audit = audit_get(audit_id)
    require_club_visible(actor, audit.tournament.club, "audit")
    response = render(request, "director/_audit.html", {"audit": audit_panel(audit.tournament, audit)})
    response["Cache-Control"] = "no-store"
    return response
