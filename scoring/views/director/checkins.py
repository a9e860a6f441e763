"""Check-in: the director's page for the session about to be seated (open it for check-in, tick
players in and out, who is missing) and the room's printable QR sheet of the players' check-in
page (``views.public_checkin``)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.domain.errors import DomainError
from scoring.domain.inputs import MAX_ID, MAX_INT32, parse_whole_number
from scoring.selectors.checkins import check_in_session, session_check_ins
from scoring.services import checkins as checkins_services
from scoring.views.director.access import director_required, visible_tournament
from scoring.web import links
from scoring.web.rule_messages import error_message


def _ids(values: list[str]) -> set[int]:
    """The entry ids a form sent (anything else left out)."""
    return {n for n in (parse_whole_number(v, low=1, high=MAX_ID) for v in values) if n is not None}


def _page_url(tournament) -> str:
    return reverse("director-check-in", args=[tournament.pk])


@director_required
@require_http_methods(["GET", "POST"])
def check_in_page(request, actor, tournament_id: int):
    """GET: the check-in session's list (a checkbox per entry not withdrawn; who is missing),
    or the button that opens the next session for check-in. POST: the ticks as they now stand
    (``entries``) among those the form listed (``listed``: an entry added meanwhile is left as it
    is), each change through ``services.checkins``; then the page again."""
    tournament = visible_tournament(actor, tournament_id)
    session = check_in_session(tournament)
    if request.method == "POST":
        sent = parse_whole_number(request.POST.get("session", ""), low=1, high=MAX_INT32)
        if session is None or sent != session.number:
            messages.error(request, gettext("The session open for check-in has changed since this page was drawn: "
                                            "nothing was changed. Tick again below."))
            return redirect(_page_url(tournament))
        listed, ticked = _ids(request.POST.getlist("listed")), _ids(request.POST.getlist("entries"))
        now_in = {e.pk for e, _row in session_check_ins(session).checked_in}
        changed, failed = 0, []
        for entry_id in sorted(listed):
            try:
                if entry_id in ticked and entry_id not in now_in:
                    checkins_services.entry_check_in(actor=actor, session=session, entry_id=entry_id)
                elif entry_id not in ticked and entry_id in now_in:
                    checkins_services.entry_check_in_undo(actor=actor, session=session, entry_id=entry_id)
                else:
                    continue
                changed += 1
            except DomainError as e:
                failed.append(error_message(e))
        for message in failed:
            messages.error(request, message)
        if changed:
            messages.success(request, ngettext("%(count)d check-in changed.", "%(count)d check-ins changed.", changed)
                             % {"count": changed})
        return redirect(_page_url(tournament))
    context = {"tournament": tournament, "session": session,
               "next_number": (tournament.sessions.order_by("-number").values_list("number", flat=True).first() or 0) + 1,
               "public_page": tournament.publicly_visible}
    if session is not None:
        found = session_check_ins(session)
        context.update(checked_in=found.checked_in, missing=found.missing,
                       rows=sorted([(e, True) for e, _row in found.checked_in] + [(e, False) for e in found.missing],
                                   key=lambda row: row[0].player.name))
    return render(request, "director/check_in.html", context)


@director_required
@require_POST
def check_in_open(request, actor, tournament_id: int):
    """Open the next session for check-in (``services.checkins.session_open_ahead``)."""
    tournament = visible_tournament(actor, tournament_id)
    try:
        session, created = checkins_services.session_open_ahead(actor=actor, tournament=tournament)
    except DomainError as e:
        messages.error(request, error_message(e))
    else:
        if created:
            messages.success(request, gettext("Session %(number)s is open for check-in.") % {"number": session.number})
    return redirect(_page_url(tournament))


@director_required
@require_GET
def check_in_sheet(request, actor, tournament_id: int):
    """The room's sheet to print: the check-in page's QR code and address (a public tournament's:
    the page is public)."""
    tournament = visible_tournament(actor, tournament_id)
    url = links.check_in_url(tournament, request)
    shown = tournament.publicly_visible
    return render(request, "director/check_in_sheet.html", {
        "tournament": tournament, "url": url, "shown": shown,
        "qr": links.qr_svg(url, scale=10) if shown else None, "loopback": links.is_loopback(url)})
