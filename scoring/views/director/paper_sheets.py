"""A session's paper score sheets: one PDF, a page per table (``scoring.web.paper_sheets``),
for tables that score on paper and enter their sheet afterwards."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.views.decorators.http import require_GET

from scoring.selectors.seating import session_sheet_tables
from scoring.views.director.access import _tournament, director_required
from scoring.web import links
from scoring.web.paper_sheets import SheetPage, sheets_pdf


@director_required
@require_GET
def session_paper_sheets(request, actor, tournament_id: int, number: int):
    """The whole session's sheets in the page's language. Directors of the club only (others
    404); never cached, since the pages carry the tables' scorer links while the session is
    open (a closed session's sheets have none)."""
    tournament = _tournament(actor, tournament_id)
    session = tournament.sessions.filter(number=number).first()
    if session is None:
        raise Http404
    session.tournament = tournament
    pages = [SheetPage(table_name=row.table.name, players=[e.player.name for e in row.entries],
                       url=links.scorer_url(row.token, request) if row.token else None)
             for row in session_sheet_tables(session)]
    pdf = sheets_pdf(tournament=tournament.name, game_key=tournament.game, variant=tournament.variant,
                     session=session.number, pages=pages)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (f'attachment; filename="tournament-{tournament.pk}-session-{session.number}'
                                       f'-sheets.pdf"')
    response["Cache-Control"] = "no-store"
    return response
