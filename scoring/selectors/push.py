"""Web Push's reads: whether notifications are on (the settings' VAPID keys), whose phones a
message goes to, the sessions whose clock calls for "5 minutes left", and the director's counts."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db.models import Sum

from scoring.domain.push import WARN_BEFORE, WARN_LATEST, warning_due
from scoring.models import PushNotice, PushSubscription, Seat, Session, Tournament


def push_enabled() -> bool:
    """Both VAPID keys are set: the pages offer notifications and the tasks send them."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def push_public_key() -> str:
    """The key a page subscribes with ("" when notifications are off)."""
    return settings.VAPID_PUBLIC_KEY if push_enabled() else ""


def seated_subscriptions(session: Session) -> list[tuple[PushSubscription, Seat]]:
    """Every phone of a player seated in ``session`` that allowed notifications, with the seat."""
    seats = {s.entry.player_id: s for s in Seat.objects.filter(table__session=session).select_related("table", "entry")}
    return [(sub, seats[sub.player_id]) for sub in PushSubscription.objects.filter(player_id__in=list(seats))]


def entered_subscriptions(tournament: Tournament) -> list[PushSubscription]:
    """Every phone of a player entered in ``tournament`` that allowed notifications."""
    return list(PushSubscription.objects.filter(player__entries__tournament=tournament).distinct())


def sessions_due_warning(now: datetime) -> list[Session]:
    """The open sessions of running tournaments whose clock has between 5 and 4 minutes left and
    that were not warned yet (``domain.push.warning_due``)."""
    found = (Session.objects.filter(status=Session.Status.OPEN, tournament__status=Tournament.Status.RUNNING,
                                    clock_ends_at__gt=now + WARN_LATEST, clock_ends_at__lte=now + WARN_BEFORE)
             .exclude(push_notices__kind=PushNotice.Kind.FIVE_MINUTES).select_related("tournament"))
    return [s for s in found if warning_due(started_at=s.clock_started_at, ends_at=s.clock_ends_at, now=now)]


def push_counts(tournament: Tournament) -> dict:
    """``{"notices", "sent", "delivered", "failed"}`` over the tournament's notices."""
    row = PushNotice.objects.filter(tournament=tournament).aggregate(
        sent=Sum("sent"), delivered=Sum("delivered"), failed=Sum("failed"))
    counts = {k: row[k] or 0 for k in ("sent", "delivered", "failed")}
    return counts
