"""Decks and deals (RULES.md §1.1, §1.3, §1.4)."""

from collections import Counter

import pytest

from games.decks import CHINESE_32, CONNECTING_DEALS, DING_NIU_24, KKO_LI_24, deck_name, deck_pips, tiles_fit
from games.tiles import ALL_TILES, CIVIL, WILD, is_double


def halves_per_pip(deck: Counter) -> dict[int, int]:
    """Non-double halves showing each pip, counting copies."""
    out = {p: 0 for p in range(1, 7)}
    for (a, b), n in deck.items():
        if a != b:
            out[a] += n
            out[b] += n
    return out


def doubles(deck: Counter) -> int:
    return sum(n for t, n in deck.items() if is_double(t))


def test_chinese_32_totals():
    assert sum(CHINESE_32.values()) == 32
    assert doubles(CHINESE_32) == 12
    assert deck_pips(CHINESE_32) == 227
    assert halves_per_pip(CHINESE_32) == {1: 8, 2: 5, 3: 6, 4: 6, 5: 7, 6: 8}
    assert all(CHINESE_32[t] == (2 if t in CIVIL else 1) for t in ALL_TILES)


def test_ding_niu_24():
    assert sum(DING_NIU_24.values()) == 24
    assert doubles(DING_NIU_24) == 12
    assert deck_pips(DING_NIU_24) == 177
    assert halves_per_pip(DING_NIU_24) == {1: 6, 2: 1, 3: 3, 4: 2, 5: 4, 6: 8}
    assert not any(t in DING_NIU_24 for t in WILD)
    assert set(DING_NIU_24) == set(CIVIL) | {(6, 3), (6, 2)}


def test_kko_li_24():
    assert sum(KKO_LI_24.values()) == 24
    assert doubles(KKO_LI_24) == 4
    assert deck_pips(KKO_LI_24) == 155
    assert halves_per_pip(KKO_LI_24) == halves_per_pip(CHINESE_32)
    assert KKO_LI_24[(1, 1)] == KKO_LI_24[(2, 2)] == 2


@pytest.mark.parametrize("game,players,deck,each", [
    ("jie_long", 4, 32, 8), ("jie_long", 3, 32, 10), ("jie_long", 2, 32, 16),
    ("ce_deng", 4, 32, 8),
    ("kko_li_but_i_gi", 4, 32, 8), ("kko_li_but_i_gi", 3, 24, 8), ("kko_li_but_i_gi", 2, 24, 12),
    ("ding_niu", 4, 24, 6),
])
def test_deal_table(game, players, deck, each):
    d, n = CONNECTING_DEALS[game][players]
    assert sum(d.values()) == deck and n == each
    assert players * each <= deck


def test_only_listed_player_counts():
    assert set(CONNECTING_DEALS["ce_deng"]) == {4}
    assert set(CONNECTING_DEALS["ding_niu"]) == {4}


def test_tiles_fit():
    assert tiles_fit([(6, 6), (6, 6)], CHINESE_32)
    assert not tiles_fit([(6, 6)] * 3, CHINESE_32)
    assert not tiles_fit([(4, 2), (4, 2)], CHINESE_32)
    assert not tiles_fit([(2, 1)], DING_NIU_24)
    assert tiles_fit([t for t, n in CHINESE_32.items() for _ in range(n)], CHINESE_32)


def test_deck_names():
    assert deck_name(CHINESE_32) == "the 32-tile set"
    assert "Ding Niu" in deck_name(DING_NIU_24)
    assert deck_name(Counter()) == "this deck"
