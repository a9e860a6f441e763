"""Limits on guessing and flooding, counted by django-ratelimit in the cache (Redis in
production), at the HTTP edge.

Only what a guesser does is counted, so that nobody is refused for someone else's failures (at a
venue every phone shares one public address):

- unknown scorer links and API tokens, per address: a token is looked up first, and a valid one
  always passes, even from an address over its allowance of unknown ones;
- failed logins, per (account, address) and per address; and per account from every address:
  past that allowance only the addresses that have failed for the account themselves are refused,
  so the right password from an address that has not been guessing gets in at once;
- wrong personal codes per player (the club's player, at whichever table or on his page): a code has 4 to 6 digits,
  so past the allowance that player's code is refused whatever it is (were the right one let
  through, the refusals would tell a guesser which code is right). Each typed code takes its
  place in the count before it is checked, atomically, and gives it back unless it was wrong:
  codes typed at once are never checked more often than the allowance, nor does a second
  table give a guesser a second allowance. Nobody else is touched: other players, the same
  address, and the player on a phone that remembers them (no code typed); the director can
  issue a new card;
- deals recorded per scorer link (generous: a table records a deal every minute or two); the
  callers leave out the replay of a deal already stored (its Idempotency-Key known), which gets
  the stored answer. A deal that says when the phone drew it (``drawn_at``: the scorer page's
  outbox sends deals typed while the network was gone) is counted by that time, not by when it
  arrives (``hit_drawn``): thirty deals queued over some minutes drain in one go, and still no
  more than the allowance is recorded for any one minute of the session's time.

When the cache is down the limits step aside (fail open): refusing every scorer because Redis
died would be worse than a few more guesses.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from typing import Any, Callable

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.utils import timezone
from django.utils.translation import ngettext_lazy
from django_ratelimit import core as ratelimit_core
from django_ratelimit.core import get_usage
from rest_framework import exceptions

from scoring.domain import outbox as outbox_rules
from scoring.domain.errors import PermissionDenied
from scoring.domain.inputs import MAX_USERNAME
from scoring.domain.proof import WRONG_CODE, PlayerProof
from scoring.selectors.players import seat_entry

logger = logging.getLogger("scoring")

#: group -> rate ("count/period", periods like "m", "15m", "h"); ``settings.RATE_LIMITS`` may
#: override any of them.
RATES = {
    "login-address": "30/15m",           # failed logins from one address, any accounts
    "login-account": "10/15m",           # failed logins for one account from one address
    "login-account-anywhere": "30/15m",  # failed logins for one account from every address
    "scorer-token": "30/m",              # unknown scorer links from one address
    "director-token": "30/m",            # unknown API tokens from one address
    "round-create": "30/m",              # deals recorded through one scorer link
    "player-code": "5/15m",              # wrong personal codes for one player
}

#: One sentence each, saying the wait once ("seconds" picks the plural form).
MESSAGES = {
    "login-address": ngettext_lazy(
        "Too many failed logins from this address: try again in %(seconds)d second.",
        "Too many failed logins from this address: try again in %(seconds)d seconds.", "seconds"),
    "login-account": ngettext_lazy(
        "Too many failed logins for this account from this address: try again in %(seconds)d second.",
        "Too many failed logins for this account from this address: try again in %(seconds)d seconds.", "seconds"),
    "login-account-anywhere": ngettext_lazy(
        "Too many failed logins for this account, some from this address: try again in %(seconds)d second.",
        "Too many failed logins for this account, some from this address: try again in %(seconds)d seconds.",
        "seconds"),
    "scorer-token": ngettext_lazy(
        "Too many unknown scorer links from this address: try again in %(seconds)d second.",
        "Too many unknown scorer links from this address: try again in %(seconds)d seconds.", "seconds"),
    "director-token": ngettext_lazy(
        "Too many unknown API tokens from this address: try again in %(seconds)d second.",
        "Too many unknown API tokens from this address: try again in %(seconds)d seconds.", "seconds"),
    "round-create": ngettext_lazy(
        "Too many deals sent through this scorer link: try again in %(seconds)d second.",
        "Too many deals sent through this scorer link: try again in %(seconds)d seconds.", "seconds"),
    "player-code": ngettext_lazy(
        "Too many wrong codes for this player: try again in %(seconds)d second.",
        "Too many wrong codes for this player: try again in %(seconds)d seconds.", "seconds"),
}


class Limited(Exception):
    """Too many; try again in ``retry_after`` seconds (``message`` says so, once)."""

    def __init__(self, group: str, retry_after: int):
        self.retry_after = max(1, int(retry_after))
        self.message = MESSAGES[group] % {"seconds": self.retry_after}
        super().__init__(self.message)

    def throttled(self) -> exceptions.Throttled:
        """The API's 429: DRF sends ``wait`` as Retry-After; given it as an argument, DRF would
        add a second sentence saying the wait again."""
        exc = exceptions.Throttled(detail=self.message)
        exc.wait = self.retry_after
        return exc


def rate(group: str) -> str:
    return getattr(settings, "RATE_LIMITS", {}).get(group, RATES[group])


def _usage(request, group: str, value: str, *, increment: bool, the_rate: Any = None) -> dict | None:
    try:
        return get_usage(request, group=group, key=lambda g, r: value, rate=the_rate or rate(group),
                         increment=increment)
    except Exception as exc:  # noqa: BLE001 - the cache is down: fail open
        logger.warning("Rate limit %s not checked (cache unavailable): %s", group, exc)
        return None


def _used_up(usage: dict | None) -> bool:
    """Whether the allowance is used up (checked before the next try, which is not counted)."""
    return usage is not None and usage["count"] >= usage["limit"]


def _counted_in_redis(request, group: str, value: str, the_rate: Any = None) -> dict | None:
    """``_usage(…, increment=True)`` in one round trip to Redis: django-ratelimit's ``add`` and
    Django's ``incr`` (which asks whether the key exists first) are three, on every deal. The
    same key, the same fixed window and the same answer; None when the cache is not Redis (the
    caller counts the usual way)."""
    cache = caches[getattr(settings, "RATELIMIT_USE_CACHE", "default")]
    if not isinstance(cache, RedisCache) or not getattr(settings, "RATELIMIT_ENABLE", True):
        return None
    the_rate = the_rate or rate(group)
    limit, period = ratelimit_core._split_rate(the_rate)
    window = ratelimit_core._get_window(value, period)
    key = cache.make_and_validate_key(ratelimit_core._make_cache_key(group, window, the_rate, value,
                                                                     ratelimit_core.ALL))
    pipe = cache._cache.get_client(key, write=True).pipeline(transaction=False)
    pipe.set(key, 0, nx=True, ex=period + ratelimit_core.EXPIRATION_FUDGE)
    pipe.incr(key)
    count = pipe.execute()[1]
    return {"count": count, "limit": limit, "should_limit": count > limit, "time_left": window - int(time.time())}


def _counted(request, group: str, value: str, the_rate: Any = None) -> dict | None:
    """Count one, atomically (Redis: SET NX + INCR; elsewhere the cache's add, then incr): the
    usage with this one counted; None when the cache is down (fail open). ``the_rate``: another
    than the group's (``hit_drawn``'s)."""
    try:
        usage = _counted_in_redis(request, group, value, the_rate)
    except Exception as exc:  # noqa: BLE001 - the cache is down: fail open
        logger.warning("Rate limit %s not checked (cache unavailable): %s", group, exc)
        return None
    return usage if usage is not None else _usage(request, group, value, increment=True, the_rate=the_rate)


def _give_back(group: str, value: str) -> None:
    """Uncount one counted by ``_counted`` (in the window now: at a window's turn there is nothing
    to give back)."""
    the_rate = rate(group)
    _limit, period = ratelimit_core._split_rate(the_rate)
    key = ratelimit_core._make_cache_key(group, ratelimit_core._get_window(value, period), the_rate, value,
                                         ratelimit_core.ALL)
    try:
        caches[getattr(settings, "RATELIMIT_USE_CACHE", "default")].decr(key)
    except Exception as exc:  # noqa: BLE001 - gone with its window, or the cache is down
        logger.info("Rate limit %s not given back: %s", group, exc)


def hit(request, group: str, value: str) -> None:
    """Count one and raise Limited if that went over the allowance."""
    usage = _counted(request, group, value)
    if usage is not None and usage["should_limit"]:
        raise Limited(group, usage["time_left"])


#: How long the count of one drawn window is kept (``hit_drawn``): a day, longer than any session
#: (a session's clock runs a day at most), so that deals drawn in one minute and sent hours apart
#: still share one count.
DRAWN_COUNT_KEPT = 24 * 60 * 60


def hit_drawn(request, group: str, value: str, *, drawn_at: datetime, opened_at: datetime) -> None:
    """``hit`` for a deal the phone drew at ``drawn_at`` (the server's time): counted in the
    window of the group's period it was drawn in (a minute for ``30/m``; the drawn time held
    between the session's opening ``opened_at`` and now: ``domain.outbox.drawn_window``), the
    allowance per drawn window, each window's count kept ``DRAWN_COUNT_KEPT``. So a phone whose
    outbox held 30 deals typed over some minutes sends them all at once, and it still records no
    more than the allowance for any one minute of the session's time. Over it: Limited, with the
    period as the wait (a flood; the drawn minute stays full)."""
    limit, period = ratelimit_core._split_rate(rate(group))
    window = outbox_rules.drawn_window(drawn_at, opened_at=opened_at, now=timezone.now(), period_seconds=period)
    usage = _counted(request, group, f"{value}@{window}", (limit, DRAWN_COUNT_KEPT))
    if usage is not None and usage["should_limit"]:
        raise Limited(group, period)


def _login_keys(username, address: str) -> tuple[str, str]:
    account = username.lower()[:MAX_USERNAME] if isinstance(username, str) else ""
    return account, f"{account}\n{address}"


def login_check(request, username, address: str) -> None:
    """Before a login is tried: Limited when this address, or this account from this address, has
    used up its failures; or when the account has failed too often from everywhere and this
    address is one of those that failed for it."""
    account, pair = _login_keys(username, address)
    usage = _usage(request, "login-address", address, increment=False)
    if _used_up(usage):
        raise Limited("login-address", usage["time_left"])
    usage = _usage(request, "login-account", pair, increment=False)
    if _used_up(usage):
        raise Limited("login-account", usage["time_left"])
    anywhere = _usage(request, "login-account-anywhere", account, increment=False)
    if usage is not None and usage["count"] > 0 and _used_up(anywhere):
        # Refused until either count starts over.
        raise Limited("login-account-anywhere", min(usage["time_left"], anywhere["time_left"]))


def login_failed(request, username, address: str) -> None:
    """Count a failed login against the address, the account from it, and the account."""
    account, pair = _login_keys(username, address)
    _usage(request, "login-address", address, increment=True)
    _usage(request, "login-account", pair, increment=True)
    _usage(request, "login-account-anywhere", account, increment=True)


def player_code_guarded(request, table: Any, seat: Any, proof: PlayerProof | None, call: Callable[[], Any]) -> Any:
    """``call()`` (a service checking ``proof`` for the player at ``seat`` of ``table``), a typed
    code counted against that player (the club's player, not the table's seat) before it is checked:
    Limited, with nothing checked, once their allowance is taken. The count is kept only for a
    wrong code; a right one, or a refusal for another reason, gives its place back. A phone
    remembering the player (no code typed) is not counted and never limited: it guesses nothing."""
    if proof is None or not proof.typed:
        return call()
    entry = seat_entry(table, seat)
    if entry is None:  # no such seat: no code to guess (the service says so)
        return call()
    return player_code_counted(request, entry.player_id, call)


def player_code_counted(request, player_id: int, call: Callable[[], Any]) -> Any:
    """``call()`` (a check of a typed code of player ``player_id``: at a table, or on his page),
    the code counted against him before it is checked, as ``player_code_guarded`` says: one
    allowance for the player wherever his code is typed."""
    key = f"player:{player_id}"
    usage = _counted(request, "player-code", key)
    if usage is None:
        return call()
    if usage["should_limit"]:
        _give_back("player-code", key)   # refused unchecked: only checked codes hold a place
        raise Limited("player-code", usage["time_left"])
    wrong = False
    try:
        return call()
    except PermissionDenied as e:
        wrong = any(x.get("code") == WRONG_CODE for x in e.errors)
        raise
    finally:
        if not wrong:
            _give_back("player-code", key)
