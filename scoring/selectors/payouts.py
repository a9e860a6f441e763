"""Payouts: the settle-up list of a tournament, or of one session (a club often settles each
night) — who pays whom, in chips and in money."""

from __future__ import annotations

from django.utils.translation import gettext

from scoring.domain.errors import NotFound
from scoring.domain.money import minor_unit_decimals, money_of, settle_up
from scoring.models import Entry, Session, Tournament
from scoring.selectors.standings import session_figures

#: The party that takes what the players' nets do not add back up to (Da Ling's casino chip,
#: DL-11: nets plus ``house`` sum to 0).
HOUSE = "House"


def payouts_for(tournament: Tournament, *, session: int | None = None) -> dict:
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
    if session is None:
        entries = Entry.objects.filter(tournament=tournament).select_related("player", "standing")
        rows = [(e.pk, e.player_id, e.player.name, getattr(e, "standing", None)) for e in entries]
        rows = [(e, p, name, st.total if st else 0) for e, p, name, st in rows]
    else:
        if not Session.objects.filter(tournament=tournament, number=session).exists():
            raise NotFound(gettext("No such session."))
        figures = session_figures(tournament, session)
        entries = Entry.objects.filter(pk__in=list(figures)).select_related("player")
        rows = [(e.pk, e.player_id, e.player.name, figures[e.pk].net) for e in entries]
    rows.sort(key=lambda r: (-r[3], r[2], r[0]))
    names = {r[0]: r[2] for r in rows}
    balances = [(r[0], r[3]) for r in rows]
    house = -sum(net for _, net in balances)
    if house:
        balances.append((None, house))
        names[None] = HOUSE
    transfers = settle_up(balances)
    money = money_of(balances, transfers, tournament.chip_value, minor_unit_decimals(tournament.currency))
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
