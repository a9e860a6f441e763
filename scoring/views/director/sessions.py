"""Seating a session: its printable sheet of links is the answer to the POST, shown once."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scoring.selectors.tables import table_seats

from scoring.services import seating as seating_services, tables as tables_services

from scoring.web import links
from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_INT32, whole_number_or_text
from scoring.web.http import status_of
from scoring.views.director.access import _errors_by_field, _tournament, director_required
from scoring.views.director.tournaments import SEATING_LEFTOVERS, SEATING_METHODS, _dashboard


@director_required
@require_http_methods(["GET", "POST"])
def session_seat(request, actor, tournament_id: int):
    """Seat the next session (``seating_services.session_seat``) and answer with the sheet of its
    tables: seats, scorer links and QR codes, to print or show now. Like a new table's link page,
    the sheet is only ever this answer (``Cache-Control: no-store``, the plain tokens stored
    nowhere) and takes the tournament page's address, so a reload does not seat again; the
    form carries the session number it makes, so a form sent twice changes nothing."""
    tournament = _tournament(actor, tournament_id)
    if request.method == "GET":  # the address of a seating's answer, opened again
        return redirect(reverse("director-tournament", args=[tournament.pk]) + "#seat-session")
    p = request.POST
    form = {key: p.get(key, "") for key in ("method", "table_size", "leftovers", "seed")}
    # A number that is none goes to the service as sent: it refuses it at its field (400).
    size = whole_number_or_text(form["table_size"].strip(), low=0, high=MAX_INT32)
    expected = p.get("next_session", "").strip()
    try:
        seated = seating_services.session_seat(
            actor=actor, tournament=tournament, method=form["method"], table_size=size,
            leftovers=form["leftovers"], seed=form["seed"] or None,
            expected_number=whole_number_or_text(expected, low=1, high=MAX_INT32) if expected else None)
    except DomainError as e:
        return _dashboard(request, actor, tournament, status=status_of(e), seat_form=form,
                          seat_errors=_errors_by_field(e.errors, ("method", "table_size", "leftovers", "seed")))
    messages.success(request, ngettext("Session %(number)s is seated: %(count)d table.",
                                       "Session %(number)s is seated: %(count)d tables.", len(seated.tables))
                     % {"number": seated.session.number, "count": len(seated.tables)})
    tables = []
    for table, token in seated.tables:
        url = links.scorer_url(token, request)
        tables.append({"table": table, "seats": seated.seats[table.pk], "url": url, "qr": links.qr_svg(url, scale=5)})
    response = render(request, "director/session_sheet.html", {
        "tournament": tournament, "session": seated.session, "tables": tables, "sit_outs": seated.sit_outs,
        "seed": seated.seed, "table_size": seated.table_size,
        "method": dict(SEATING_METHODS).get(seated.method, seated.method),
        "leftovers": dict(SEATING_LEFTOVERS).get(seated.leftovers, seated.leftovers),
        "loopback": any(links.is_loopback(t["url"]) for t in tables),
    })
    response["Cache-Control"] = "no-store"
    return response


@director_required
@require_http_methods(["GET", "POST"])
def session_sheet(request, actor, tournament_id: int, number: int):
    """A session's sheet printed again. Links are stored hashed and cannot be shown twice, so
    the sheet needs new links for all its tables: GET asks (the old cards stop working), POST
    makes them and answers with the sheet, once (``Cache-Control: no-store``)."""
    tournament = _tournament(actor, tournament_id)
    session = tournament.sessions.filter(number=number).first()
    if session is None:
        raise Http404
    if request.method == "GET":
        return render(request, "director/session_reprint.html", {"tournament": tournament, "session": session})
    try:
        made = tables_services.session_scorer_tokens_rotate(actor=actor, session=session)
    except DomainError as e:
        messages.error(request, e.message)
        return redirect("director-tournament", tournament.pk)
    seats = {t.pk: [s.entry for s in table_seats(t)] for t, _token in made}
    tables = []
    for table, token in made:
        url = links.scorer_url(token, request)
        tables.append({"table": table, "seats": seats[table.pk], "url": url, "qr": links.qr_svg(url, scale=5)})
    response = render(request, "director/session_sheet.html", {
        "tournament": tournament, "session": session, "tables": tables, "reprint": True,
        "loopback": any(links.is_loopback(t["url"]) for t in tables)})
    response["Cache-Control"] = "no-store"
    return response
