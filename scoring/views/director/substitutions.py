"""A player substituted at a table from the page: the form on the director's table page does
what ``POST /api/v1/tables/{id}/substitutions/`` does (``services.substitutions``)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_ID, parse_whole_number
from scoring.selectors.substitutions import seat_label
from scoring.services.substitutions import table_substitute as substitute
from scoring.views.director.access import director_required, visible_table
from scoring.views.director.tables import render_table_page
from scoring.web.http import status_of


@director_required
@require_POST
def table_substitute(request, actor, table_id: int):
    table = visible_table(actor, table_id)
    seat = parse_whole_number(request.POST.get("seat", ""), low=0, high=MAX_ID)
    player = parse_whole_number(request.POST.get("player", ""), low=1, high=MAX_ID)
    try:
        sub = substitute(actor=actor, table=table, seat=seat, entry=player)
    except DomainError as e:
        return render_table_page(request, actor, table, status=status_of(e),
                                 substitution_errors=[err.get("message", "") for err in e.errors] or [e.message],
                                 chosen_seat=seat)
    messages.success(request, gettext("%(seat)s: %(name)s plays from deal %(number)s on.")
                     % {"seat": seat_label(sub.seat), "name": sub.entry_in.player.name, "number": sub.from_deal})
    return redirect("director-table", table.pk)
