"""Deals: void, settle a dispute, confirm, correct."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scoring.services import rounds as rounds_services
from scoring.domain.errors import DomainError
from scoring.web.deal_moves import move_failure
from scoring.domain.inputs import MAX_INT32, whole_number_or_text
from scoring.web.http import status_of
from scoring.views.scorer import correction_page
from scoring.views.director.access import _round, director_required
from scoring.views.director.tables import _table_page


def _round_action(request, actor, round_id, call, done, *, field: str | None = None):
    """A deal's move from the table page; refused, the page again with the errors at the deal
    (those of the move's text input ``field`` under it, with what was typed)."""
    rnd = _round(actor, round_id)
    try:
        call(rnd)
    except DomainError as e:
        failed = move_failure(rnd.pk, e, field=field, value=request.POST.get(field, "") if field else "")
        return _table_page(request, actor, rnd.table, failed=failed, status=status_of(e))
    messages.success(request, done % {"number": rnd.number, "table": rnd.table.name})
    return redirect(reverse("director-table", args=[rnd.table_id]) + f"#deal-{rnd.number}")


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
    note = request.POST.get("note", "")
    return _round_action(request, actor, round_id,
                         lambda rnd: rounds_services.round_dispute_resolve(actor=actor, round=rnd, note=note),
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
    rnd = _round(actor, round_id)
    return correction_page(request, table=rnd.table, rnd=rnd, actor=actor,
                           page_url=reverse("director-table", args=[rnd.table_id]),
                           action_url=reverse("director-round-correct", args=[rnd.pk]))
