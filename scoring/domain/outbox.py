"""A phone's outbox, as the server counts it: deals typed while the network was gone reach the
server later, each with ``drawn_at``, the moment it was put in the outbox (or submitted) on the
phone, in the server's time (the page gives the phone the server's clock: ``data-server-now``).

- A deal drawn while its session was open and arriving after the session closed is recorded late
  (``drawn_while_open``), as a director's late deal is, instead of refused: a session is not
  closed under a phone's feet. Only deals: a correction, confirmation or dispute arriving late is
  refused as before.
- The link's allowance of deals is counted by the window (a minute for ``30/m``) each deal was
  drawn in (``drawn_window``), not by when it arrives: thirty deals queued over some minutes
  drain in one go, and no more than the allowance is ever recorded for one minute of the
  session's time.
- Each request of a scorer page says how many items its outbox holds (``X-Gupai-Outbox``); the
  table notes when its phone was last heard and that number, at most once every
  ``HEARD_EVERY`` unless the number changed (``heard_is_news``).

Pure: times in, answers out.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

#: A deal drawn up to this long after its session closed still counts as drawn while open: the
#: phone's clock offset is measured over a network and is off by a little.
LATE_GRACE = timedelta(seconds=5)
#: How often at most a table notes that its phone was heard (the outbox's size changing aside).
HEARD_EVERY = timedelta(seconds=10)
#: The largest outbox size a phone may report (more is no outbox but a fault: ignored).
MAX_OUTBOX = 10_000
#: The latest ``drawn_at`` that is a time at all, in ms since the epoch (the last ms of 9999).
MAX_DRAWN_MS = 253_402_300_799_999
#: A table is "silent" on the director's console when its phone has not been heard for longer
#: than this during an open session.
SILENT_AFTER = timedelta(minutes=5)


def drawn_time(ms: int) -> datetime:
    """``drawn_at`` (whole ms since the epoch, 0..``MAX_DRAWN_MS``) as an aware UTC time."""
    return datetime(1970, 1, 1, tzinfo=dt_timezone.utc) + timedelta(milliseconds=ms)


def as_ms(moment: datetime) -> int:
    """An aware time as whole ms since the epoch (what ``data-server-now`` carries)."""
    return (moment - datetime(1970, 1, 1, tzinfo=dt_timezone.utc)) // timedelta(milliseconds=1)


def drawn_while_open(drawn_at: datetime, *, opened_at: datetime, closed_at: datetime | None) -> bool:
    """Whether a deal drawn at ``drawn_at`` was drawn while its session was open: from the
    session's start to its close (``LATE_GRACE`` after it). A session not closed: any time since
    it opened. (A session closed, reopened and closed again counts as open from its start to its
    last close.)"""
    if drawn_at < opened_at:
        return False
    return closed_at is None or drawn_at <= closed_at + LATE_GRACE


def drawn_window(drawn_at: datetime, *, opened_at: datetime, now: datetime, period_seconds: int) -> int:
    """The window of ``period_seconds`` (a minute for an allowance per minute) that a deal drawn at
    ``drawn_at`` counts in: the drawn time held within [``opened_at``, ``now``] (a phone cannot
    count a deal before its session began nor in a minute still to come), as whole periods since
    the epoch."""
    clamped = min(max(drawn_at, opened_at), max(now, opened_at))
    return as_ms(clamped) // (1000 * max(1, period_seconds))


def heard_is_news(*, heard_at: datetime | None, outbox_was: int, outbox: int | None, now: datetime) -> bool:
    """Whether a request from a table's phone is worth writing down: never heard, last heard
    ``HEARD_EVERY`` ago or more, or its outbox size changed (``outbox`` None: not said)."""
    if outbox is not None and outbox != outbox_was:
        return True
    return heard_at is None or now - heard_at >= HEARD_EVERY


def is_silent(heard_at: datetime | None, *, now: datetime) -> bool:
    """Whether a table's phone has been silent longer than ``SILENT_AFTER`` (never heard: not
    silent, nothing was expected of it yet)."""
    return heard_at is not None and now - heard_at > SILENT_AFTER
