"""The tournament report (``selectors.report``): a page and the same as a PDF, what a director
sends to the club afterwards. Directors of the club only (others 404)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from games import get_game
from scoring.selectors.report import tournament_report
from scoring.templatetags.words import audit_words
from scoring.views.director.access import director_required, visible_tournament
from scoring.web.report_pdf import report_pdf


def _status_label(report: dict) -> str | None:
    """The latest audit's status in the page's language (None: never audited)."""
    audit = report["audit"]
    if audit is None:
        return None
    return str(audit_words(audit["status"]))


@director_required
@require_GET
def tournament_report_page(request, actor, tournament_id: int):
    tournament = visible_tournament(actor, tournament_id)
    report = tournament_report(tournament)
    return render(request, "director/report.html", {
        **report, "game_name": get_game(tournament.game).name_in(get_language() or "en"),
        "audit_status": _status_label(report)})


@director_required
@require_GET
def tournament_report_pdf(request, actor, tournament_id: int):
    """Never cached: the figures change while deals are still corrected."""
    tournament = visible_tournament(actor, tournament_id)
    report = tournament_report(tournament)
    pdf = report_pdf(report, game_name=get_game(tournament.game).name_in(get_language() or "en"),
                     audit_status=_status_label(report))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-report.pdf"'
    response["Cache-Control"] = "no-store"
    return response
