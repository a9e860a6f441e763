"""A session's clock, read at a given moment: how long is left, whether it has run out. Pure:
the times come in (the server's clock, always), nothing is read here."""

from __future__ import annotations

import math
from datetime import datetime

#: From this many seconds left a clock that warns (the scorer page, the room display) says
#: "5 minutes left".
WARN_SECONDS = 5 * 60


def seconds_left(ends_at: datetime | None, now: datetime) -> int | None:
    """Whole seconds until ``ends_at`` (rounded up, so "0" means the time is up), never below 0;
    None without a clock."""
    if ends_at is None:
        return None
    return max(0, math.ceil((ends_at - now).total_seconds()))


def clock_state(started_at: datetime | None, ends_at: datetime | None, now: datetime) -> dict | None:
    """``{"started_at", "ends_at", "seconds_left", "ended", "warn"}`` of a clock at ``now``
    (``warn``: ``WARN_SECONDS`` or less left, not yet up); None without one."""
    if ends_at is None:
        return None
    left = seconds_left(ends_at, now)
    ended = now >= ends_at
    return {"started_at": started_at, "ends_at": ends_at, "seconds_left": left, "ended": ended,
            "warn": not ended and left <= WARN_SECONDS}


def still_playing(ends_at: datetime | None, last_deal_at: datetime | None, now: datetime) -> bool:
    """Whether a table is still playing once its session's time is up: the clock has run out
    and the table has recorded no deal since it did (its latest deal is older, or it has none)."""
    if ends_at is None or now < ends_at:
        return False
    return last_deal_at is None or last_deal_at < ends_at
