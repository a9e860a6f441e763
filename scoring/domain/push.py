"""Web Push, pure: what a subscription from a browser must look like, the messages' words and
payload, when a session's clock calls for "5 minutes left", and what a push service's answer
means. The sending is ``scoring.services.push``; the keys are the settings' (``VAPID_*``).
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.utils.translation import gettext

from scoring.domain.errors import ValidationFailed, problem

#: "5 minutes left" is sent while between 5 and 4 minutes are left (beat looks every 20 s): a
#: clock shorter than that, or a warning that came too late, sends nothing.
WARN_BEFORE = timedelta(minutes=5)
WARN_LATEST = timedelta(minutes=4)
#: How long a push service keeps a message for a phone that is off (seconds): a seating and a
#: clock's warning are worth little later; the standings for a day.
TTL = {"seated": 30 * 60, "five_minutes": 4 * 60, "standings": 24 * 3600}
#: The push service's answers that say the subscription is no more: it is deleted.
GONE = (404, 410)
MAX_ENDPOINT = 1000


def _b64url(value: Any, size: int) -> bool:
    if not isinstance(value, str) or not value or len(value) > 200:
        return False
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    return len(raw) == size


def subscription_checked(data: Any) -> dict:
    """``{"endpoint", "p256dh", "auth"}`` from a browser's ``PushSubscription.toJSON()``, checked:
    an https endpoint (http for a test's own push service on this computer), a P-256 public key
    (65 bytes) and a 16-byte auth secret, base64url."""
    if not isinstance(data, dict):
        raise ValidationFailed(gettext("Send the subscription as the browser gives it."), path="", code="bad_type")
    endpoint, keys = data.get("endpoint"), data.get("keys")
    keys = keys if isinstance(keys, dict) else {}
    errors = []
    parts = urlsplit(endpoint) if isinstance(endpoint, str) and len(endpoint) <= MAX_ENDPOINT else None
    if parts is None or not parts.hostname or not (
            parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost"))):
        errors.append(problem("endpoint", "bad_endpoint", gettext("The push service's address is not valid.")))
    if not _b64url(keys.get("p256dh"), 65):
        errors.append(problem("keys.p256dh", "bad_key", gettext("The subscription's key is not valid.")))
    if not _b64url(keys.get("auth"), 16):
        errors.append(problem("keys.auth", "bad_key", gettext("The subscription's key is not valid.")))
    if errors:
        raise ValidationFailed(errors=errors)
    return {"endpoint": endpoint, "p256dh": keys["p256dh"], "auth": keys["auth"]}


def seated_text(*, session: int, table: str, seat: int) -> str:
    """``seat``: the position at the table (0-based), said as the pages say it (1-based)."""
    return gettext("Session %(session)s: %(table)s, seat %(seat)s") % {
        "session": session, "table": table, "seat": seat + 1}


def five_minutes_text(*, session: int) -> str:
    return gettext("Session %(session)s: 5 minutes left") % {"session": session}


def standings_text(*, tournament: str) -> str:
    return gettext("%(tournament)s: standings released") % {"tournament": tournament}


def payload(*, kind: str, title: str, body: str, url: str) -> str:
    """What the service worker reads (templates/scorer/sw.js, "push"): JSON, encrypted on the way."""
    return json.dumps({"kind": kind, "title": title, "body": body, "url": url, "tag": kind}, ensure_ascii=False)


def warning_due(*, started_at: datetime | None, ends_at: datetime | None, now: datetime) -> bool:
    """Whether a session's clock calls for "5 minutes left" at ``now``: between 5 and 4 minutes
    left, of a clock that ran longer than 5 minutes."""
    if started_at is None or ends_at is None or ends_at - started_at <= WARN_BEFORE:
        return False
    return WARN_LATEST < ends_at - now <= WARN_BEFORE


def result_of(status: int | None) -> str:
    """``delivered`` (2xx: the push service took it), ``gone`` (404/410: delete the subscription)
    or ``failed`` (another answer, or none)."""
    if status is not None and 200 <= status < 300:
        return "delivered"
    if status in GONE:
        return "gone"
    return "failed"


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_key_pair() -> tuple[str, str]:
    """A new VAPID pair, base64url: the public key (the uncompressed P-256 point, as
    ``applicationServerKey`` takes it) and the private key (its raw 32 bytes)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return _b64(public), _b64(key.private_numbers().private_value.to_bytes(32, "big"))
