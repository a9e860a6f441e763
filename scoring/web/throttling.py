"""Limits on guessing and flooding, counted in the cache (Redis in production), at the HTTP edge.

Failed logins count per account and per address; unknown scorer links and unknown API tokens per
address; deals recorded per scorer link (generous: a table records a deal every minute or two,
and a phone's burst of retries must still pass). When the cache is down the limits step aside
(fail open): refusing every scorer because Redis died would be worse than a few more guesses.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils.translation import gettext_lazy, ngettext
from django_ratelimit.core import _split_rate, get_usage

logger = logging.getLogger("scoring")

#: group -> rate ("count/period", periods like "m", "15m", "h"); ``settings.RATE_LIMITS`` may
#: override any of them.
RATES = {
    "login-address": "30/15m",    # failed logins from one address
    "login-account": "10/15m",    # failed logins for one account
    "scorer-token": "30/m",       # unknown scorer links from one address
    "director-token": "30/m",     # unknown API tokens from one address
    "round-create": "30/m",       # deals recorded through one scorer link
}


class Limited(Exception):
    """Too many; try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int, message: str):
        super().__init__(message)
        self.retry_after = max(1, int(retry_after))
        self.message = message


MESSAGES = {
    "login-address": gettext_lazy("Too many failed logins from this address."),
    "login-account": gettext_lazy("Too many failed logins for this account."),
    "scorer-token": gettext_lazy("Too many unknown scorer links from this address."),
    "director-token": gettext_lazy("Too many unknown API tokens from this address."),
    "round-create": gettext_lazy("Too many deals sent through this scorer link."),
}


def rate(group: str) -> str:
    return getattr(settings, "RATE_LIMITS", {}).get(group, RATES[group])


def _usage(request, group: str, value: str, *, increment: bool) -> dict | None:
    try:
        return get_usage(request, group=group, key=lambda g, r: value, rate=rate(group), increment=increment)
    except Exception as exc:  # noqa: BLE001 - the cache is down: fail open
        logger.warning("Rate limit %s not checked (cache unavailable): %s", group, exc)
        return None


def _refuse(group: str, usage: dict) -> None:
    seconds = max(1, usage["time_left"])
    again = ngettext("Try again in %(seconds)d second.", "Try again in %(seconds)d seconds.", seconds)
    raise Limited(usage["time_left"], f"{MESSAGES[group]} {again % {'seconds': seconds}}")


def check(request, group: str, value: str) -> None:
    """Raise Limited if ``value`` has used up its allowance in ``group`` (counts nothing)."""
    usage = _usage(request, group, value, increment=False)
    if usage is not None and usage["count"] >= _split_rate(rate(group))[0]:
        _refuse(group, usage)


def count(request, group: str, value: str) -> None:
    """Count one (a failure, say) against ``value`` in ``group``."""
    _usage(request, group, value, increment=True)


def hit(request, group: str, value: str) -> None:
    """Count one and raise Limited if that went over the allowance."""
    usage = _usage(request, group, value, increment=True)
    if usage is not None and usage["should_limit"]:
        _refuse(group, usage)
