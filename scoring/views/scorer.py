"""The scorer's pages: one table's private link ``/s/<token>/``.

Thin views: read the form (``scoring.web.deal_form``), authorise through the link (the token resolves
one table; rotated or unknown → a 404 page), call a service or selector, render. The deal form
is posted by the page's script (static/js/deal-drafts.js: a draft kept on the phone, fetch,
retries with one Idempotency-Key) and answered in JSON; without JavaScript every POST answers
with a redirect (Post/Redirect/Get), a refusal or preview shown by the GET that follows. Both
are one flow (``deal_post``); only the answer differs (``scoring.web.scorer_answers``). The
moves each deal offers are the ones the services allow (``lifecycle.round_moves_allowed``).
"""

from __future__ import annotations

import uuid
from functools import wraps

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from scoring.domain.errors import (
    DomainError,
    IdempotencyKeyReused,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    ValidationFailed,
)
from scoring.domain.inputs import MAX_INT32, MAX_NOTE, parse_whole_number, whole_number_or_text
from scoring.domain.lifecycle import SESSION_CLOSED, round_moves_allowed, tournament_refusal
from scoring.selectors.rounds import round_of_table, round_rows, table_round_preview
from scoring.selectors.sessions import seats_now
from scoring.selectors.tables import round_defaults, table_by_scorer_token, table_running_totals, table_seats
from scoring.services import idempotency as idempotency_services
from scoring.services import rounds as rounds_services
from scoring.views.login import limited_page
from scoring.web import throttling
from scoring.web.auth import actor_from_request, client_ip
from scoring.web.deal_form import DealForm
from scoring.web.deal_moves import move_failure, with_moves
from scoring.web.http import parse_if_match, status_of
from scoring.web.player_proof import on_this_phone, remembered, remembered_player
from scoring.web.presentation import describe_rows, where_now
from scoring.web.rule_messages import error_message
from scoring.web.scorer_answers import RECENT_DEALS, DealPost, answer_json, answer_redirect, preview_context, stash_key
from scoring.web.scorer_proof import confirming, not_proven, proof_context


def _wants_json(request) -> bool:
    """The page's own script (static/js/deal-drafts.js) posts with fetch and reads JSON."""
    return "application/json" in request.headers.get("Accept", "")


def invalid_link(request):
    if _wants_json(request):
        # The draft stays on the phone; the page says the link was replaced (deal-drafts.js).
        return JsonResponse({"status": "link_invalid", "message": gettext(
            "This link was replaced by the director; ask for the new one — your deal is kept.")}, status=404)
    return render(request, "scorer/invalid.html", status=404)


def table_or_none(request, token: str):
    """The link's table, or None for an unknown link. Only unknown links count against the
    address (Limited past the allowance): a valid one is never refused for others' guesses."""
    table = table_by_scorer_token(token)
    if table is None:
        throttling.hit(request, "scorer-token", client_ip(request) or "unknown")
    return table


def limited_or_invalid(view):
    """Answer Limited with the 429 page."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except throttling.Limited as e:
            return limited_page(request, e)

    return wrapped


def _state(tournament) -> tuple[bool, str]:
    """(writable, notice) of a tournament for its scorers: the services' refusal, in its words."""
    refusal = tournament_refusal(tournament.status)
    return (True, "") if refusal is None else (False, refusal.text)


def _deal_form(table, *, data=None, initial=None, require_entered_by=True, seats=None, level="") -> DealForm:
    t = table.session.tournament
    # With proof, the enterer is the player this phone remembers, not a choice in the form.
    return DealForm(game=t.game, variant=t.variant, seats=seats if seats is not None else table_seats(table),
                    data=data, initial=initial, require_entered_by=require_entered_by and not t.require_proof,
                    level=level)


def _where_next(table, seats) -> list[dict]:
    """A closed session's page: where each player of the table sits in the newest session (none
    when no later session is seated yet)."""
    now = seats_now(table.session.tournament)
    if now.session is None or now.session <= table.session.number:
        return []
    return [{"entry": s.entry_id, "text": where_now(s.entry.player.name, now.places.get(s.entry_id), now.session)}
            for s in seats]


def scorer_page(request, table, token, *, form=None, preview=None, idem_key=None, problems=(), failed=None,
                status=200, saved=None, unsent=False, who=None):
    """The table's page. Its session closed: no deal form, where everyone sits now, and the deal
    typed on this phone and not sent shown as it was (``unsent``: the no-JavaScript form
    stashed; with JavaScript, deal-drafts.js fills it from the phone's drafts), to hand to the
    director. ``who``: the "Who are you?" form as sent and its errors."""
    tournament = table.session.tournament
    writable, notice = _state(tournament)
    closed = table.session.is_closed
    seats = table_seats(table)
    deals = describe_rows(tournament.game, round_rows(table, limit=RECENT_DEALS, seats=seats))
    with_moves(deals, actor_from_request(request, table=table), tournament, session=table.session, failed=failed)
    defaults = round_defaults(table)
    if form is None:
        initial = {k: v for k, v in defaults.items() if k in ("leader", "banker")}
        if deals and not tournament.require_proof:  # the phone usually stays with the same player
            initial["entered_by"] = deals[0].get("entered_by")
        # The tournament's level; a phone that has recorded a deal here puts back its own
        # (static/js/deal-memory.js).
        form = _deal_form(table, initial=initial, seats=seats, level=tournament.start_level)
    # The seat the bank has just left: the form asks its stake before Submit.
    form.previous = form.previous or defaults.get("last") or {}
    return render(request, "scorer/table.html", {
        "table": table,
        "tournament": tournament,
        "token": token,
        "writable": writable and not closed,
        "session_closed": closed,
        "where_next": _where_next(table, seats) if closed else [],
        # The player this phone remembers (their code proved here): their line is highlighted.
        "proven_entry_id": (remembered(request, tournament.pk) or (None,))[0],
        "unsent": unsent,
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
        "max_note": MAX_NOTE,
        "page_url": reverse("scorer-table", args=[token]),
        **proof_context(request, table, seats, who),
    }, status=status)


def optional_number(raw, *, low: int) -> int | str | None:
    """An optional number of the form (a deal number, a seat): None when not sent; the text as
    sent when it is no number, for the service to refuse at its path (nothing is stored)."""
    raw = (raw or "").strip()
    return whole_number_or_text(raw, low=low, high=MAX_INT32) if raw else None


@never_cache
@require_http_methods(["GET", "POST"])
@limited_or_invalid
def table_page(request, token: str):
    table = table_or_none(request, token)
    if table is None:
        return invalid_link(request)
    if request.method == "GET":
        stash = request.session.pop(stash_key(table), None)
        if stash and table.session.is_closed:  # a deal refused as the session closed: shown, not sent
            return scorer_page(request, table, token, form=_deal_form(table, data=stash.get("data") or {}),
                               problems=stash.get("problems") or [], unsent=True)
        if stash:
            return _stashed_page(request, table, token, stash)
        return scorer_page(request, table, token, saved=parse_whole_number(request.GET.get("saved"), low=1, high=MAX_INT32))
    posted = deal_post(request, table)
    answer = answer_json if _wants_json(request) else answer_redirect
    return answer(request, table, token, posted)


def _stashed_page(request, table, token, stash: dict):
    """The page after a refused or previewed POST without JavaScript: the form as it was sent,
    previewed again (a preview stores nothing), with the refusal's messages."""
    form = _deal_form(table, data=stash.get("data") or {})
    key = stash.get("key") or None
    problems = stash.get("problems") or []
    body = form.body()
    if body is None:
        return scorer_page(request, table, token, form=form, idem_key=key, problems=problems, status=200)
    preview = table_round_preview(table=table, body=body)
    if not preview.ok:
        form.add_service_errors(preview.errors)
    return scorer_page(request, table, token, form=form, idem_key=key, problems=problems,
                 preview=preview if stash.get("action") == "preview" else None)


def deal_post(request, table) -> DealPost:
    """A POST of the deal form, with or without JavaScript: read it, check it, record the deal
    exactly once per form (its idempotency key); what came of it, for either answer."""
    writable, notice = _state(table.session.tournament)
    if not writable:
        return DealPost("closed", message=notice)
    if table.session.is_closed:  # the service refuses it too (under the table's lock)
        return DealPost("session_closed", message=SESSION_CLOSED.text)
    form = _deal_form(table, data=request.POST)
    body = form.body()
    if body is None:
        return DealPost("invalid", form=form)
    if request.POST.get("action") != "submit":
        return DealPost("preview", form=form, body=body)
    key = (request.POST.get("idem_key") or "").strip()
    if not key:
        return DealPost("stale", form=form)
    number = optional_number(request.POST.get("number"), low=1)
    proof = None
    if table.session.tournament.require_proof:
        me = remembered_player(request, table)
        if me is None:  # a reset, or a phone that never said: the page asks again (the draft is kept)
            return DealPost("refused", form=form, body=body, error=not_proven(), number=number)
        body, proof = {**body, "entered_by": me.seat}, me.proof
    try:
        outcome = _record(request, table, body, key, number, proof)
    except ValidationFailed as e:
        return DealPost("invalid", form=form, error=e)
    except IdempotencyKeyReused as e:
        return DealPost("key_reused", form=form, error=e)
    except DomainError as e:
        if any(x.get("code") == SESSION_CLOSED.code for x in e.errors):  # closed since the page was read
            return DealPost("session_closed", message=error_message(e))
        return DealPost("refused", form=form, body=body, error=e, number=number)
    _saved_message(request, outcome)
    return DealPost("saved", outcome=outcome)


def _record(request, table, body, key, number, proof):
    if number is not None:
        body = {**body, "number": number}
    actor = actor_from_request(request, table=table)
    if proof is not None:  # the phone entering a proven deal: a code set on it does not confirm it
        actor = on_this_phone(request, actor)
    # A retry of a stored deal is not one more deal: the service counts only a new one, once the
    # key's insert has told them apart.
    return idempotency_services.round_record_idempotent(
        actor=actor, table=table, body=body, key=key, proof=proof,
        before_new=lambda: throttling.hit(request, "round-create", str(table.pk)))


def _saved_message(request, outcome) -> None:
    number = outcome.body.get("number")
    if outcome.replayed:
        messages.info(request, gettext("Deal %(number)s was already recorded from this form; it was not recorded "
                                       "twice.") % {"number": number})
    else:
        messages.success(request, gettext("Deal %(number)s recorded.") % {"number": number})


def _table_and_round(request, token: str, round_id: int):
    """The link's table and one of its deals, or (None, None) when either is not there: a wrong
    link and a deal of another table look the same to the scorer."""
    table = table_or_none(request, token)
    if table is None:
        return None, None
    try:
        return table, round_of_table(table, round_id)
    except NotFound:
        return None, None


@never_cache
@require_http_methods(["GET", "POST"])
@limited_or_invalid
def round_correct(request, token: str, round_id: int):
    table, rnd = _table_and_round(request, token, round_id)
    if rnd is None:
        return invalid_link(request)
    return correction_page(request, table=table, rnd=rnd, actor=actor_from_request(request, table=table),
                           page_url=reverse("scorer-table", args=[token]),
                           action_url=reverse("scorer-round-correct", args=[token, rnd.pk]), outbox_token=token)


def correction_page(request, *, table, rnd, actor, page_url: str, action_url: str, outbox_token: str = ""):
    """The correction form of a deal (scorer link or director): GET pre-fills it from the current
    revision's body with that revision's number hidden; POST previews or saves
    (``rounds_services.round_correct`` with ``expected_revision``: a concurrent change is a conflict).
    ``outbox_token``: reached by that scorer link, the phone queues the correction while offline."""
    tournament = table.session.tournament
    writable, notice = _state(tournament)
    refused = round_moves_allowed(rnd, actor, tournament=tournament)["round_correct"]
    problems = [notice] if notice else [refused.text] if refused else []
    ctx = {"table": table, "tournament": tournament, "round": rnd, "writable": writable and not problems,
           "page_url": page_url, "action_url": action_url, "problems": problems, "conflict": False,
           "preview": {}, "reason": "", "revision": rnd.current_revision.number, "max_note": MAX_NOTE,
           "outbox": {"token": outbox_token} if outbox_token else None}
    if request.method == "GET":
        form = _deal_form(table, initial=rnd.current_revision.body, require_entered_by=False)
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()})
    form = _deal_form(table, data=request.POST, require_entered_by=False)
    reason = (request.POST.get("reason") or "").strip()  # too long: the service says so under the field
    revision = request.POST.get("revision", "")
    ctx.update(reason=reason, revision=revision)
    if problems:
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=409)
    body = form.body()
    if body is None:
        return render(request, "scoring/correct.html", {**ctx, "form": form.context()}, status=400)
    if tournament.require_proof:  # the form offers no enterer: the deal keeps its proven one
        body = {**body, "entered_by": rnd.entered_by}
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


def _round_action(request, token, round_id, call, done: str, *, field: str | None = None):
    """A deal's move from its row; refused, the page again with the errors at the row (those of
    the move's text input ``field`` under it, with what was typed)."""
    table, rnd = _table_and_round(request, token, round_id)
    if rnd is None:
        return invalid_link(request)
    actor = actor_from_request(request, table=table)
    try:
        call(actor, rnd)
    except DomainError as e:
        failed = move_failure(rnd.pk, e, field=field, value=request.POST.get(field, "") if field else "")
        # the player picked to confirm stays picked beside the refusal
        failed["chosen"] = optional_number(request.POST.get("confirmed_by"), low=0)
        return scorer_page(request, table, token, failed=failed, status=status_of(e))
    messages.success(request, done % {"number": rnd.number})
    return redirect(reverse("scorer-table", args=[token]) + f"#deal-{rnd.number}")


@never_cache
@require_POST
@limited_or_invalid
def round_confirm(request, token: str, round_id: int):
    """Confirmed by the seat picked; with proof, by the player this phone remembers (one tap,
    ``as_me``) or the seat picked with that player's code typed (``confirmed_by_code``)."""
    confirmed_by = optional_number(request.POST.get("confirmed_by"), low=0)

    def confirm(actor, rnd):
        seat, proof = confirming(request, rnd.table, confirmed_by)
        return throttling.player_code_guarded(request, rnd.table, seat, proof, lambda: rounds_services.round_confirm(
            actor=actor, round=rnd, confirmed_by=seat, proof=proof))

    return _round_action(request, token, round_id, confirm, gettext("Deal %(number)s confirmed."),
                         field="confirmed_by_code")


@never_cache
@require_POST
@limited_or_invalid
def round_dispute(request, token: str, round_id: int):
    message = request.POST.get("message") or ""
    return _round_action(request, token, round_id,
                         lambda actor, rnd: rounds_services.round_dispute(actor=actor, round=rnd, message=message),
                         gettext("Deal %(number)s is flagged for the referee."), field="message")


__all__ = ["table_page", "round_correct", "correction_page", "round_confirm", "round_dispute", "deal_post"]
