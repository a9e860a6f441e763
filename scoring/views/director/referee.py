"""The referee's page of a tournament (``director-referee-page``), and its forms: settle a
dispute, record or delete an adjustment, substitute a player at a table. Its directors and its
referees open it (``director_required(referees=True)``, ``refereed_tournament``); the services
check the role again (``scoring.selectors.access.require_official_of``) and log the act under
the user who did it. A refusal shows the page again with the message (and the answer's status);
a change done redirects to the page, at its box."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.domain.errors import DomainError, ValidationFailed
from scoring.domain.inputs import MAX_ID, MAX_INT32, MAX_NOTE, parse_whole_number
from scoring.models import Adjustment, Round, Table
from scoring.selectors.adjustments import adjustments_panel
from scoring.selectors.dashboards import tournament_disputes
from scoring.selectors.referees import referee_tables
from scoring.selectors.substitutions import seat_label, substitution_form
from scoring.selectors.tables import round_defaults, table_seats
from scoring.selectors.tournaments import entry_list
from scoring.services import adjustments as adjustments_services
from scoring.services import rounds as rounds_services
from scoring.services.substitutions import table_substitute
from scoring.views.director.access import director_required, refereed_tournament
from scoring.views.director.adjustments import adjustment_posted
from scoring.web.deal_moves import move_failure, with_moves
from scoring.web.http import status_of
from scoring.web.presentation import describe_deal, session_table

#: The field of the adjustment form each refusal's path names.
_ADJUSTMENT_FIELDS = {"player": "entry", "amount": "amount", "reason": "reason"}


def render_referee_page(request, actor, tournament, *, status=200, failed=None, **extra):
    page = parse_whole_number(request.GET.get("disputes_page"), low=1, high=MAX_INT32, clamp=True)
    disputed = tournament_disputes(tournament, page=page)
    for d in with_moves(disputed.items, actor, tournament, failed=failed):
        d["described"] = describe_deal(tournament.game, d["players"], d["outcome"])
        if d.get("at_dispute"):
            d["at_dispute"]["described"] = describe_deal(tournament.game, d["at_dispute"]["players"],
                                                         d["at_dispute"]["outcome"])
    ctx = {"tournament": tournament, "role": tournament.role_here, "disputed": disputed,
           "max_note": MAX_NOTE, "entries": [e for e in entry_list(tournament) if not e.is_withdrawn],
           "tables": referee_tables(tournament), "referee": True, **adjustments_panel(tournament)}
    ctx.update(extra)
    return render(request, "director/referee.html", ctx, status=status)


def _back(tournament, anchor: str):
    return redirect(reverse("director-referee-page", args=[tournament.pk]) + f"#{anchor}")


@director_required(referees=True)
@require_GET
def referee_page(request, actor, tournament_id: int):
    return render_referee_page(request, actor, refereed_tournament(actor, tournament_id))


@director_required(referees=True)
@require_POST
def referee_resolve(request, actor, tournament_id: int, round_id: int):
    """Settle a dispute of the tournament: the note is required, as on the director's console."""
    tournament = refereed_tournament(actor, tournament_id)
    rnd = get_object_or_404(Round.objects.select_related("table__session__tournament__club"),
                            pk=round_id, table__session__tournament=tournament)
    note = request.POST.get("note", "")
    try:
        if not note.strip():
            raise ValidationFailed(gettext("Write a note: what you decided and why."), path="note", code="required")
        rounds_services.round_dispute_resolve(actor=actor, round=rnd, note=note)
    except DomainError as e:
        return render_referee_page(request, actor, tournament, status=status_of(e),
                                   failed=move_failure(rnd.pk, e, field="note", value=note))
    messages.success(request, gettext("The dispute about deal %(number)s of %(table)s is settled.")
                     % {"number": rnd.number, "table": session_table(rnd.table.session.number, rnd.table.name)})
    return _back(tournament, "disputed")


def _adjustment_refused(request, actor, tournament, form: dict, errors: dict, status: int):
    return render_referee_page(request, actor, tournament, status=status, adjustment_form=form,
                               adjustment_errors=errors)


@director_required(referees=True)
@require_POST
def referee_adjustment_add(request, actor, tournament_id: int):
    tournament = refereed_tournament(actor, tournament_id)
    return adjustment_posted(request, actor=actor, tournament=tournament, refused=lambda form, errors, status: (
        _adjustment_refused(request, actor, tournament, form, errors, status))) or _back(tournament, "adjustments")


@director_required(referees=True)
@require_POST
def referee_adjustment_delete(request, actor, tournament_id: int, adjustment_id: int):
    tournament = refereed_tournament(actor, tournament_id)
    adjustment = get_object_or_404(Adjustment.objects.select_related("tournament__club", "entry__player"),
                                   pk=adjustment_id, tournament=tournament)
    try:
        adjustments_services.adjustment_delete(actor=actor, adjustment=adjustment)
    except DomainError as e:
        return _adjustment_refused(request, actor, tournament, {"entry": "", "amount": "", "reason": ""},
                                   {"general": [e.message]}, status_of(e))
    return _back(tournament, "adjustments")


@director_required(referees=True)
@require_http_methods(["GET", "POST"])
def referee_table(request, actor, tournament_id: int, table_id: int):
    """A table of the tournament for the referee: who sat where, and the substitution form."""
    tournament = refereed_tournament(actor, tournament_id)
    table = get_object_or_404(Table.objects.select_related("session"), pk=table_id, session__tournament=tournament)
    table.session.tournament = tournament
    errors, seat, status = [], None, 200
    if request.method == "POST":
        seat = parse_whole_number(request.POST.get("seat", ""), low=0, high=MAX_ID)
        player = parse_whole_number(request.POST.get("player", ""), low=1, high=MAX_ID)
        try:
            sub = table_substitute(actor=actor, table=table, seat=seat, entry=player)
        except DomainError as e:
            errors = [err.get("message", "") for err in e.errors] or [e.message]
            status = status_of(e)
        else:
            messages.success(request, gettext("%(seat)s: %(name)s plays from deal %(number)s on.")
                             % {"seat": seat_label(sub.seat), "name": sub.entry_in.player.name,
                                "number": sub.from_deal})
            return redirect("director-referee-table", tournament.pk, table.pk)
    seats = table_seats(table)
    substitution = {**substitution_form(table, seats, next_deal=round_defaults(table)["number"]),
                    "errors": errors, "chosen_seat": seat}
    return render(request, "director/referee_table.html",
                  {"tournament": tournament, "table": table, "substitution": substitution, "referee": True},
                  status=status)
