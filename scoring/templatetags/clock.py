"""A session's clock on a page: ``{% session_clock session %}``.

The server says both the end (an absolute UTC time) and its own time now; static/js/clock.js
measures the phone's clock against the server's once the page is there and counts down from
that, so a phone whose clock is wrong, or that slept, shows the server's time left. Without
JavaScript the page shows the time left when it was made."""

from __future__ import annotations

from django import template
from django.utils import timezone

from scoring.domain.clock import WARN_SECONDS, clock_state
from scoring.web.presentation import clock_alert_words, clock_text, clock_time, clock_words

register = template.Library()


@register.inclusion_tag("scoring/_clock.html")
def session_clock(session, alerts=False, bare=False):
    """The clock of ``session`` (nothing without one). Inside a live part, a clock started or
    stopped comes in with the part, and clock.js measures the offset again.

    ``alerts``: it also says "5 minutes left" once ``WARN_SECONDS`` are left, and "Time is up",
    in a banner (``role="alert"``) — the scorer page and the room display. ``bare``: the time
    left is the figures alone ("4:59"), for the room display's big clock under its own label."""
    now = timezone.now()
    state = clock_state(session.clock_started_at, session.clock_ends_at, now) if session is not None else None
    if state is None:
        return {"clock": None}
    left, over = clock_words()
    if bare:
        left = "%(time)s"
    text = (over if state["ended"] else clock_time(state["seconds_left"])) if bare else clock_text(state["seconds_left"])
    warn = clock_alert_words()
    return {"clock": state, "text": text, "text_left": left, "text_over": over,
            "alerts": alerts, "bare": bare, "warn_at": WARN_SECONDS, "text_warn": warn,
            "alert": (over if state["ended"] else warn if state["warn"] else "") if alerts else "",
            "ends_at": state["ends_at"].isoformat(timespec="milliseconds"),
            "now": now.isoformat(timespec="milliseconds")}
