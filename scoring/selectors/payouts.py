"""Payouts: the settle-up list of a tournament, or of one session (a club often settles each
night) — who pays whom, in chips and in money.

Anyone may ask for a public tournament's payouts, as often as they like, and at 10,000 players
the answer is some 10,000 rows read and settled: so it is kept in the cache (Redis with
``REDIS_URL``, else the process's memory) under its version — ``payouts_version``, one query
whose answer changes whenever anything the payouts show may have changed — and made again only
when that changes. A cache that fails is no cache: the answer is made every time.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, OuterRef, Subquery
from django.utils.translation import gettext

from games.settle import minor_unit_decimals, payouts_of
from scoring.domain.errors import NotFound
from scoring.models import Entry, Round, Seat, Session, Standing, Tournament
from scoring.selectors.standings import session_figures

logger = logging.getLogger("scoring")


#: How long a cached answer may wait unread (its version, not this, keeps it right).
CACHE_SECONDS = 24 * 3600


def _names_key(club_id: int) -> str:
    return f"{getattr(settings, 'PAYOUTS_CACHE_PREFIX', '')}payouts-names:{club_id}"


def payouts_names_changed(club_id: int) -> None:
    """A player of the club was renamed: every cached answer of its tournaments names them
    (``services.clubs.player_rename`` calls this once the rename commits)."""
    try:
        cache.set(_names_key(club_id), uuid.uuid4().hex, None)
    except Exception as exc:  # noqa: BLE001 - no cache: nothing cached to forget either
        logger.warning("Could not mark the club's names changed in the cache: %s", exc)


def payouts_version(tournament: Tournament) -> str:
    """What the payouts are made of, fingerprinted in one query: the deals (how many, the
    latest change: every deal write saves its round), the sessions (their latest change), the
    entries and the seats (how many), the kept standings (their latest change: every delta and
    repair stamps its rows), with the tournament's own chip value, currency, status and
    counting rule. Names are the club's cache stamp (``payouts_names_changed``)."""
    rounds = Round.objects.filter(table__session__tournament=OuterRef("pk")).order_by().values(
        "table__session__tournament")
    sessions = Session.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    entries = Entry.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    seats = Seat.objects.filter(table__session__tournament=OuterRef("pk")).order_by().values(
        "table__session__tournament")
    standings = Standing.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    row = (Tournament.objects.filter(pk=tournament.pk).annotate(
        deals=Subquery(rounds.annotate(c=Count("id")).values("c")),
        deals_at=Subquery(rounds.annotate(m=Max("updated_at")).values("m")),
        sessions_at=Subquery(sessions.annotate(m=Max("changed_at")).values("m")),
        n_entries=Subquery(entries.annotate(c=Count("id")).values("c")),
        n_seats=Subquery(seats.annotate(c=Count("id")).values("c")),
        standings_at=Subquery(standings.annotate(m=Max("updated_at")).values("m")),
    ).values_list("deals", "deals_at", "sessions_at", "n_entries", "n_seats", "standings_at", "chip_value", "currency",
                  "status", "require_confirmation").first())
    raw = "|".join(v.isoformat() if hasattr(v, "isoformat") else str(v) for v in row or ())
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def payouts_for(tournament: Tournament, *, session: int | None = None) -> dict:
    """``payouts_made`` from the cache while its version holds (see the module): one query and
    one cache read when it does."""
    return payouts_cached(tournament, session=session, kind="data",
                          make=lambda: payouts_made(tournament, session=session))


def payouts_cached(tournament: Tournament, *, session: int | None, kind: str, make: Callable[[], Any]) -> Any:
    """What ``make`` makes of the payouts (``kind`` names it: the API keeps its serialized
    answer, which costs as much again to make as the payouts at 10,000 players), from the cache
    while the payouts' version holds."""
    prefix = getattr(settings, "PAYOUTS_CACHE_PREFIX", "")
    version = payouts_version(tournament)
    try:
        names = cache.get(_names_key(tournament.club_id)) or "0"
        key = f"{prefix}payouts:{kind}:{tournament.pk}:{session or 0}:{version}:{names}"
        found = cache.get(key)
    except Exception as exc:  # noqa: BLE001 - the cache is down: make the answer, as without one
        logger.warning("Payouts cache unavailable: %s", exc)
        return make()
    if found is not None:
        return found
    out = make()
    try:
        cache.set(key, out, CACHE_SECONDS)
    except Exception as exc:  # noqa: BLE001
        logger.warning("Payouts cache unavailable: %s", exc)
    return out


def payouts_made(tournament: Tournament, *, session: int | None = None) -> dict:
    """``chip_value, currency, session`` (None: the whole tournament), ``players`` (``entry,
    player, name, net, money``, best net first), ``house`` (``net, money``; only when something
    went to the house), ``transfers`` (``from_entry, from_name, to_entry, to_name,
    chips, amount``; a null entry is the house) and ``rounding``.

    Transfers: at most one fewer than the parties with a balance (``money.settle_up``), and
    they sum exactly to the nets. Money: each transfer's chips × chip value, rounded to the
    currency's minor unit (half to even); a player's money is what his transfers come to, so
    the money sums to zero. ``rounding``: ``decimals`` (the minor unit), ``remainder`` (what
    the rounded transfers move less (+) or more (−) than the exact amounts, in all) and
    ``players`` (everyone whose money differs from net × chip value: ``entry, name, exact,
    money``) — nothing is dropped unseen.

    The whole tournament reads the kept standings; a session (``session``: its number;
    NotFound when there is none) recomputes its counted deals."""
    # Plain values, no model objects: at 10,000 players, making them was most of the cost.
    if session is None:
        rows = [(e, p, name, total or 0) for e, p, name, total in Entry.objects.filter(tournament=tournament)
                .values_list("pk", "player_id", "player__name", "standing__total")]
    else:
        if not Session.objects.filter(tournament=tournament, number=session).exists():
            raise NotFound(gettext("No such session."))
        figures = session_figures(tournament, session)
        rows = [(e, p, name, figures[e].net) for e, p, name in Entry.objects.filter(pk__in=list(figures))
                .values_list("pk", "player_id", "player__name")]
    rows.sort(key=lambda r: (-r[3], r[2], r[0]))
    settled = payouts_of([(e, name, net) for e, _, name, net in rows], tournament.chip_value,
                         minor_unit_decimals(tournament.currency))
    names, balances, transfers, money = settled["names"], settled["balances"], settled["transfers"], settled["money"]
    house = settled["house"]
    players = [{"entry": e, "player": p, "name": name, "net": net, "money": money.by_party[e]}
               for e, p, name, net in rows]
    out = {
        "chip_value": tournament.chip_value,
        "currency": tournament.currency,
        "session": session,
        "players": players,
        "transfers": [{"from_entry": payer, "from_name": names[payer], "to_entry": payee, "to_name": names[payee],
                       "chips": chips, "amount": amount}
                      for (payer, payee, chips), amount in zip(transfers, money.amounts)],
        "rounding": {
            "decimals": money.decimals,
            "remainder": money.remainder,
            "players": [{"entry": k, "name": names[k], "exact": money.exact[k], "money": money.by_party[k]}
                        for k, _ in balances if money.exact[k] != money.by_party[k]],
        },
    }
    if house:
        out["house"] = {"net": house, "money": money.by_party[None]}
    return out
