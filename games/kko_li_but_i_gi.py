"""Kko-li-but-i-gi (꼬리붙이기, Korean "tails"), RULES.md §5.

Decks and deals by player count (KK-1) come from ``decks.py``; play is the connecting games'
single arm with forced play (KK-2, KK-3), read with ``connecting.read_deal``. The winner has the
fewest points, ties to the lower hand (KK-4). The one with the most points, and everyone over
30, pays the winner (KK-5, ties KK-6, worked examples KK-7); variants ``"chip"``, ``"points"``
and ``over_30_only_with_four``.
"""

from __future__ import annotations

from .connecting import read_deal, result_body
from .record import Common, Problems
from .settlement import Transfer, chip_to_winner, pay, places_lower_hand


def kko_li_payers(points: list[int], winner: int, over_30: bool) -> list[int]:
    """KK-5/KK-6: every non-winner tied for most points, plus (when over_30) every non-winner
    with more than 30 points. The winner never pays."""
    top = max(p for s, p in enumerate(points) if s != winner)
    return [s for s, v in enumerate(points) if s != winner and (v == top or (over_30 and v > 30))]


def evaluate_kko_li(record: dict, common: Common, p: Problems) -> dict | None:
    """KK-1 … KK-7: the highest (and everyone over 30) pays the winner."""
    out = read_deal(record, common, p, two_arms=False)
    if out is None or p:
        return None
    places = places_lower_hand(out.points)
    winner = places.index(1)
    settlement = common.variant["settlement"]
    if settlement == "chip":
        transfers = chip_to_winner(common.n, winner)
    else:
        over_30 = common.n == 4 or not common.variant["over_30_only_with_four"]
        transfers: list[Transfer] = []
        for s in kko_li_payers(out.points, winner, over_30):
            amount = out.points[s] - out.points[winner] if settlement == "points" else 1
            pay(transfers, s, winner, amount)
    return result_body(common, out, places, transfers)


__all__ = ["evaluate_kko_li", "kko_li_payers"]
