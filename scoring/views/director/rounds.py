"""Deals: record one (a late deal, at a table whose session is closed), void, settle a dispute,
confirm, correct."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scoring.domain.errors import DomainError, ValidationFailed
from scoring.domain.inputs import MAX_INT32, whole_number_or_text
from scoring.selectors.rounds import table_page_of, table_round_preview
from scoring.selectors.tables import round_defaults, table_seats
from scoring.services import rounds as rounds_services
from scoring.views.corrections import correction_page
from scoring.views.director.access import director_required, visible_round, visible_table
from scoring.views.director.tables import render_table_page
from scoring.views.director.tournaments import render_dashboard
from scoring.web.deal_form import DealForm
from scoring.web.deal_moves import move_failure
from scoring.web.http import status_of
from scoring.web.presentation import session_table
from scoring.web.rule_messages import error_message
from scoring.web.scorer_answers import preview_context


def _round_action(request, actor, round_id, call, done, *, field: str | None = None):
    """A deal's move from the table page, or from the console (a form sent with
    ``from=console``: the console's query string kept in its address); refused, that page again
    with the errors at the deal (those of the move's text input ``field`` under it, with what was
    typed)."""
    rnd = visible_round(actor, round_id)
    console = request.POST.get("from") == "console"
    try:
        call(rnd)
    except DomainError as e:
        failed = move_failure(rnd.pk, e, field=field, value=request.POST.get(field, "") if field else "")
        if console:
            return render_dashboard(request, actor, rnd.table.session.tournament, failed=failed, status=status_of(e))
        return render_table_page(request, actor, rnd.table, page=table_page_of(rnd), failed=failed,
                                 status=status_of(e))
    messages.success(request, done % {"number": rnd.number,
                                      "table": session_table(rnd.table.session.number, rnd.table.name)})
    if console:
        query = request.GET.urlencode()
        return redirect(reverse("director-tournament", args=[rnd.table.session.tournament_id])
                        + (f"?{query}" if query else "") + "#disputed")
    page = table_page_of(rnd)   # back to the page of deals that shows it
    return redirect(reverse("director-table", args=[rnd.table_id]) + (f"?page={page}" if page > 1 else "")
                    + f"#deal-{rnd.number}")


@director_required
@require_POST
def round_void(request, actor, round_id: int):
    reason = request.POST.get("reason", "")
    return _round_action(request, actor, round_id,
                         lambda rnd: rounds_services.round_void(actor=actor, round=rnd, reason=reason),
                         gettext("Deal %(number)s of %(table)s voided."), field="reason")


@director_required
@require_POST
def round_resolve(request, actor, round_id: int):
    """Settling a dispute from a page asks for the director's note: what was decided, for the
    log (the API leaves it optional, for tools that settle in bulk)."""
    note = request.POST.get("note", "")

    def settle(rnd):
        if not note.strip():
            raise ValidationFailed(gettext("Write a note: what you decided and why."), path="note", code="required")
        rounds_services.round_dispute_resolve(actor=actor, round=rnd, note=note)

    return _round_action(request, actor, round_id, settle,
                         gettext("The dispute about deal %(number)s of %(table)s is settled."), field="note")


@director_required
@require_POST
def round_confirm(request, actor, round_id: int):
    raw = request.POST.get("confirmed_by", "").strip()
    # Optional for a director; a seat that is none goes to the service, which refuses it (400).
    confirmed_by = whole_number_or_text(raw, low=0, high=MAX_INT32) if raw else None
    return _round_action(request, actor, round_id,
                         lambda rnd: rounds_services.round_confirm(actor=actor, round=rnd, confirmed_by=confirmed_by),
                         gettext("Deal %(number)s of %(table)s confirmed."))


@director_required
@require_http_methods(["GET", "POST"])
def round_correct(request, actor, round_id: int):
    rnd = visible_round(actor, round_id)
    return correction_page(request, table=rnd.table, rnd=rnd, actor=actor,
                           page_url=reverse("director-table", args=[rnd.table_id]),
                           action_url=reverse("director-round-correct", args=[rnd.pk]))


@director_required
@require_http_methods(["GET", "POST"])
def table_deal(request, actor, table_id: int):
    """A deal recorded by the director at a table: the late deal a closed session's scorer link
    refused (``round_record`` marks it ``late``). Preview, then save; the form carries the deal
    number it records, so a form sent twice does not record the deal twice (409)."""
    table = visible_table(actor, table_id)
    tournament = table.session.tournament
    seats = table_seats(table)
    defaults = round_defaults(table)
    ctx = {"table": table, "tournament": tournament, "next": defaults, "problems": [], "preview": {},
           "page_url": reverse("director-table", args=[table.pk])}

    def form_for(**kwargs) -> DealForm:
        return DealForm(game=tournament.game, variant=tournament.variant, seats=seats, require_entered_by=False,
                        **kwargs)

    if request.method == "GET":
        form = form_for(initial={k: v for k, v in defaults.items() if k in ("leader", "banker")})
        return render(request, "director/table_deal.html", {**ctx, "form": form.context()})
    form = form_for(data=request.POST)
    body = form.body()
    if body is None:
        return render(request, "director/table_deal.html", {**ctx, "form": form.context()}, status=400)
    if request.POST.get("action") != "save":
        preview = table_round_preview(table=table, body=body, seats=seats, defaults=defaults)
        if not preview.ok:
            form.add_service_errors(preview.errors)
        ctx["preview"] = preview_context(preview, tournament.game)
        return render(request, "director/table_deal.html", {**ctx, "form": form.context()},
                      status=200 if preview.ok else 400)
    raw = request.POST.get("number", "").strip()
    number = whole_number_or_text(raw, low=1, high=MAX_INT32) if raw else None
    try:
        rnd = rounds_services.round_record(actor=actor, table=table, body={**body, "number": number}
                                           if number is not None else body)
    except ValidationFailed as e:
        form.add_service_errors(e.errors)
        return render(request, "director/table_deal.html", {**ctx, "form": form.context()}, status=400)
    except DomainError as e:
        ctx["problems"] = [error_message(e)]
        return render(request, "director/table_deal.html", {**ctx, "form": form.context()}, status=status_of(e))
    done = (gettext("Deal %(number)s of %(table)s recorded, marked late.") if rnd.late
            else gettext("Deal %(number)s of %(table)s recorded."))
    messages.success(request, done % {"number": rnd.number, "table": session_table(table.session.number, table.name)})
    return redirect(reverse("director-table", args=[table.pk]) + f"#deal-{rnd.number}")
