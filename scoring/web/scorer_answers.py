"""The two answers to a POST of the scorer's deal form: JSON for the page's script
(static/js/deal-drafts.js) and, without JavaScript, a redirect (Post/Redirect/Get) to the page.

``scoring.views.scorer`` reads the form and records the deal once (one flow, ``DealPost``);
only how the outcome is said differs here. A preview is evaluated by whatever shows it: the
JSON answer at once, the page without JavaScript at the GET that follows (``stash_key``).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext

from scoring.domain.errors import DomainError
from scoring.selectors.rounds import round_rows, table_round_preview
from scoring.selectors.tables import round_defaults, table_seats
from scoring.web.deal_form import DealForm
from scoring.web.http import status_of
from scoring.web.path_words import with_words
from scoring.web.presentation import describe_deal, describe_rows
from scoring.web.rule_messages import error_message, translate_problems

#: How many of the table's last deals the scorer page lists.
RECENT_DEALS = 10


@dataclass
class DealPost:
    """What a POST of the deal form came to. ``status``: ``closed`` (the tournament is not
    running; ``message`` says why), ``session_closed`` (the table's session has ended: the deal
    stays on the phone, for the director), ``invalid`` (the form, or the service's ``error``),
    ``preview``, ``stale`` (no idempotency key), ``key_reused`` (``number``: the deal stored
    under the key), ``refused`` (another domain
    ``error``; ``number``: the deal the form believed it recorded) or ``saved`` (``outcome``)."""

    status: str
    form: DealForm | None = None
    body: dict | None = None
    message: str = ""
    error: DomainError | None = None
    number: int | None = None
    outcome: Any = None  # services.idempotency.IdempotentOutcome


def preview_context(preview, game: str) -> dict:
    """What the preview card shows: seats with nets, who pays whom, notes, warnings."""
    if preview is None or not preview.ok:
        return {}
    # Warnings' paths are the body's (seats by table position): said in words with the seats' names.
    return {"described": describe_deal(game, preview.players, preview.outcome),
            "warnings": with_words(translate_problems(preview.warnings), [p.get("name") for p in preview.players])}


def saved_url(token: str, number) -> str:
    """The page showing deal ``number`` just saved, above the next deal's form."""
    return reverse("scorer-table", args=[token]) + f"?saved={number}#saved"


def stash_key(table) -> str:
    """The session key of a refused or previewed form of the no-JavaScript path, shown by the
    GET that follows (Back and reload never post the form again)."""
    return f"scorer-form:{table.pk}"


# --- without JavaScript: a redirect ------------------------------------------------------------

def answer_redirect(request, table, token: str, posted: DealPost) -> HttpResponse:
    """Saved: the page with the deal. Anything else: the form as sent, stashed in the session with
    the refusal's words, shown (and previewed again) by the GET."""
    if posted.status == "saved":
        return redirect(saved_url(token, posted.outcome.body.get("number")))
    key = (request.POST.get("idem_key") or "").strip()
    problems: list[str] = []
    if posted.status in ("closed", "session_closed"):
        problems = [posted.message]
    elif posted.status == "stale":
        problems = [gettext("This form is out of date: check it and submit again.")]
    elif posted.status == "key_reused":
        key = uuid.uuid4().hex
        problems = [gettext("This form had already recorded a deal (see the list below). If this is another "
                            "deal, check it and submit again.")]
    elif posted.status == "refused":  # a deal number taken meanwhile: the page now shows the next one
        problems = [error_message(posted.error)]
    data = {k: request.POST.get(k, "") for k in request.POST if k not in ("csrfmiddlewaretoken", "action")}
    request.session[stash_key(table)] = {"data": data, "key": key, "action": request.POST.get("action", "preview"),
                                         "problems": problems}
    return redirect(reverse("scorer-table", args=[token]) + "#result")


# --- the page's script: JSON ---------------------------------------------------------------------

def _json(status_word: str, http_status: int, **data) -> JsonResponse:
    return JsonResponse({"status": status_word, **data}, status=http_status)


def _invalid(form: DealForm) -> JsonResponse:
    return _json("invalid", 400, errors=form.errors, section_errors=form.section_errors())


def answer_json(request, table, token: str, posted: DealPost) -> JsonResponse:
    """The same outcome in JSON; the draft stays on the phone until the answer says "saved"."""
    status = posted.status
    if status == "closed":
        return _json("closed", 409, message=posted.message)
    if status == "session_closed":  # the script keeps the draft and shows the ended page
        return _json("session_closed", 409, code="session_closed", message=posted.message)
    if status == "invalid":
        if posted.error is not None:
            posted.form.add_service_errors(posted.error.errors)
        return _invalid(posted.form)
    if status == "preview":
        preview = table_round_preview(table=table, body=posted.body)
        if not preview.ok:
            posted.form.add_service_errors(preview.errors)
            return _invalid(posted.form)
        game = table.session.tournament.game
        html = render_to_string("scoring/_preview.html", {"preview": preview_context(preview, game)}, request=request)
        return _json("preview", 200, html=html)
    if status == "stale":
        return _json("error", 400, message=gettext("This form is out of date: reload the page."))
    if status == "key_reused":   # ``number``: the deal stored under the key (the outbox drops its copy)
        return _json("key_reused", 409, number=posted.number, message=gettext(
            "This deal was already recorded from this phone (see the list below) and has been changed since. "
            "If it is another deal, submit it again."))
    if status == "refused":
        if any(x.get("code") == "deal_number_taken" for x in posted.error.errors):
            return _taken(request, table, posted.body, posted.number, posted.error)
        return _json("error", status_of(posted.error), message=error_message(posted.error))
    outcome = posted.outcome
    number = outcome.body.get("number")
    late = {"late": True} if outcome.body.get("late") else {}   # recorded after its session closed (an outbox's)
    return _json("saved", outcome.status, number=number, replayed=outcome.replayed, redirect=saved_url(token, number),
                 **late)


def _taken(request, table, body, number, error) -> JsonResponse:
    """409: another device recorded this deal number meanwhile. Both deals side by side, so the
    scorer can drop their copy or record it, on purpose, as the next deal."""
    tournament = table.session.tournament
    seats = table_seats(table)
    rows = describe_rows(tournament.game, round_rows(table, limit=RECENT_DEALS, seats=seats))
    other = next((d for d in rows if d["number"] == number), None)
    mine = table_round_preview(table=table, body=body, seats=seats)
    html = render_to_string("scorer/_taken.html", {
        "other": other, "number": number, "next": round_defaults(table)["number"],
        "mine": preview_context(mine, tournament.game)}, request=request)
    return _json("taken", 409, message=error.message, html=html, next=round_defaults(table)["number"])
