"""Sessions: seating one, its printable sheet (links and QR codes, a page of tables at a time,
with one line per player for the wall; shown again while the session is open), new links for a
sheet gone astray, closing and reopening it, and its clock."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_INT32, parse_whole_number, whole_number_or_text
from scoring.domain.paging import Page, page_window
from scoring.selectors.paper_sheets import paper_sheet_job_detail, paper_sheet_jobs_shown
from scoring.selectors.seating import links_shown, session_seating, session_sheet_tables, session_table_count
from scoring.selectors.sessions import Place
from scoring.services import seating as seating_services
from scoring.services import sessions as sessions_services
from scoring.services import tables as tables_services
from scoring.views.director.access import (
    director_required,
    errors_by_field,
    numbered_session,
    visible_session,
    visible_tournament,
)
from scoring.views.director.paper_sheets import SYNC_MAX_TABLES
from scoring.views.director.tournaments import SEATING_LEFTOVERS, SEATING_METHODS, render_dashboard
from scoring.web import links
from scoring.web.http import status_of
from scoring.web.presentation import where_now
from scoring.web.rule_messages import error_message

#: Tables on a page of a session's sheet (its QR codes are drawn for the page shown only).
SHEET_PAGE = 50


@director_required
@require_http_methods(["GET", "POST"])
def session_seat(request, actor, tournament_id: int):
    """Seat the next session (``seating_services.session_seat``) and show its sheet
    (``session_sheet``: a redirect, so a reload does not seat again). The form carries a key drawn
    with it (``idempotency_key``): sent again (a double click, a retry after a lost answer) it
    seats nothing and shows the same session's sheet; and the session number it makes, so an
    old form sent after another seating changes nothing either."""
    tournament = visible_tournament(actor, tournament_id)
    if request.method == "GET":  # the address of a seating's answer, opened again
        return redirect(reverse("director-tournament", args=[tournament.pk]) + "#seat-session")
    p = request.POST
    form = {key: p.get(key, "") for key in ("method", "table_size", "leftovers", "seed")}
    form["keep_open"] = p.get("keep_open") == "on"
    form["entries"] = "checked_in" if p.get("entries") == "checked_in" else "all"
    # A number that is none goes to the service as sent: it refuses it at its field (400).
    size = whole_number_or_text(form["table_size"].strip(), low=0, high=MAX_INT32)
    expected = p.get("next_session", "").strip()
    try:
        seated = seating_services.session_seat(
            actor=actor, tournament=tournament, method=form["method"], table_size=size,
            leftovers=form["leftovers"], seed=form["seed"] or None, keep_open=form["keep_open"],
            entries=seating_services.CHECKED_IN if form["entries"] == "checked_in" else None,
            expected_number=whole_number_or_text(expected, low=1, high=MAX_INT32) if expected else None,
            idempotency_key=p.get("idempotency_key") or None)
    except DomainError as e:
        # The form is drawn again with a new key: this one may stand for another seating.
        return render_dashboard(request, actor, tournament, status=status_of(e), seat_form=form,
                          seat_errors=errors_by_field(e.errors, ("method", "table_size", "leftovers", "seed",
                                                                "entries")))
    number = seated.session.number
    if seated.replayed:
        messages.info(request, gettext("This form was sent already: session %(number)s was seated then, "
                                       "nothing more now. Here is its sheet.") % {"number": number})
    else:
        messages.success(request, ngettext("Session %(number)s is seated: %(count)d table.",
                                           "Session %(number)s is seated: %(count)d tables.", len(seated.tables))
                         % {"number": number, "count": len(seated.tables)})
    return redirect(reverse("director-session-sheet", args=[tournament.pk, number]), permanent=False)


@director_required
@require_http_methods(["GET", "POST"])
def session_sheet(request, actor, tournament_id: int, number: int):
    """A session's sheet, to print or show at the tables: each table's seats, scorer link and QR
    code, ``SHEET_PAGE`` tables a page (``?page=``; QR codes drawn for the page shown only), and
    one line per player for the wall. The links are shown while the session is open (kept
    encrypted, ``selectors.seating.session_sheet_tables``); a closed session's sheet lists its
    tables without them. Directors of the club only, never cached. POST: new links for every
    table (a sheet gone astray: the old cards stop working), then the sheet again."""
    session = numbered_session(actor, tournament_id, number)
    tournament = session.tournament
    url = reverse("director-session-sheet", args=[tournament.pk, number])
    if request.method == "POST":
        try:
            made = tables_services.session_scorer_tokens_rotate(actor=actor, session=session)
        except DomainError as e:
            messages.error(request, error_message(e))
        else:
            messages.success(request, ngettext("A new link for %(count)d table: the old one stopped working.",
                                               "New links for %(count)d tables: the old ones stopped working.",
                                               len(made)) % {"count": len(made)})
        return redirect(url)
    count = session_table_count(session)
    shown, pages, offset = page_window(count, parse_whole_number(request.GET.get("page", ""), low=1, high=MAX_INT32), SHEET_PAGE)
    tables = []
    for row in session_sheet_tables(session, offset=offset, limit=SHEET_PAGE):
        link = links.scorer_url(row.token, request) if row.token else None
        tables.append({"table": row.table, "seats": row.entries, "url": link,
                       "qr": links.qr_svg(link, scale=5) if link else None})
    seating = session_seating(session)
    sit_outs = seating.sit_outs if shown == 1 else []
    response = render(request, "director/session_sheet.html", {
        "tournament": tournament, "session": session, "tables": tables, "sit_outs": sit_outs,
        "closed": seating.closed,
        "page": Page(items=tables, number=shown, pages=pages, count=count, size=SHEET_PAGE), "sheet_url": url,
        "links_shown": links_shown(session), "missing": sum(1 for t in tables if t["url"] is None),
        "wall": _wall(tables, sit_outs, session.number), "seating": seating,
        "method": dict(SEATING_METHODS).get(seating.method, seating.method),
        "leftovers": dict(SEATING_LEFTOVERS).get(seating.leftovers, seating.leftovers),
        "loopback": any(t["url"] and links.is_loopback(t["url"]) for t in tables),
        "paper_sheets": [paper_sheet_job_detail(job) for job in paper_sheet_jobs_shown(session)],
        "sheet_languages": settings.LANGUAGES, "sync_sheets": count <= SYNC_MAX_TABLES,
    })
    response["Cache-Control"] = "no-store"
    return response


def _wall(tables: list[dict], sit_outs: list, number: int) -> list[str]:
    """The sheet's list for the wall: one line per player, by name ("Chen → Session 2 · Table 3,
    seat East"), those sitting out too."""
    lines = []
    for t in tables:
        table = t["table"]
        for position, entry in enumerate(t["seats"]):
            place = Place(session=number, table=table.pk, table_name=table.name, position=position,
                          seats=len(t["seats"]))
            lines.append((entry.player.name, where_now(entry.player.name, place, number)))
    lines += [(e.player.name, where_now(e.player.name, None, number)) for e in sit_outs]
    return [text for _name, text in sorted(lines, key=lambda line: line[0].casefold())]


def _session_move(request, actor, session_id: int, call, done: str):
    """A session's move from the dashboard (close, reopen, clock); refused, the reason shown there."""
    session = visible_session(actor, session_id)
    try:
        call(session)
    except DomainError as e:
        messages.error(request, error_message(e))
    else:
        messages.success(request, done % {"number": session.number})
    # Back to the console showing this session (not always the one it shows first: the newest open).
    return redirect(reverse("director-tournament", args=[session.tournament_id]) + f"?session={session.number}#tables")


@director_required
@require_POST
def session_close(request, actor, session_id: int):
    return _session_move(request, actor, session_id,
                         lambda s: sessions_services.session_close(actor=actor, session=s),
                         gettext("Session %(number)s is closed: its scorer links record no more deals."))


@director_required
@require_POST
def session_reopen(request, actor, session_id: int):
    return _session_move(request, actor, session_id,
                         lambda s: sessions_services.session_reopen(actor=actor, session=s),
                         gettext("Session %(number)s is open again."))


@director_required
@require_POST
def session_clock_start(request, actor, session_id: int):
    raw = request.POST.get("minutes", "").strip()
    # Not a number: to the service as sent, which refuses it in the page's language.
    minutes = whole_number_or_text(raw, low=0, high=MAX_INT32)
    return _session_move(request, actor, session_id,
                         lambda s: sessions_services.session_clock_start(actor=actor, session=s, minutes=minutes),
                         gettext("The clock of session %(number)s is running."))


@director_required
@require_POST
def session_clock_stop(request, actor, session_id: int):
    return _session_move(request, actor, session_id,
                         lambda s: sessions_services.session_clock_stop(actor=actor, session=s),
                         gettext("The clock of session %(number)s is stopped."))
