"""A table's filled-in paper score sheet, typed in afterwards in one grid
(``scoring.web.paper_sheet_form``): every row checked by the engine, all recorded or none."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_http_methods

from scoring.domain.errors import DomainError, IdempotencyKeyReused, ValidationFailed
from scoring.domain.inputs import MAX_INT32, parse_whole_number
from scoring.domain.lifecycle import tournament_refusal
from scoring.domain.records import round_preview
from scoring.selectors.tables import round_defaults, table_seats
from scoring.services.paper_sheet_entry import paper_sheet_record, paper_sheet_replay
from scoring.views.director.access import director_required, visible_table
from scoring.web.http import status_of
from scoring.web.paper_sheet_form import SheetForm
from scoring.web.presentation import session_table
from scoring.web.rule_messages import error_message


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _sheet_page(request, *, table, form: SheetForm, key: str, number: int, status: int = 200,
                failed: DomainError | None = None):
    """The grid (again, with its errors and what was typed); asked for JSON, a refusal is
    ``{"errors": [{path, code, message}, ...]}``, its paths inside the sheet."""
    if status >= 400 and _wants_json(request):
        errors = form.problems + (failed.errors if failed is not None else [])
        return JsonResponse({"errors": errors}, status=status)
    problems = [error_message(failed)] if failed is not None else []
    tournament = table.session.tournament
    refusal = tournament_refusal(tournament.status)
    return render(request, "director/paper_sheet_entry.html", {
        "table": table, "tournament": tournament, "form": form.context(), "key": key, "number": number,
        "problems": problems, "refusal": refusal.text if refusal else "",
    }, status=status)


@director_required
@require_http_methods(["GET", "POST"])
def table_paper_sheet(request, actor, table_id: int):
    """A table's whole paper score sheet typed in at once: one row per deal, every row read and
    checked by the engine in order; a wrong row is shown at its row and input and nothing is
    recorded; all right, every deal is recorded (``services.paper_sheet_entry``), then the table
    page. The form carries its idempotency key and the first deal's number, so a form sent
    twice records the sheet once. Directors of the club only (others 404); a tournament that
    is not running is refused as the deal page is (by the recording service), and a closed
    session's deals are recorded late, as there."""
    table = visible_table(actor, table_id)
    tournament = table.session.tournament
    seats = table_seats(table)
    defaults = round_defaults(table)

    def sheet_form(data=None) -> SheetForm:
        return SheetForm(game=tournament.game, variant=tournament.variant, seats=seats, data=data)

    if request.method == "GET":
        return _sheet_page(request, table=table, form=sheet_form(), key=new_sheet_key(), number=defaults["number"])
    form = sheet_form(request.POST)
    key = request.POST.get("key", "")
    number = parse_whole_number(request.POST.get("number", ""), low=1, high=MAX_INT32) or defaults["number"]
    sent = form.sent()

    def refused(e: DomainError):
        if isinstance(e, IdempotencyKeyReused):
            return _sheet_page(request, table=table, form=form, key=new_sheet_key(), number=defaults["number"],
                               status=status_of(e), failed=e)
        if isinstance(e, ValidationFailed):
            for err in e.errors:
                form.add_problem(err)
            fresh = any(err.get("code") == "bad_idempotency_key" for err in e.errors)
            return _sheet_page(request, table=table, form=form, key=new_sheet_key() if fresh else key, number=number,
                               status=400)
        return _sheet_page(request, table=table, form=form, key=key, number=number, status=status_of(e), failed=e)

    try:
        # A form sent again is answered before its rows are read: its deals, once recorded, move
        # the order its blank columns follow.
        done = paper_sheet_replay(actor=actor, table=table, key=key, sent=sent, first_number=number)
        if done is None:
            bodies = form.check(defaults=defaults, preview=lambda body, d: round_preview(
                game=tournament.game, variant=tournament.variant, seats=seats, body=body, defaults=d))
            if bodies is None:
                return _sheet_page(request, table=table, form=form, key=key, number=number, status=400)
            done = paper_sheet_record(actor=actor, table=table, bodies=bodies, key=key, sent=sent,
                                      first_number=number)
    except DomainError as e:
        return refused(e)
    where = session_table(table.session.number, table.name)
    if done.replayed:
        messages.info(request, gettext("This sheet was already recorded (the form was sent twice): nothing more was "
                                       "recorded."))
    else:
        messages.success(request, ngettext("%(count)d deal of %(table)s recorded from its paper sheet.",
                                           "%(count)d deals of %(table)s recorded from their paper sheet.",
                                           len(done.numbers)) % {"count": len(done.numbers), "table": where})
    first = done.numbers[0] if done.numbers else 1
    return redirect(reverse("director-table", args=[table.pk]) + f"#deal-{first}")


def new_sheet_key() -> str:
    """A fresh idempotency key for one sheet's form."""
    return f"sheet-{uuid.uuid4().hex}"
