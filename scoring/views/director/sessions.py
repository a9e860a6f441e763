"""Sessions: seating one (its printable sheet of links is the answer to the POST, shown once,
with one line per player for the wall), its sheet printed again, closing and reopening it, and
its clock."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_INT32, whole_number_or_text
from scoring.selectors.sessions import Place
from scoring.selectors.tables import table_seats
from scoring.services import seating as seating_services
from scoring.services import sessions as sessions_services
from scoring.services import tables as tables_services
from scoring.views.director.access import _errors_by_field, _session, _tournament, director_required
from scoring.views.director.tournaments import SEATING_LEFTOVERS, SEATING_METHODS, _dashboard
from scoring.web import links
from scoring.web.http import status_of
from scoring.web.presentation import where_now
from scoring.web.rule_messages import error_message


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
    form["keep_open"] = p.get("keep_open") == "on"
    # A number that is none goes to the service as sent: it refuses it at its field (400).
    size = whole_number_or_text(form["table_size"].strip(), low=0, high=MAX_INT32)
    expected = p.get("next_session", "").strip()
    try:
        seated = seating_services.session_seat(
            actor=actor, tournament=tournament, method=form["method"], table_size=size,
            leftovers=form["leftovers"], seed=form["seed"] or None, keep_open=form["keep_open"],
            expected_number=whole_number_or_text(expected, low=1, high=MAX_INT32) if expected else None)
    except DomainError as e:
        return _dashboard(request, actor, tournament, status=status_of(e), seat_form=form,
                          seat_errors=_errors_by_field(e.errors, ("method", "table_size", "leftovers", "seed")))
    messages.success(request, ngettext("Session %(number)s is seated: %(count)d table.",
                                       "Session %(number)s is seated: %(count)d tables.", len(seated.tables))
                     % {"number": seated.session.number, "count": len(seated.tables)})
    if seated.closed:
        messages.info(request, _closed_message(seated.closed))
    tables = []
    for table, token in seated.tables:
        url = links.scorer_url(token, request)
        tables.append({"table": table, "seats": seated.seats[table.pk], "url": url, "qr": links.qr_svg(url, scale=5)})
    response = render(request, "director/session_sheet.html", {
        "tournament": tournament, "session": seated.session, "tables": tables, "sit_outs": seated.sit_outs,
        "closed": seated.closed, "wall": _wall(tables, seated.sit_outs, seated.session.number),
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
        "wall": _wall(tables, [], session.number),
        "loopback": any(links.is_loopback(t["url"]) for t in tables)})
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


def _closed_message(numbers: list[int]) -> str:
    return ngettext("Session %(numbers)s is closed: its scorer links record no more deals.",
                    "Sessions %(numbers)s are closed: their scorer links record no more deals.",
                    len(numbers)) % {"numbers": ", ".join(str(n) for n in numbers)}


def _session_move(request, actor, session_id: int, call, done: str):
    """A session's move from the dashboard (close, reopen, clock); refused, the reason shown there."""
    session = _session(actor, session_id)
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
