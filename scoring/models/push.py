"""Web Push: a player's phones that allowed notifications, and what was sent to them.

``PushSubscription``: one phone's (browser's) subscription, as ``pushManager.subscribe`` gave it:
the push service's endpoint (unique: a phone that proves another player moves it to them) and
its keys; tied to the club's Player, so it holds across the club's tournaments. ``PushNotice``:
one message sent to the players of a tournament (a session seated, its clock at 5 minutes, the
standings released), with how many phones it was sent to, how many the push service took
(``delivered``) and how many it refused or did not answer (``failed``). A session's
"5 minutes left" is sent once (a constraint), whatever the clock does afterwards.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from scoring.models.clubs import Player
from scoring.models.tournaments import Session, Tournament

#: An endpoint's longest length kept (push services' URLs run to about 500 characters).
MAX_ENDPOINT = 1000


class PushSubscription(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.CharField(max_length=MAX_ENDPOINT, unique=True)
    #: The browser's keys (base64url): its public ECDH key and its auth secret.
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    #: The language of the page it was allowed on: the messages are written in it.
    language = models.CharField(max_length=10, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    #: The push service's last answer ("201", "410", "unreachable"…) and when; "" before any.
    last_result = models.CharField(max_length=40, blank=True, default="")
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.player}: {self.endpoint[:40]}"


class PushNotice(models.Model):
    class Kind(models.TextChoices):
        SEATED = "seated"
        FIVE_MINUTES = "five_minutes"
        STANDINGS = "standings"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="push_notices")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, null=True, blank=True, related_name="push_notices")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Phones it was sent to; of them, taken by their push service (2xx) and refused or unanswered.
    sent = models.PositiveIntegerField(default=0)
    delivered = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "kind"], condition=Q(session__isnull=False),
                                    name="push_notice_once_per_session"),
            models.UniqueConstraint(fields=["tournament", "kind"], condition=Q(session__isnull=True),
                                    name="push_notice_once_per_tournament"),
            models.CheckConstraint(condition=Q(kind__in=["seated", "five_minutes", "standings"]),
                                   name="push_notice_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.kind}"
