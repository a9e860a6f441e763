"""Tables and their scorer links (shown once, with the QR code)."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from games import get_game
from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_ID, MAX_INT32, MAX_NOTE, parse_whole_number, text_problem, whole_number_or_text
from scoring.domain.lifecycle import confirmed_with_the_shown
from scoring.models import Table
from scoring.selectors.rounds import table_deals_page, table_page_of_number
from scoring.selectors.substitutions import substitution_form
from scoring.selectors.tables import round_defaults, table_running_totals, table_seats
from scoring.services import tables as tables_services
from scoring.views.director.access import director_required, visible_table, visible_tournament
from scoring.views.director.tournaments import render_dashboard
from scoring.web import links
from scoring.web.deal_moves import with_moves
from scoring.web.http import status_of
from scoring.web.presentation import describe_rows, session_table


def _link_page(request, table, *, token: str | None = None, notice: str = "", status: int = 200):
    """The scorer link page: with ``token`` (the answer to the POST that made it) the link and
    its QR code, otherwise the "New scorer link" button. Never cached, by anyone."""
    ctx = {"table": table, "tournament": table.session.tournament, "seats": table_seats(table),
           "notice": notice}
    if token:
        url = links.scorer_url(token, request)
        ctx.update(url=url, qr=links.qr_svg(url, scale=6), loopback=links.is_loopback(url))
    response = render(request, "director/table_link.html", ctx, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _created_by_this_form(tournament, name: str, entries: list):
    """The table that this very form already created (same name, same entries in the same seats),
    when it is sent again; else None."""
    if not all(isinstance(e, int) for e in entries) or text_problem(name):
        return None   # a name the service refused as unstorable is not looked up (PostgreSQL: 500)
    for table in Table.objects.filter(session__tournament=tournament, name=name.strip()):
        if [seat.entry_id for seat in table_seats(table)] == entries:
            return table
    return None


@director_required
@require_http_methods(["GET", "POST"])
def table_create(request, actor, tournament_id: int):
    tournament = visible_tournament(actor, tournament_id)
    if request.method == "GET":  # the address of a create's answer, opened again
        return redirect(reverse("director-tournament", args=[tournament.pk]) + "#new-table")
    name = request.POST.get("name", "")
    raw = [request.POST.get(f"seat_{i}", "") for i in range(get_game(tournament.game).player_counts[-1])]
    chosen = [(i, r) for i, r in enumerate(raw) if r.strip()]
    # What is no id goes to the service as sent: refused at its seat.
    entries = [whole_number_or_text(r.strip(), low=1, high=MAX_ID) for _, r in chosen]
    try:
        table, token = tables_services.table_create(actor=actor, tournament=tournament, name=name, entries=entries)
    except DomainError as e:
        existing = _created_by_this_form(tournament, name, entries)
        if existing is not None:
            return _link_page(request, existing, status=409, notice=(
                gettext("%(table)s was already created by this form (it was sent twice): nothing was changed. "
                        "Its scorer link was shown when it was made and is not shown again.") % {"table": existing.name}))
        errors: dict[str, list[str]] = {}
        for err in e.errors:
            path = err.get("path") or ""
            key = "general"
            if path == "name":
                key = "name"
            elif path.startswith("entries["):
                i = parse_whole_number(path[8:-1], low=0, high=len(chosen) - 1)
                key = "general" if i is None else f"seat_{chosen[i][0]}"
            errors.setdefault(key, []).append(err.get("message", ""))
        return render_dashboard(request, actor, tournament, status=status_of(e), table_errors=errors,
                          table_form={"name": name, "seats": raw})
    messages.success(request, gettext("Table %(table)s created.") % {"table": table.name})
    return _link_page(request, table, token=token)


def _is_current_link(table, made: str) -> bool:
    """Whether a rotate form's ``made`` (when the link it replaces was made, ISO 8601, written by
    the templates with ``|date:"c"``) names the table's current link."""
    try:
        return datetime.fromisoformat(made) == table.scorer_token_created_at
    except (TypeError, ValueError):
        return False


@director_required
@require_http_methods(["GET", "POST"])
def table_rotate(request, actor, table_id: int):
    table = visible_table(actor, table_id)
    if request.method == "GET":  # the address of a rotate's answer, opened again
        return redirect("director-table-link", table.pk)
    made = request.POST.get("made")
    if made is not None and not _is_current_link(table, made):
        return _link_page(request, table, status=409, notice=(
            gettext("The scorer link of %(table)s was already replaced (at %(time)s UTC) since this form was shown, "
                    "by this form sent twice or from another page: nothing was changed now. Need yet another link? "
                    "Press the button below.")
            % {"table": session_table(table.session.number, table.name),
               "time": f"{table.scorer_token_created_at:%H:%M:%S}"}))
    try:
        token = tables_services.table_scorer_token_rotate(actor=actor, table=table)
    except DomainError as e:
        messages.error(request, e.message)
        return redirect("director-table", table.pk)
    messages.success(request, gettext("%(table)s has a new scorer link; the old one no longer works.")
                     % {"table": session_table(table.session.number, table.name)})
    return _link_page(request, table, token=token)


@director_required
@require_GET
def table_link(request, actor, table_id: int):
    """The page that a link page's address leads to: the link itself is shown only in the answer
    to the POST that made it; here, the button that makes a new one."""
    return _link_page(request, visible_table(actor, table_id))


@director_required
@require_GET
def table_page(request, actor, table_id: int):
    """A table's totals and its deals, twenty at a time, newest first (``?page=2``: older ones;
    ``?deal=7``: the page that shows deal 7, where other pages link to a deal); each deal's
    earlier revisions when asked (``table_deals``)."""
    table = visible_table(actor, table_id)
    page = parse_whole_number(request.GET.get("page"), low=1, high=MAX_INT32)
    deal = parse_whole_number(request.GET.get("deal"), low=1, high=MAX_INT32)
    if page is None and deal is not None:
        page = table_page_of_number(table.pk, deal)
    return render_table_page(request, actor, table, page=page)


def render_table_page(request, actor, table, *, page: int | None = None, failed=None, status=200,
                      substitution_errors=None, chosen_seat=None):
    """Page ``page`` of the table's deals (None: the newest), each naming the players who played
    it. ``failed``: a refused move (``scoring.web.deal_moves.move_failure``), shown at its deal;
    ``substitution_errors``: a refused substitution (``views.director.substitutions``), at its form."""
    tournament = table.session.tournament
    seats = table_seats(table)
    deals = table_deals_page(table, page, seats=seats)
    rows = with_moves(describe_rows(tournament.game, deals.items), actor, tournament, failed=failed)
    substitution = {**substitution_form(table, seats, next_deal=round_defaults(table)["number"]),
                    "errors": substitution_errors or [], "chosen_seat": chosen_seat}
    return render(request, "director/table.html", {
        "table": table, "tournament": tournament,
        "totals": table_running_totals(table, seats=seats),
        "deals": rows, "page": deals,
        # "Confirm all shown": what the director typed in and no phone will confirm, as shown here.
        "confirm_shown": [d for d in rows if "round_confirm" in d["allowed"] and confirmed_with_the_shown(d)],
        "max_note": MAX_NOTE, "substitution": substitution,
    }, status=status)
