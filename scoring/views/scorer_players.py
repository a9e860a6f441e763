"""The scorer page's "Who are you?": a player proves who they are on this phone (their code, or a
new code typed twice the first time), and the phone remembers them (``web.player_proof``) until
"not you?" or a reset. Only where the tournament requires proof; elsewhere nothing changes."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from scoring.domain.errors import DomainError, ValidationFailed
from scoring.domain.inputs import MAX_INT32
from scoring.domain.proof import PlayerProof
from scoring.selectors.players import has_code, proven_entry, seat_entry
from scoring.services.players import entry_code_rehash, entry_code_set
from scoring.views.scorer import invalid_link, limited_or_invalid, optional_number, scorer_page, table_or_none
from scoring.web import throttling
from scoring.web.auth import actor_from_request
from scoring.web.http import status_of
from scoring.web.player_proof import forget, on_this_phone, proven_here, remember
from scoring.web.rule_messages import error_message


def _check(request, table, seat, code: str, again: str):
    """The entry at ``seat`` once proven: a new code set (none yet: typed twice; only by a phone
    that speaks for nobody else), or its code."""
    entry = seat_entry(table, seat)
    if entry is not None and not has_code(entry):
        actor = on_this_phone(request, actor_from_request(request, table=table))
        return entry_code_set(actor=actor, entry=entry, code=code, code_again=again,
                              proven_here=proven_here(request, table.session.tournament.club_id))
    proof = PlayerProof(code=code)
    entry = throttling.player_code_guarded(request, table, seat, proof, lambda: proven_entry(
        table=table, seat=seat, proof=proof, path="code", seat_path="seat"))
    entry_code_rehash(actor=actor_from_request(request, table=table), entry=entry, code=code)
    return entry


@never_cache
@require_POST
@limited_or_invalid
def who(request, token: str):
    table = table_or_none(request, token)
    if table is None:
        return invalid_link(request)
    if not table.session.tournament.require_proof:
        return redirect("scorer-table", token)
    seat = optional_number(request.POST.get("seat"), low=0)
    code = (request.POST.get("code") or "").strip()
    again = (request.POST.get("code_again") or "").strip()
    try:
        if not isinstance(seat, int) or seat > MAX_INT32:
            raise ValidationFailed(gettext("Pick your name."), path="seat", code="required")
        entry = _check(request, table, seat, code, again)
    except DomainError as e:
        errors = [error_message(e)]
        return scorer_page(request, table, token, who={"seat": seat, "errors": errors}, status=status_of(e))
    response = redirect(reverse("scorer-table", args=[token]) + "#new-deal")
    remember(request, response, entry.player)
    messages.success(request, gettext("Hello %(name)s: this phone enters and confirms deals as you.")
                     % {"name": entry.player.name})
    return response


@never_cache
@require_POST
@limited_or_invalid
def forget_me(request, token: str):
    """"Not you?": this phone forgets the player; the page asks again."""
    table = table_or_none(request, token)
    if table is None:
        return invalid_link(request)
    response = redirect(reverse("scorer-table", args=[token]) + "#who")
    forget(response, table.session.tournament.club_id)
    return response
