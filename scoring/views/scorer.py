"""The scorer's pages: one table's private link ``/s/<token>/``.

Thin views: read the form (``scoring.web.deal_form``), authorise through the link (the token resolves
one table; rotated or unknown → a 404 page), call a service or selector, render. The deal form
is posted by the page's script (static/js/deal-drafts.js: a draft kept on the phone, fetch,
retries with one Idempotency-Key) and answered in JSON; without JavaScript every POST answers
with a redirect (Post/Redirect/Get), a refusal or preview shown by the GET that follows.
"""

from __future__ import annotations

import uuid
from functools import wraps

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from scoring.selectors.rounds import round_of_table, round_rows, table_round_preview

from scoring.selectors.tables import round_defaults, table_by_scorer_token, table_running_totals, table_seats

from scoring.services import idempotency as idempotency_services, rounds as rounds_services

from scoring.web import throttling
from scoring.web.http import parse_if_match, status_of
from scoring.web.auth import actor_from_request, client_ip
from scoring.domain.errors import DomainError, IdempotencyKeyReused, NotFound, PreconditionFailed, PreconditionRequired, ValidationFailed
from scoring.domain.inputs import MAX_INT32, parse_whole_number, whole_number_or_text
from scoring.web.deal_form import DealForm
from scoring.web.presentation import describe_deal, describe_rows
from scoring.web.rule_messages import error_message, translate_problems
from scoring.views.login import limited_page

RECENT_DEALS = 10


def _wants_json(request) -> bool:
    """The page's own script (static/js/deal-drafts.js) posts with fetch and reads JSON."""
    return "application/json" in request.headers.get("Accept", "")


def _invalid_link(request):
    if _wants_json(request):
        # The draft stays on the phone; the page says the link was replaced (deal-drafts.js).
        return JsonResponse({"status": "link_invalid", "message": gettext(
            "This link was replaced by the director; ask for the new one — your deal is kept.")}, status=404)
    return render(request, "scorer/invalid.html", status=404)


def _table_or_none(request, token: str):
    """The link's table, or None for an unknown link; unknown links count against the address
    (Limited past the allowance, before any look-up)."""
    address = client_ip(request) or "unknown"
    throttling.check(request, "scorer-token", address)
    table = table_by_scorer_token(token)
    if table is None:
        throttling.count(request, "scorer-token", address)
    return table


def _limited_or_invalid(view):
    """Answer Limited with the 429 page."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except throttling.Limited as e:
            return limited_page(request, e)

    return wrapped


def _state(tournament) -> tuple[bool, str]:
    """(writable, notice) of a tournament for its scorers."""
    if tournament.is_running:
        return True, ""
    if tournament.is_finished:
        return False, gettext("This tournament is finished: the table is read-only.")
    return False, gettext("This tournament has not started yet: deals can be entered once the director starts it.")


def _deal_form(table, *, data=None, initial=None, require_entered_by=True, seats=None) -> DealForm:
    t = table.session.tournament
    return DealForm(game=t.game, variant=t.variant, seats=seats if seats is not None else table_seats(table),
                    data=data, initial=initial, require_entered_by=require_entered_by)


def preview_context(preview, game: str) -> dict:
    """What the preview card shows: seats with nets, who pays whom, notes, warnings."""
    if preview is None or not preview.ok:
        return {}
    return {"described": describe_deal(game, preview.players, preview.outcome),
            "warnings": translate_problems(preview.warnings)}


def _page(request, table, token, *, form=None, preview=None, idem_key=None, problems=(), round_errors=None,
          status=200, saved=None):
    tournament = table.session.tournament
    writable, notice = _state(tournament)
    seats = table_seats(table)
    deals = describe_rows(tournament.game, round_rows(table, limit=RECENT_DEALS, seats=seats))
    defaults = round_defaults(table)
    if form is None:
        initial = {k: v for k, v in defaults.items() if k in ("leader", "banker")}
        if deals:  # the phone usually stays with the same player
            initial["entered_by"] = deals[0].get("entered_by")
        form = _deal_form(table, initial=initial, seats=seats)
    return render(request, "scorer/table.html", {
        "table": table,
        "tournament": tournament,
        "token": token,
        "writable": writable,
        "notice": notice,
        "totals": table_running_totals(table, seats=seats),
        "next": defaults,
        "deals": deals,
        # The deal just saved, shown above the next deal's form (?saved=<number>).
        "saved": next((d for d in deals if d["number"] == saved), None) if saved else None,
        "form": form.context(),
        "preview": preview_context(preview, tournament.game),
        "idem_key": idem_key or uuid.uuid4().hex,
        "problems": list(problems),
        "round_errors": round_errors or {},
        "page_url": reverse("scorer-table", args=[token]),
    }, status=status)


def _optional_number(raw, *, low: int) -> int | str | None:
    """An optional number of the form (a deal number, a seat): None when not sent; the text as
    sent when it is no number, for the service to refuse at its path (nothing is stored)."""
    raw = (raw or "").strip()
    return whole_number_or_text(raw, low=low, high=MAX_INT32) if raw else None


#: The session key of a refused or previewed form of the no-JavaScript path, shown by the GET
#: that follows (Post/Redirect/Get: Back and reload never post the form again).
def _stash_key(table) -> str:
    return f"scorer-form:{table.pk}"


def _json(status_word: str, http_status: int, **data) -> JsonResponse:
    return JsonResponse({"status": status_word, **data}, status=http_status)


def _form_errors(form) -> dict:
    return {"errors": form.errors, "section_errors": form.section_errors()}


@never_cache
@require_http_methods(["GET", "POST"])
@_limited_or_invalid
def table_page(request, token: str):
    table = _table_or_none(request, token)
    if table is None:
        return _invalid_link(request)
    if request.method == "GET":
        stash = request.session.pop(_stash_key(table), None)
        if stash:
            return _stashed_page(request, table, token, stash)
        return _page(request, table, token, saved=parse_whole_number(request.GET.get("saved"), low=1, high=MAX_INT32))
    if _wants_json(request):
        return _post_json(request, table, token)
    return _post_form(request, table, token)


def _stashed_page(request, table, token, stash: dict):
    """The page after a refused or previewed POST without JavaScript: the form as it was sent,
    previewed again (a preview stores nothing), with the refusal's messages."""
    form = _deal_form(table, data=stash.get("data") or {})
    key = stash.get("key") or None
    problems = stash.get("problems") or []
    body = form.body()
    if body is None:
        return _page(request, table, token, form=form, idem_key=key, problems=problems, status=200)
    preview = table_round_preview(table=table, body=body)
    if not preview.ok:
        form.add_service_errors(preview.errors)
    return _page(request, table, token, form=form, idem_key=key, problems=problems,
                 preview=preview if stash.get("action") == "preview" else None)


def _post_form(request, table, token):
    """The no-JavaScript path: every answer is a redirect (a refusal or a preview is stashed in
    the session and shown by the GET)."""
    key = (request.POST.get("idem_key") or "").strip()
    data = {k: request.POST.get(k, "") for k in request.POST if k not in ("csrfmiddlewaretoken", "action")}
    action = request.POST.get("action", "preview")
    page_url = reverse("scorer-table", args=[token])

    def again(problems=()):
        request.session[_stash_key(table)] = {"data": data, "key": key, "action": action, "problems": list(problems)}
        return redirect(page_url + "#result")

    writable, notice = _state(table.session.tournament)
    if not writable:
        return again([notice])
    form = _deal_form(table, data=request.POST)
    body = form.body()
    if body is None or action != "submit":
        return again()
    if not key:
        return again([gettext("This form is out of date: check it and submit again.")])
    number = _optional_number(request.POST.get("number"), low=1)
    try:
        outcome = _record(request, table, body, key, number)
    except ValidationFailed:
        return again()
    except IdempotencyKeyReused:
        key = uuid.uuid4().hex
        return again([gettext("This form had already recorded a deal (see the list below). If this is another "
                              "deal, check it and submit again.")])
    except DomainError as e:  # a deal number taken meanwhile: the page now shows the next one
        return again([error_message(e)])
    _saved_message(request, outcome)
    return redirect(page_url + f"?saved={outcome.body.get('number')}#saved")


def _record(request, table, body, key, number):
    if number is not None:
        body = {**body, "number": number}
    actor = actor_from_request(request, table=table)
    throttling.hit(request, "round-create", str(table.pk))
    return idempotency_services.round_record_idempotent(actor=actor, table=table, body=body, key=key)


def _saved_message(request, outcome) -> None:
    number = outcome.body.get("number")
    if outcome.replayed:
        messages.info(request, gettext("Deal %(number)s was already recorded from this form; it was not recorded "
                                       "twice.") % {"number": number})
    else:
        messages.success(request, gettext("Deal %(number)s recorded.") % {"number": number})


def _post_json(request, table, token):
    """The page's script (deal-drafts.js): preview or submit, answered in JSON. The draft stays
    on the phone until the answer says "saved"."""
    tournament = table.session.tournament
    writable, notice = _state(tournament)
    if not writable:
        return _json("closed", 409, message=notice)
    form = _deal_form(table, data=request.POST)
    body = form.body()
    if body is None:
        return _json("invalid", 400, **_form_errors(form))
    if request.POST.get("action") != "submit":
        preview = table_round_preview(table=table, body=body)
        if not preview.ok:
            form.add_service_errors(preview.errors)
            return _json("invalid", 400, **_form_errors(form))
        html = render_to_string("scoring/_preview.html", {"preview": preview_context(preview, tournament.game)},
                                request=request)
        return _json("preview", 200, html=html)
    key = (request.POST.get("idem_key") or "").strip()
    number = _optional_number(request.POST.get("number"), low=1)
    if not key:
        return _json("error", 400, message=gettext("This form is out of date: reload the page."))
    try:
        outcome = _record(request, table, body, key, number)
    except ValidationFailed as e:
        form.add_service_errors(e.errors)
        return _json("invalid", 400, **_form_errors(form))
    except IdempotencyKeyReused:
        return _json("key_reused", 409, message=gettext(
            "This deal was already recorded from this phone (see the list below) and has been changed since. "
            "If it is another deal, submit it again."))
    except DomainError as e:
        if any(x.get("code") == "deal_number_taken" for x in e.errors):
            return _taken(request, table, body, number, e)
        return _json("error", status_of(e), message=error_message(e))
    _saved_message(request, outcome)
    number = outcome.body.get("number")
    return _json("saved", outcome.status, number=number, replayed=outcome.replayed,
                 redirect=reverse("scorer-table", args=[token]) + f"?saved={number}#saved")


def _taken(request, table, body, number, error):
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


def _table_and_round(request, token: str, round_id: int):
    """The link's table and one of its deals, or (None, None) when either is not there: a wrong
    link and a deal of another table look the same to the scorer."""
    table = _table_or_none(request, token)
    if table is None:
        return None, None
    try:
        return table, round_of_table(table, round_id)
    except NotFound:
        return None, None


@never_cache
@require_http_methods(["GET", "POST"])
@_limited_or_invalid
def round_correct(request, token: str, round_id: int):
    table, rnd = _table_and_round(request, token, round_id)
    if rnd is None:
        return _invalid_link(request)
    return correction_page(request, table=table, rnd=rnd, actor=actor_from_request(request, table=table),
                           page_url=reverse("scorer-table", args=[token]),
                           action_url=reverse("scorer-round-correct", args=[token, rnd.pk]))


def correction_page(request, *, table, rnd, actor, page_url: str, action_url: str):
    """The correction form of a deal (scorer link or director): GET pre-fills it from the current
    revision's body with that revision's number hidden; POST previews or saves
    (``rounds_services.round_correct`` with ``expected_revision``: a concurrent change is a conflict)."""
    tournament = table.session.tournament
    writable, notice = _state(tournament)
    problems = [notice] if notice else []
    if rnd.status == rnd.Status.VOIDED:
        problems.append(gettext("This deal is voided; it cannot be corrected."))
    elif rnd.status == rnd.Status.CONFIRMED and actor.is_scorer:
        problems.append(gettext("This deal is confirmed; only a director can correct it now."))
    ctx = {"table": table, "tournament": tournament, "round": rnd, "writable": writable and not problems,
           "page_url": page_url, "action_url": action_url, "problems": problems, "conflict": False,
           "preview": {}, "reason": "", "revision": rnd.current_revision.number}
    if request.method == "GET":
        form = _deal_form(table, initial=rnd.current_revision.body, require_entered_by=False)
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()})
    form = _deal_form(table, data=request.POST, require_entered_by=False)
    reason = (request.POST.get("reason") or "").strip()[:2000]
    revision = request.POST.get("revision", "")
    ctx.update(reason=reason, revision=revision)
    if problems:
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=409)
    body = form.body()
    if body is None:
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=400)
    if request.POST.get("action") != "save":
        preview = table_round_preview(table=table, body=body, round=rnd)
        if not preview.ok:
            form.add_service_errors(preview.errors)
        ctx["preview"] = preview_context(preview, tournament.game)
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()},
                      status=200 if preview.ok else 400)
    try:
        rounds_services.round_correct(actor=actor, round=rnd, body=body, reason=reason,
                               expected_revision=parse_if_match(revision))
    except (PreconditionFailed, PreconditionRequired):
        ctx["conflict"] = True
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=409)
    except ValidationFailed as e:
        ctx["reason_errors"] = [err["message"] for err in e.errors if err.get("path") == "reason"]
        form.add_service_errors([err for err in e.errors if err.get("path") != "reason"])
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=400)
    except DomainError as e:
        ctx["problems"] = [error_message(e)]
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=status_of(e))
    messages.success(request, gettext("Deal %(number)s corrected.") % {"number": rnd.number})
    return redirect(page_url + f"#deal-{rnd.number}")


def _round_action(request, token, round_id, call, done: str):
    table, rnd = _table_and_round(request, token, round_id)
    if rnd is None:
        return _invalid_link(request)
    actor = actor_from_request(request, table=table)
    try:
        call(actor, rnd)
    except DomainError as e:
        return _page(request, table, token, round_errors={rnd.pk: [x["message"] for x in e.errors]},
                     status=status_of(e))
    messages.success(request, done % {"number": rnd.number})
    return redirect(reverse("scorer-table", args=[token]) + f"#deal-{rnd.number}")


@never_cache
@require_POST
@_limited_or_invalid
def round_confirm(request, token: str, round_id: int):
    confirmed_by = _optional_number(request.POST.get("confirmed_by"), low=0)
    return _round_action(request, token, round_id,
                         lambda actor, rnd: rounds_services.round_confirm(actor=actor, round=rnd, confirmed_by=confirmed_by),
                         gettext("Deal %(number)s confirmed."))


@never_cache
@require_POST
@_limited_or_invalid
def round_dispute(request, token: str, round_id: int):
    message = (request.POST.get("message") or "")[:2000]
    return _round_action(request, token, round_id,
                         lambda actor, rnd: rounds_services.round_dispute(actor=actor, round=rnd, message=message),
                         gettext("Deal %(number)s is flagged for the referee."))


__all__ = ["table_page", "round_correct", "correction_page", "round_confirm", "round_dispute", "preview_context"]
