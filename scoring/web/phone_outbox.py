"""What a scorer page's phone says of its outbox (``scoring.domain.outbox``): how many items it
holds (the ``X-Gupai-Outbox`` header of every request its scripts make), when a deal was drawn
(the form's ``drawn_at``, ms since the epoch in the server's time), and the server's clock that
the page hands the phone to draw by (``data-server-now`` on its ``<html>``)."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain import outbox as outbox_rules
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import parse_whole_number

#: The header each request of a scorer page's scripts carries: how many items its outbox holds.
OUTBOX_HEADER = "X-Gupai-Outbox"


def outbox_said(request) -> int | None:
    """The outbox's size the request reports, or None: no header, or no whole number from 0 to
    ``MAX_OUTBOX`` (ignored, not refused: it is bookkeeping, never a reason to lose a deal)."""
    return parse_whole_number(request.headers.get(OUTBOX_HEADER), low=0, high=outbox_rules.MAX_OUTBOX)


def drawn_at_posted(data) -> datetime | None:
    """The form's ``drawn_at`` as a time; None when not sent (a page without its scripts). Sent
    and no time (not whole ms from 0): 400 at ``drawn_at``, nothing recorded."""
    raw = data.get("drawn_at")
    if raw is None or raw == "":
        return None
    ms = parse_whole_number(raw, low=0, high=outbox_rules.MAX_DRAWN_MS)
    if ms is None:
        raise ValidationFailed(gettext("drawn_at is when the deal was drawn on the phone, in whole milliseconds "
                                       "since 1970."), path="drawn_at", code="bad_drawn_at")
    return outbox_rules.drawn_time(ms)


def server_now_ms() -> int:
    """The server's clock now, in ms since the epoch (``data-server-now``)."""
    return outbox_rules.as_ms(timezone.now())
