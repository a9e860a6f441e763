"""Settling up at the end of the night: who pays whom, and how much money that is. Pure: no
queries, no Django. The site's payouts (``scoring.selectors.payouts``) and ``verify`` (an
export checked without the site) both run this code.

``settle_up`` turns balances in chips (summing to zero) into transfers, at most one fewer than
the parties with a balance; ``money_of`` puts each transfer into the currency's minor unit
(ISO 4217, from the ``iso4217`` package's copy of the ISO list); ``payouts_of`` makes the whole
settle-up of a list of nets (the house taking what they do not add back up to).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import TypeVar

from iso4217 import Currency

K = TypeVar("K", bound=Hashable)

#: Digits after the point where the currency is unknown, empty or has no minor unit (XXX,
#: gold, …): those of the chip value itself.
DEFAULT_DECIMALS = 2

#: Up to this many parties the settle-up looks for the most groups that settle among
#: themselves (2^n subsets); beyond, it pairs equal debts first and settles the rest greedily.
EXACT_SEARCH_LIMIT = 12


def minor_unit_decimals(currency: str) -> int:
    """Digits of the currency's minor unit (ISO 4217): JPY 0, EUR 2, BHD 3, CLF 4."""
    try:
        exponent = Currency(currency.strip().upper()).exponent
    except ValueError:
        return DEFAULT_DECIMALS
    return DEFAULT_DECIMALS if exponent is None else exponent


def _zero_sum_groups(items: list[tuple[K, int]]) -> list[list[tuple[K, int]]]:
    """Split the parties into as many groups that sum to zero as possible: each settles within
    itself, so every extra group saves one transfer.

    Exact for up to ``EXACT_SEARCH_LIMIT`` parties: ``best[mask]`` is the most zero-sum groups
    among the parties in ``mask`` (add the parties one by one; a group closes whenever the
    running sum is zero). Beyond that, equal and opposite balances are paired first (the usual
    case of one player owing exactly what another is owed) and the rest is one group: linear,
    each credit found by its amount in a dict."""
    n = len(items)
    if n > EXACT_SEARCH_LIMIT:
        groups, rest = [], list(items)
        creditors: dict[int, deque[int]] = {}
        for i, (_, v) in enumerate(rest):
            if v > 0:
                creditors.setdefault(v, deque()).append(i)
        used: set[int] = set()
        for i, (_, v) in enumerate(rest):
            if v < 0 and creditors.get(-v):
                j = creditors[-v].popleft()
                groups.append([rest[i], rest[j]])
                used.update((i, j))
        left = [x for i, x in enumerate(rest) if i not in used]
        if len(left) > EXACT_SEARCH_LIMIT:
            return groups + ([left] if left else [])
        return groups + _zero_sum_groups(left)
    size = 1 << n
    total = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + items[low][1]
        best[mask] = max(best[mask & ~(1 << i)] for i in range(n) if mask >> i & 1) + (total[mask] == 0)
    # Walk back from everyone: drop a party that keeps the best count; each zero-sum mask met on
    # the way closes a group made of the parties dropped since the previous one.
    groups: list[list[tuple[K, int]]] = []
    mask, current = size - 1, []
    while mask:
        keep = best[mask] - (total[mask] == 0)
        if total[mask] == 0 and current:
            groups.append(current)
            current = []
        i = next(i for i in range(n) if mask >> i & 1 and best[mask & ~(1 << i)] == keep)
        current.append(items[i])
        mask &= ~(1 << i)
    if current:
        groups.append(current)
    return groups


def _greedy(group: list[tuple[K, int]]) -> list[tuple[K, K, int]]:
    """Largest debtor pays largest creditor as much as closes one of them, until all are even:
    at most one transfer fewer than the group's parties. Ties go to the earlier party.

    Two heaps keyed (amount, place in the group): each transfer closes one party (popped) and
    leaves the other's rest where it now belongs (one replace), so O(n log n) — the same
    transfers as sorting both lists again after each one."""
    debtors = [(v, i) for i, (_, v) in enumerate(group) if v < 0]            # most owed first
    creditors = [(-v, i) for i, (_, v) in enumerate(group) if v > 0]        # most due first
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    out = []
    while debtors and creditors:
        owe, d = debtors[0]
        due, c = creditors[0]
        paid = min(-owe, -due)
        out.append((group[d][0], group[c][0], paid))
        if -owe == paid:
            heapq.heappop(debtors)
        else:
            heapq.heapreplace(debtors, (owe + paid, d))
        if -due == paid:
            heapq.heappop(creditors)
        else:
            heapq.heapreplace(creditors, (due + paid, c))
    return out


def settle_up(balances: Sequence[tuple[K, int]]) -> list[tuple[K, K, int]]:
    """Transfers ``(payer, payee, chips)`` that even out ``balances`` (``(party, chips)``
    summing to zero; + is owed): paying them, every party ends at zero. At most one fewer
    transfers than the parties with a balance — fewer when some of them settle among
    themselves (a debt equal to a credit: one transfer for those two). Deterministic: parties
    earlier in ``balances`` go first among equals."""
    items = [(k, int(v)) for k, v in balances if v]
    if sum(v for _, v in items) != 0:
        raise ValueError("balances must sum to zero")
    out = []
    for group in _zero_sum_groups(items):
        out.extend(_greedy(group))
    return out


@dataclass(frozen=True)
class Money:
    """What the transfers come to in money: ``amounts`` per transfer and ``by_party`` (received
    minus paid) in the minor unit; ``exact`` per party (balance × chip value); ``remainder``:
    how much less (+) or more (−) than the exact amounts the rounded transfers move in all."""

    decimals: int
    amounts: list[Decimal]
    by_party: dict
    exact: dict
    remainder: Decimal


def money_of(balances: Sequence[tuple[K, int]], transfers: Sequence[tuple[K, K, int]], chip_value: Decimal,
             decimals: int) -> Money:
    """Each transfer's money, rounded to the minor unit (``decimals`` digits; half to even),
    and each party's money as the sum of its transfers — so the money sums to exactly zero, and
    every difference from the exact amounts is shown (``exact``, ``remainder``), none dropped."""
    unit = Decimal(1).scaleb(-decimals)
    amounts, remainder = [], Decimal(0)
    by_party = {k: Decimal(0).quantize(unit) for k, _ in balances}
    for payer, payee, chips in transfers:
        exact = Decimal(chips) * chip_value
        amount = exact.quantize(unit, rounding=ROUND_HALF_EVEN)
        amounts.append(amount)
        remainder += exact - amount
        by_party[payer] -= amount
        by_party[payee] += amount
    exact = {k: Decimal(v) * chip_value for k, v in balances}
    return Money(decimals, amounts, by_party, exact, remainder)


#: The party that takes what the players' nets do not add back up to (Da Ling's casino chip,
#: DL-11: nets plus ``house`` sum to 0; an adjustment outside the deals).
HOUSE = "House"


def payouts_of(rows: Sequence[tuple[K, str, int]], chip_value: Decimal, decimals: int) -> dict:
    """The settle-up of ``rows`` (``(party, name, net)``, in the order they are to be listed):
    ``balances`` (the rows' and, when they do not sum to zero, the house's, keyed None),
    ``names`` (by party, the house's too), ``transfers`` (``settle_up``), ``money``
    (``money_of``) and ``house`` (what the house is owed: minus the nets' sum)."""
    names: dict = {party: name for party, name, _ in rows}
    balances: list[tuple] = [(party, net) for party, _, net in rows]
    house = -sum(net for _, net in balances)
    if house:
        balances.append((None, house))
        names[None] = HOUSE
    transfers = settle_up(balances)
    return {"balances": balances, "names": names, "transfers": transfers, "house": house,
            "money": money_of(balances, transfers, chip_value, decimals)}
