"""Club ratings' rules: openskill's Plackett–Luce over deals in a fixed order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.domain.ratings import (
    DISPLAY_BASE,
    NEW,
    PROVISIONAL_DEALS,
    Deal,
    Rating,
    displayed,
    ladder,
    rate_deals,
)


def _deals(n: int) -> list[Deal]:
    # players 1..4 at one table, always in the same finishing order 1 > 2 > 3 > 4, seats rotating
    out = []
    for k in range(n):
        players = [1, 2, 3, 4][k % 4:] + [1, 2, 3, 4][:k % 4]
        out.append(Deal(k + 1, players, list(players)))   # each one's place is their number
    return out


def test_a_new_player_shows_the_base_and_is_provisional():
    assert NEW.display == DISPLAY_BASE == displayed(25.0, 25.0 / 3)
    assert NEW.provisional and not Rating(deals=PROVISIONAL_DEALS).provisional


def test_who_always_wins_ends_above_who_always_loses():
    # the place of each player is their number: 1 always first, 4 always last
    ratings, changes = rate_deals(_deals(20))
    order = [player for _, player, _ in ladder(ratings)]
    assert order == [1, 2, 3, 4]
    assert ratings[1].display > DISPLAY_BASE > ratings[4].display
    assert all(r.deals == 20 for r in ratings.values())
    assert len(changes) == 80


def test_changes_say_why_it_moved():
    _, changes = rate_deals([Deal(7, [10, 20, 30], [1, 2, 3])])
    first = next(c for c in changes if c.player == 10)
    assert first.deal == 7 and first.place == 1 and first.before == NEW
    assert first.after.mu > first.before.mu and first.after.deals == 1
    assert [p for p, _ in first.opponents] == [20, 30] and all(r == NEW for _, r in first.opponents)


def test_ties_share_a_place_and_rate_alike():
    ratings, _ = rate_deals([Deal(1, [1, 2, 3, 4], [1, 2, 2, 4])])
    assert ratings[2] == ratings[3]
    assert ratings[1].mu > ratings[2].mu > ratings[4].mu


def test_a_deal_that_places_nobody_rates_nobody():
    ratings, changes = rate_deals([Deal(1, [1, 2, 3], [None, None, None])])
    assert ratings == {} and changes == []


def test_rating_from_a_start_is_rating_the_whole_sequence():
    deals = _deals(12)
    whole, whole_changes = rate_deals(deals)
    head, head_changes = rate_deals(deals[:5])
    tail, tail_changes = rate_deals(deals[5:], head)
    assert tail == whole and head_changes + tail_changes == whole_changes


_deal = st.tuples(st.permutations([1, 2, 3, 4]), st.lists(st.integers(1, 4), min_size=4, max_size=4))


@settings(max_examples=30, deadline=None)
@given(st.lists(_deal, min_size=1, max_size=15))
def test_the_same_deals_in_the_same_order_give_the_same_numbers(raw):
    deals = [Deal(i, players, places) for i, (players, places) in enumerate(raw)]
    assert rate_deals(deals) == rate_deals(list(deals))


def test_order_matters_as_documented():
    # the same two results in the other order: a later deal sees the earlier one's ratings
    a = Deal(1, [1, 2], [1, 2])
    b = Deal(2, [1, 3], [2, 1])
    first, _ = rate_deals([a, b])
    second, _ = rate_deals([b, a])
    assert first[1] != second[1]
