"""Ding Niu's precomputed SuanZhang tests (games/ding_niu.py ``CHECKS``) against §6.4 worked
out plainly from the components of the graph, for every graph, tile, end and count of hidden
halves that matter."""

from __future__ import annotations

import random

from games.ding_niu import (
    _BIT,
    COMPONENTS,
    FIVES,
    FOURS,
    ONES,
    SMOTHERED_FIVES,
    SMOTHERED_FOURS,
    START_COPIES,
    TWO_THREE,
    report,
)


def _plain_report(left, copies, mask, tile, side, ends):
    """§6.4 as the pseudocode reads, without tables (the engine's earlier code)."""
    a, b = tile
    other = a + b - ends[side]
    lo, hi = (other, ends[1]) if side == 0 else (ends[0], other)
    after = list(left)
    after[a] -= 1
    after[b] -= 1
    if lo == hi and lo in (1, 4, 5) and after[lo] == 0:
        return {1: ONES, 4: FOURS, 5: FIVES}[lo]
    if {lo, hi} == {2, 3} and after[2] == 0 and after[3] == 0:
        return TWO_THREE
    comp = COMPONENTS[mask if copies[tile] > 1 else mask & ~_BIT[tile]]
    if after[4] > 0 and comp[4] not in (comp[lo], comp[hi]):
        return SMOTHERED_FOURS
    if after[5] > 0 and comp[5] not in (comp[lo], comp[hi]):
        return SMOTHERED_FIVES
    return None


def test_report_agrees_with_the_plain_rule_everywhere():
    rng = random.Random(64)
    tiles = list(START_COPIES)
    checked = 0
    for mask in range(len(COMPONENTS)):
        for tile in tiles:
            for side in (0, 1):
                for pip in range(1, 7):
                    a, b = tile
                    if side == 0:
                        ends = (rng.choice((a, b)), pip)
                    else:
                        ends = (pip, rng.choice((a, b)))
                    for _ in range(4):
                        # Hidden halves: 0 or 1 (where the counts decide) up to a few, per pip;
                        # the played tile's own halves are still counted before the play.
                        left = [0] + [rng.choice((0, 1, 2, 3)) for _ in range(6)]
                        left[a] += 1
                        left[b] += 1
                        copies = {t: rng.choice((1, 2)) for t in tiles}
                        expected = _plain_report(left, copies, mask, tile, side, ends)
                        assert report(left, copies, mask, tile, side, ends) == expected
                        checked += 1
    assert checked == 128 * 7 * 2 * 6 * 4
