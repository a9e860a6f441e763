"""Web Push's writes: a proven player's phone allows notifications (or stops them), and the three
messages, sent by Celery tasks (``scoring.tasks``), never on a request's path: a session seated
(each seated player's table and seat), its clock at 5 minutes from the end (once per session),
the standings released (the tournament finished).

A message is a ``PushNotice`` row, made first in its own transaction with its ActionLog row (its
constraints make a second one for the same session or tournament impossible: sent once), then
encrypted and POSTed to each phone's push service (pywebpush, VAPID-signed) outside any
transaction, then its counts written: sent, delivered (the push service answered 2xx), failed.
A push service's 404 or 410 means the subscription is gone: it is deleted. Each message is
written in the language of the page the player allowed notifications on.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from scoring.domain import push as rules
from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict
from scoring.models import ActionLog, Entry, PushNotice, PushSubscription, Session, Tournament
from scoring.selectors.push import entered_subscriptions, push_enabled, seated_subscriptions, sessions_due_warning
from scoring.services.common import action_log

logger = logging.getLogger("scoring")

#: Seconds a push service has to answer one message.
SEND_TIMEOUT = 10


def push_subscribe(*, actor: Actor, entry: Entry, subscription: Any, language: str = "") -> PushSubscription:
    """The phone's subscription (``PushSubscription.toJSON()``) for ``entry``'s player, who proved
    themselves on it (the caller's check). A known endpoint is moved to this player, its keys
    renewed. Refused (409 ``notifications_off``) when the site has no VAPID keys."""
    if not push_enabled():
        raise Conflict(gettext("Notifications are off on this site."), code="notifications_off")
    data = rules.subscription_checked(subscription)
    with transaction.atomic():
        sub = PushSubscription.objects.select_for_update().filter(endpoint=data["endpoint"]).first()
        if sub is None:
            try:
                with transaction.atomic():
                    sub = PushSubscription.objects.create(player_id=entry.player_id, language=language[:10], **data)
            except IntegrityError:   # another club's player holds it (not in this scope): refused
                raise Conflict(gettext("This phone's notifications belong to another club's player."),
                               code="subscription_taken") from None
        else:
            sub.player_id, sub.p256dh, sub.auth, sub.language = entry.player_id, data["p256dh"], data["auth"], language[:10]
            sub.save(update_fields=["player", "p256dh", "auth", "language"])
        action_log(actor, ActionLog.Action.PUSH_SUBSCRIBE, sub, tournament=entry.tournament,
                   data={"player": entry.player_id, "entry": entry.pk})
    return sub


def push_unsubscribe(*, actor: Actor, entry: Entry, endpoint: Any) -> int:
    """Stop the notifications of this phone (``endpoint``) for ``entry``'s player. How many were
    deleted (0: none was kept; nothing changes)."""
    if not isinstance(endpoint, str) or not endpoint:
        return 0
    with transaction.atomic():
        deleted, _ = PushSubscription.objects.filter(player_id=entry.player_id, endpoint=endpoint).delete()
        if deleted:
            action_log(actor, ActionLog.Action.PUSH_UNSUBSCRIBE, entry.player, tournament=entry.tournament,
                       data={"entry": entry.pk})
    return deleted


def _notice(tournament: Tournament, kind: str, session: Session | None) -> PushNotice | None:
    """The notice made, logged; None when it was made before (sent once)."""
    try:
        with transaction.atomic():
            notice = PushNotice.objects.create(tournament=tournament, session=session, kind=kind)
            action_log(Actor.system(), ActionLog.Action.PUSH_NOTICE_SEND, notice, tournament=tournament,
                       data={"kind": kind, "session": session.number if session else None})
    except IntegrityError:
        return None
    return notice


def _send_one(sub: PushSubscription, data: str, ttl: int) -> str:
    """POST one encrypted message to the phone's push service: ``delivered``, ``gone`` or ``failed``
    (``domain.push.result_of``); the subscription's last result kept, or it deleted when gone."""
    from pywebpush import WebPushException, webpush
    from requests import RequestException

    try:
        answer = webpush({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}, data=data,
                         vapid_private_key=settings.VAPID_PRIVATE_KEY, vapid_claims={"sub": settings.VAPID_SUBJECT},
                         ttl=ttl, timeout=SEND_TIMEOUT)
        status, label = answer.status_code, str(answer.status_code)
    except WebPushException as e:
        status = e.response.status_code if e.response is not None else None
        label = str(status) if status is not None else "refused"
    except (RequestException, ValueError, TypeError) as e:
        logger.warning("Web Push to %s… failed: %s", sub.endpoint[:40], e)
        status, label = None, "unreachable"
    result = rules.result_of(status)
    if result == "gone":
        PushSubscription.objects.filter(pk=sub.pk).delete()
    else:
        PushSubscription.objects.filter(pk=sub.pk).update(last_result=label[:40], last_sent_at=timezone.now())
    return result


def _deliver(notice: PushNotice, messages: list[tuple[PushSubscription, str]]) -> PushNotice:
    """Send each ``(subscription, payload)``, then count them on the notice."""
    results = [_send_one(sub, data, rules.TTL[notice.kind]) for sub, data in messages]
    delivered = results.count("delivered")
    PushNotice.objects.filter(pk=notice.pk).update(sent=F("sent") + len(results), delivered=F("delivered") + delivered,
                                                   failed=F("failed") + len(results) - delivered)
    notice.refresh_from_db()
    return notice


def _in(language: str):
    return translation.override(language or settings.LANGUAGE_CODE)


def _home() -> str:
    return reverse("scorer-home")


def push_session_seated(*, session: Session) -> PushNotice | None:
    """"Session N: Table T, seat S" to each seated player's phones (once per session)."""
    if not push_enabled():
        return None
    tournament = session.tournament
    notice = _notice(tournament, PushNotice.Kind.SEATED, session)
    if notice is None:
        return None
    public = tournament.publicly_visible
    messages = []
    for sub, seat in seated_subscriptions(session):
        with _in(sub.language):
            body = rules.seated_text(session=session.number, table=seat.table.name, seat=seat.position)
            url = reverse("public-table", args=[tournament.slug, seat.table_id]) if public else _home()
            messages.append((sub, rules.payload(kind=notice.kind, title=tournament.name, body=body, url=url)))
    return _deliver(notice, messages)


def push_clock_warnings(*, now=None) -> int:
    """"Session N: 5 minutes left" to the seated players of every session whose clock calls for
    it (``selectors.push.sessions_due_warning``), once per session. How many sessions."""
    if not push_enabled():
        return 0
    count = 0
    for session in sessions_due_warning(now or timezone.now()):
        notice = _notice(session.tournament, PushNotice.Kind.FIVE_MINUTES, session)
        if notice is None:
            continue
        messages = []
        for sub, _seat in seated_subscriptions(session):
            with _in(sub.language):
                messages.append((sub, rules.payload(kind=notice.kind, title=session.tournament.name,
                                                    body=rules.five_minutes_text(session=session.number),
                                                    url=_home())))
        _deliver(notice, messages)
        count += 1
    return count


def push_standings_released(*, tournament: Tournament) -> PushNotice | None:
    """"<tournament>: standings released" to every entered player's phones, once the tournament
    finished (once per tournament)."""
    if not push_enabled() or not tournament.is_finished:
        return None
    notice = _notice(tournament, PushNotice.Kind.STANDINGS, None)
    if notice is None:
        return None
    url = reverse("public-tournament", args=[tournament.slug]) if tournament.publicly_visible else _home()
    messages = []
    for sub in entered_subscriptions(tournament):
        with _in(sub.language):
            messages.append((sub, rules.payload(kind=notice.kind, title=tournament.name,
                                                body=rules.standings_text(tournament=tournament.name), url=url)))
    return _deliver(notice, messages)
