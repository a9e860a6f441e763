"""The director's table page beyond its page of deals: a deal's revisions when asked (their own
page, and the part of it the table page fetches into the deal), and "Confirm all shown"."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_ID, MAX_INT32, parse_whole_number
from scoring.selectors.rounds import round_revisions_checked, table_page_of
from scoring.services import confirm_shown as confirm_shown_services
from scoring.views.director.access import director_required, visible_round, visible_table
from scoring.views.director.tables import render_table_page
from scoring.web.http import status_of
from scoring.web.presentation import describe_revisions, session_table
from scoring.web.rule_messages import error_message


def table_page_url(table_id: int, page: int | None) -> str:
    """The address of page ``page`` of a table's deals (the first has none)."""
    return reverse("director-table", args=[table_id]) + (f"?page={page}" if page and page > 1 else "")


def _revisions(rnd) -> dict:
    tournament = rnd.table.session.tournament
    revisions, chain = round_revisions_checked(rnd)
    return {"table": rnd.table, "tournament": tournament, "deal": rnd, "chain": chain,
            "revisions": describe_revisions(tournament.game, revisions)}


@director_required
@require_GET
def round_revisions(request, actor, round_id: int):
    """Every revision of one deal, newest first, its hash chain checked: the page a deal's
    "N revisions" leads to without JavaScript."""
    rnd = visible_round(actor, round_id)
    return render(request, "director/round_revisions.html",
                  {**_revisions(rnd), "back": table_page_url(rnd.table_id, table_page_of(rnd)) + f"#deal-{rnd.number}"})


@director_required
@require_GET
def round_revisions_part(request, actor, round_id: int):
    """The revisions alone, which the table page fetches into a deal when its "N revisions" opens."""
    return render(request, "director/_revisions.html", _revisions(visible_round(actor, round_id)))


def _shown(value: str):
    """A form's ``deal`` (``"<deal id>:<revision>"``) as the pair the service takes; what is no
    such pair goes as sent (refused there)."""
    deal, _, revision = value.partition(":")
    pair = (parse_whole_number(deal, low=1, high=MAX_ID), parse_whole_number(revision, low=1, high=MAX_INT32))
    return value if None in pair else pair


@director_required
@require_http_methods(["GET", "POST"])
def table_confirm_shown(request, actor, table_id: int):
    """"Confirm all shown": the paper-sheet and late deals the page showed, with the revision
    each showed (``services.confirm_shown``); back to the same page of deals. Refused (a deal
    changed meanwhile: 412), that page again, drawn afresh, saying why."""
    table = visible_table(actor, table_id)
    page = parse_whole_number(request.POST.get("page"), low=1, high=MAX_INT32)
    if request.method == "GET":  # the address of an answer, opened again
        return redirect(table_page_url(table.pk, parse_whole_number(request.GET.get("page"), low=1, high=MAX_INT32)))
    shown = [_shown(v) for v in request.POST.getlist("deal")]
    try:
        done = confirm_shown_services.rounds_confirm_shown(actor=actor, table=table, shown=shown)
    except DomainError as e:
        messages.error(request, error_message(e))
        return render_table_page(request, actor, table, page=page, status=status_of(e))
    messages.success(request, ngettext("%(count)s deal of %(table)s confirmed.", "%(count)s deals of %(table)s confirmed.",
                                       len(done)) % {"count": len(done),
                                                     "table": session_table(table.session.number, table.name)})
    return redirect(table_page_url(table.pk, page) + "#deals")
