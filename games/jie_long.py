"""Jie Long (接龍, "connect the dragon"), RULES.md §3: the base connecting game.

The record is read at any of the three shared levels (``connecting.read_deal``; JL-1 deals,
JL-2 one or two arms); the seat with the fewest points wins, ties to the lower hand (CG-14,
JL-5). Settlement by pairwise differences (JL-3, worked example JL-4), or 1 chip from every
other seat to the winner under ``settlement = "chip"`` (JL-6).
"""

from __future__ import annotations

from .connecting import read_deal, result_body
from .record import Common, Problems
from .settlement import chip_to_winner, difference_transfers, places_lower_hand


def evaluate_jie_long(record: dict, common: Common, p: Problems) -> dict | None:
    """JL-1 … JL-6: pairwise differences (JL-3), or 1 chip to the winner (JL-6)."""
    out = read_deal(record, common, p, two_arms=common.variant["arms"] == 2)
    if out is None or p:
        return None
    places = places_lower_hand(out.points)
    if common.variant["settlement"] == "chip":
        transfers = chip_to_winner(common.n, places.index(1))
    else:
        transfers = difference_transfers(out.points)
    return result_body(common, out, places, transfers)


__all__ = ["evaluate_jie_long"]
