"""The scorer's pages: one table's private link ``/s/<token>/``.

Thin views: read the form (``scoring.web.deal_form``), authorise through the link (the token resolves
one table; rotated or unknown → a 404 page), call a service or selector, render. The deal form
is posted by the page's script (static/js/deal-drafts.js: a draft kept on the phone, fetch,
retries with one Idempotency-Key) and answered in JSON; without JavaScript every POST answers
with a redirect (Post/Redirect/Get), a refusal or preview shown by the GET that follows. Both
are one flow (``deal_post``); only the answer differs (``scoring.web.scorer_answers``). The
moves each deal offers are the ones the services allow (``lifecycle.round_moves_allowed``);
posted by the page's scripts, they answer in JSON too (``scoring.web.move_answers``).

The phone's outbox (issue 28): every request of the link notes that its phone was heard and how
many items its outbox holds (``table_or_none``); ``ping`` answers whether the server is there; a
deal says when it was drawn on the phone (``drawn_at``: late deals, the allowance by drawn minute).
"""

from __future__ import annotations

import uuid
from functools import wraps

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from scoring.domain.errors import DomainError, IdempotencyKeyReused, NotFound, ValidationFailed
from scoring.domain.inputs import MAX_INT32, MAX_NOTE, parse_whole_number, whole_number_or_text
from scoring.domain.lifecycle import SESSION_CLOSED
from scoring.domain.outbox import drawn_while_open
from scoring.selectors.push import push_public_key
from scoring.selectors.rounds import round_of_table, round_rows, table_round_preview
from scoring.selectors.sessions import seats_now
from scoring.selectors.tables import round_defaults, table_by_scorer_token, table_running_totals, table_seats
from scoring.services import idempotency as idempotency_services
from scoring.services import rounds as rounds_services
from scoring.services.tables import table_phone_heard
from scoring.views.corrections import correction_page
from scoring.views.login import limited_page
from scoring.web import throttling
from scoring.web.auth import actor_from_request, client_ip
from scoring.web.deal_moves import move_failure, with_moves
from scoring.web.http import status_of
from scoring.web.move_answers import move_refused, move_saved, wants_json
from scoring.web.phone_outbox import drawn_at_posted, outbox_said, server_now_ms
from scoring.web.player_proof import on_this_phone, remembered, remembered_player
from scoring.web.presentation import describe_rows, where_now
from scoring.web.rule_messages import error_message
from scoring.web.scorer_answers import RECENT_DEALS, DealPost, answer_json, answer_redirect, preview_context, stash_key
from scoring.web.scorer_forms import deal_form_for, tournament_state
from scoring.web.scorer_proof import confirming, not_proven, proof_context


def invalid_link(request):
    if wants_json(request):
        # The draft stays on the phone; the page says the link was replaced (deal-drafts.js).
        return JsonResponse({"status": "link_invalid", "message": gettext(
            "This link was replaced by the director; ask for the new one — your deal is kept.")}, status=404)
    return render(request, "scorer/invalid.html", status=404)


def table_or_none(request, token: str):
    """The link's table, or None for an unknown link. Only unknown links count against the
    address (Limited past the allowance): a valid one is never refused for others' guesses.
    A link found: its phone was heard (and said how full its outbox is), for the director."""
    table = table_by_scorer_token(token)
    if table is None:
        throttling.hit(request, "scorer-token", client_ip(request) or "unknown")
    else:
        table_phone_heard(table=table, outbox=outbox_said(request))
    return table


def limited_or_invalid(view):
    """Answer Limited with the 429 page (in JSON to the page's scripts, with Retry-After both ways)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except throttling.Limited as e:
            if not wants_json(request):
                return limited_page(request, e)
            response = JsonResponse({"status": "error", "code": "throttled", "message": e.message}, status=429)
            response["Retry-After"] = str(e.retry_after)
            return response

    return wrapped


def _where_next(table, seats) -> list[dict]:
    """A closed session's page: where each player of the table sits in the newest session (none
    when no later session is seated yet)."""
    now = seats_now(table.session.tournament)
    if now.session is None or now.session <= table.session.number:
        return []
    return [{"player": s.entry.player_id, "text": where_now(s.entry.player.name, now.places.get(s.entry_id), now.session)}
            for s in seats]


def scorer_page(request, table, token, *, form=None, preview=None, idem_key=None, problems=(), failed=None,
                status=200, saved=None, unsent=False, who=None):
    """The table's page. Its session closed: no deal form, where everyone sits now, and the deal
    typed on this phone and not sent shown as it was (``unsent``: the no-JavaScript form
    stashed; with JavaScript, deal-drafts.js fills it from the phone's drafts), to hand to the
    director. ``who``: the "Who are you?" form as sent and its errors."""
    tournament = table.session.tournament
    writable, notice = tournament_state(tournament)
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
        form = deal_form_for(table, initial=initial, seats=seats, level=tournament.start_level)
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
        "proven_player_id": (remembered(request, tournament.club_id) or (None,))[0],
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
        # The phone draws its deals' times by the server's clock (static/js: the outbox).
        "server_now": server_now_ms(),
        **proof_context(request, table, seats, who),
        # Web Push's key, when the site has one: a proven player may allow notifications (push.js).
        "push_key": push_public_key(),
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
            return scorer_page(request, table, token, form=deal_form_for(table, data=stash.get("data") or {}),
                               problems=stash.get("problems") or [], unsent=True)
        if stash:
            return _stashed_page(request, table, token, stash)
        return scorer_page(request, table, token, saved=parse_whole_number(request.GET.get("saved"), low=1, high=MAX_INT32))
    posted = deal_post(request, table)
    answer = answer_json if wants_json(request) else answer_redirect
    return answer(request, table, token, posted)


def _stashed_page(request, table, token, stash: dict):
    """The page after a refused or previewed POST without JavaScript: the form as it was sent,
    previewed again (a preview stores nothing), with the refusal's messages."""
    form = deal_form_for(table, data=stash.get("data") or {})
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
    exactly once per form (its idempotency key); what came of it, for either answer. A deal
    drawn on the phone (``drawn_at``) while its session was open is recorded late once the
    session has closed (``domain.outbox.drawn_while_open``: the service decides again, under the
    table's lock)."""
    writable, notice = tournament_state(table.session.tournament)
    if not writable:
        return DealPost("closed", message=notice)
    form = deal_form_for(table, data=request.POST)
    try:
        drawn_at = drawn_at_posted(request.POST)
    except ValidationFailed as e:
        form.body()   # the deal's own errors too, beside this one
        form.add_error("drawn_at", e.message)
        return DealPost("invalid", form=form)
    session = table.session
    if session.is_closed and (drawn_at is None or not drawn_while_open(drawn_at, opened_at=session.created_at,
                                                                       closed_at=session.closed_at)):
        return DealPost("session_closed", message=SESSION_CLOSED.text)   # the service refuses it too
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
        outcome = _record(request, table, body, key, number, proof, drawn_at)
    except ValidationFailed as e:
        return DealPost("invalid", form=form, error=e)
    except IdempotencyKeyReused as e:
        return DealPost("key_reused", form=form, error=e, number=e.number)
    except DomainError as e:
        if any(x.get("code") == SESSION_CLOSED.code for x in e.errors):  # closed since the page was read
            return DealPost("session_closed", message=error_message(e))
        return DealPost("refused", form=form, body=body, error=e, number=number)
    _saved_message(request, outcome)
    return DealPost("saved", outcome=outcome)


def _record(request, table, body, key, number, proof, drawn_at):
    if number is not None:
        body = {**body, "number": number}
    actor = actor_from_request(request, table=table)
    if proof is not None:  # the phone entering a proven deal: a code set on it does not confirm it
        actor = on_this_phone(request, actor)
    # A retry of a stored deal is not one more deal: the service counts only a new one, once the
    # key's insert has told them apart. A deal drawn on the phone counts in the minute it was
    # drawn (throttling.hit_drawn: a returning outbox drains in one go), others when they come.
    if drawn_at is None:
        def count():
            throttling.hit(request, "round-create", str(table.pk))
    else:
        def count():
            throttling.hit_drawn(request, "round-create", str(table.pk), drawn_at=drawn_at,
                                 opened_at=table.session.created_at)
    return idempotency_services.round_record_idempotent(
        actor=actor, table=table, body=body, key=key, proof=proof, drawn_at=drawn_at, before_new=count)


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
                           action_url=reverse("scorer-round-correct", args=[token, rnd.pk]),
                           extra={"server_now": server_now_ms(), "scorer_app": True,
                                  "outbox": {"token": token}})


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
        if wants_json(request):   # a move sent from the phone's outbox
            return move_refused(e)
        failed = move_failure(rnd.pk, e, field=field, value=request.POST.get(field, "") if field else "")
        # the player picked to confirm stays picked beside the refusal
        failed["chosen"] = optional_number(request.POST.get("confirmed_by"), low=0)
        return scorer_page(request, table, token, failed=failed, status=status_of(e))
    if wants_json(request):
        return move_saved(rnd.number)
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


@never_cache
@require_http_methods(["GET", "HEAD"])
@limited_or_invalid
def ping(request, token: str):
    """204, nothing else: "is the server answering?", asked by the phone's outbox before it sends
    (heard, as every request of the link: ``table_or_none``)."""
    if table_or_none(request, token) is None:
        return invalid_link(request)
    return HttpResponse(status=204)


__all__ = ["table_page", "round_correct", "correction_page", "round_confirm", "round_dispute", "deal_post", "ping"]
