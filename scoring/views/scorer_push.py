"""A proven player's phone allows notifications on the scorer page, or stops them (Web Push).

``POST /s/<token>/notifications/``: the body is the browser's ``PushSubscription.toJSON()``
(``{"endpoint", "keys": {"p256dh", "auth"}}``), kept for the player this phone remembers at this
table (``web.player_proof``), 201. ``POST /s/<token>/notifications/stop/``: ``{"endpoint"}``,
deleted, 200. Answers are JSON, errors ``{"errors": [{"path", "code", "message"}]}``: 403
``player_proof_required`` when the phone proves nobody here, 409 ``notifications_off`` without
the site's VAPID keys. The page's script is static/js/push.js."""

from __future__ import annotations

import json

from django.http import JsonResponse
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from scoring.domain.errors import DomainError, ValidationFailed
from scoring.services import push as push_services
from scoring.views.scorer import invalid_link, limited_or_invalid, table_or_none
from scoring.web.auth import actor_from_request
from scoring.web.http import status_of
from scoring.web.player_proof import remembered_player
from scoring.web.rule_messages import translate_problems
from scoring.web.scorer_proof import not_proven


def _refused(error: DomainError) -> JsonResponse:
    return JsonResponse({"errors": translate_problems(error.errors)}, status=status_of(error))


def _body(request) -> dict:
    try:
        body = json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError):
        raise ValidationFailed(gettext("The body is not JSON."), path="", code="bad_json") from None
    if not isinstance(body, dict):
        raise ValidationFailed(gettext("The body must be a JSON object."), path="", code="bad_type")
    return body


def _handle(request, token: str, act):
    table = table_or_none(request, token)
    if table is None:
        return invalid_link(request)
    try:
        me = remembered_player(request, table)
        if me is None:
            raise not_proven()
        return act(actor_from_request(request, table=table), me.entry, _body(request))
    except DomainError as e:
        return _refused(e)


@never_cache
@require_POST
@limited_or_invalid
def push_subscribe(request, token: str):
    def act(actor, entry, body):
        push_services.push_subscribe(actor=actor, entry=entry, subscription=body, language=get_language() or "")
        return JsonResponse({"status": "subscribed"}, status=201)
    return _handle(request, token, act)


@never_cache
@require_POST
@limited_or_invalid
def push_unsubscribe(request, token: str):
    def act(actor, entry, body):
        deleted = push_services.push_unsubscribe(actor=actor, entry=entry, endpoint=body.get("endpoint"))
        return JsonResponse({"status": "unsubscribed", "deleted": deleted})
    return _handle(request, token, act)
