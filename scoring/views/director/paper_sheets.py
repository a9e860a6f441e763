"""A session's paper score sheets: one PDF, a page per table (``scoring.web.paper_sheets``),
for tables that score on paper and enter their sheet afterwards.

- **A handful of tables** (``SYNC_MAX_TABLES`` at most): drawn in the request, in the page's
  language, and never stored anywhere — a fraction of a second, and no secret at rest.
- **Any session, any of the site's languages** ("Print paper sheets" on the session's sheet):
  a worker draws it (``services.paper_sheets``); the sheet page shows the job's box, which polls
  itself (``static/js/live.js``, ``data-poll``) with the tables drawn so far, then the download
  link. A larger session's direct download sends the director there instead.

Everything here is for the club's directors only (others: 404) and never cached: the pages
carry the tables' scorer links while the session is open.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET, require_POST

from scoring.domain.errors import DomainError
from scoring.selectors.access import require_club_visible
from scoring.selectors.paper_sheets import paper_sheet_job_detail, paper_sheet_job_get, paper_sheet_job_pdf
from scoring.selectors.seating import session_sheet_tables, session_table_count
from scoring.services import paper_sheets as paper_sheets_services
from scoring.views.director.access import director_required, numbered_session
from scoring.web import links
from scoring.web.paper_sheets import session_sheets_pdf
from scoring.web.rule_messages import error_message

#: Tables drawn in the request at most (7 – 9 ms a page on the development machine: about a
#: tenth of a second, nothing stored); more go through the worker.
SYNC_MAX_TABLES = 12


def _sheet_url(session) -> str:
    return reverse("director-session-sheet", args=[session.tournament.pk, session.number]) + "#paper-sheets"


def _pdf_response(pdf: bytes, session) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (f'attachment; filename="tournament-{session.tournament.pk}-session-'
                                       f'{session.number}-sheets.pdf"')
    response["Cache-Control"] = "no-store"
    return response


@director_required
@require_GET
def session_paper_sheets(request, actor, tournament_id: int, number: int):
    """The whole session's sheets in the page's language, drawn now, for a handful of tables;
    a larger session is sent to its sheet page's "Print paper sheets"."""
    session = numbered_session(actor, tournament_id, number)
    count = session_table_count(session)
    if count > SYNC_MAX_TABLES:
        messages.info(request, gettext("This session has %(count)s tables: choose the languages under “Print paper "
                                       "sheets” and a worker draws them.") % {"count": count})
        return redirect(_sheet_url(session))
    pdf = session_sheets_pdf(tournament=session.tournament, session=session, rows=session_sheet_tables(session),
                             base_url=links.site_base(request))
    return _pdf_response(pdf, session)


@director_required
@require_POST
def paper_sheets_start(request, actor, tournament_id: int, number: int):
    """Start (or find under way) the session's sheets in the languages ticked (none ticked: the
    page's), then back to the sheet page, where its box shows how it goes."""
    session = numbered_session(actor, tournament_id, number)
    languages = request.POST.getlist("languages") or [get_language() or settings.LANGUAGE_CODE]
    try:
        paper_sheets_services.paper_sheets_start(actor=actor, session=session, languages=languages,
                                                 base_url=links.site_base(request))
    except DomainError as e:
        messages.error(request, error_message(e))
    return redirect(_sheet_url(session))


def _job(actor, job_id: int):
    job = paper_sheet_job_get(job_id)
    require_club_visible(actor, job.session.tournament.club, "paper sheets")
    return job


@director_required
@require_GET
def paper_sheets_box(request, actor, job_id: int):
    response = render(request, "director/_paper_sheets_box.html", {"job": paper_sheet_job_detail(_job(actor, job_id))})
    response["Cache-Control"] = "no-store"
    return response


@director_required
@require_GET
def paper_sheets_download(request, actor, job_id: int):
    """The job's PDF while it is kept; once deleted (or never made), the sheet page, whose box
    says why."""
    job = _job(actor, job_id)
    pdf = paper_sheet_job_pdf(job)
    if pdf is None:
        messages.error(request, gettext("These paper sheets are no longer kept: print them again."))
        return redirect(_sheet_url(job.session))
    return _pdf_response(pdf, job.session)
