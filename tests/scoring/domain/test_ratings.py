"""Club ratings' rules: openskill's Plackett–Luce over deals in a fixed order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.places import TABLE_SESSION
from scoring.domain.ratings import (
    _MODEL,
    DISPLAY_BASE,
    NEW,
    PROVISIONAL_DEALS,
    Deal,
    Rating,
    displayed,
    first_moved,
    ladder,
    plackett_luce,
    rate_deals,
    session_result,
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


# --- the fast path: openskill's Plackett–Luce is the reference -------------------------------

_result = st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.lists(st.floats(-20.0, 70.0), min_size=n, max_size=n),
    st.lists(st.floats(0.05, 12.0), min_size=n, max_size=n),
    st.lists(st.integers(1, n), min_size=n, max_size=n)))


@settings(max_examples=400, deadline=None)
@given(_result)
def test_the_fast_path_gives_openskills_numbers(result):
    mus, sigmas, ranks = result
    mu, sigma = plackett_luce(mus, sigmas, ranks)
    reference = _MODEL.rate([[_MODEL.rating(mu=m, sigma=s)] for m, s in zip(mus, sigmas)], ranks=list(ranks))
    for i, (team,) in enumerate(reference):
        assert abs(mu[i] - team.mu) <= 1e-9
        assert abs(sigma[i] - team.sigma) <= 1e-9


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.permutations([1, 2, 3, 4, 5]), st.integers(2, 5),
                          st.lists(st.integers(1, 5), min_size=5, max_size=5)), min_size=1, max_size=25))
def test_a_sequence_rated_fast_is_a_sequence_rated_by_openskill(raw):
    # the reference way, openskill's own objects carried from deal to deal
    deals = [Deal(i, players[:n], places[:n]) for i, (players, n, places) in enumerate(raw)]
    ratings, _ = rate_deals(deals)
    kept: dict = {}
    for d in deals:
        teams = [[kept.get(p) or _MODEL.rating()] for p in d.players]
        for p, (o,) in zip(d.players, _MODEL.rate(teams, ranks=list(d.places))):
            kept[p] = o
    for p, o in kept.items():
        assert abs(ratings[p].mu - o.mu) <= 1e-9 and abs(ratings[p].sigma - o.sigma) <= 1e-9


# --- a table session's result ------------------------------------------------------------------

def test_a_session_ranks_its_players_by_their_summed_net():
    d = session_result(40, [7, 8, 9, 10], {7: 19, 8: -20, 9: -6, 10: 7}, 5)
    assert d == Deal(40, [7, 8, 9, 10], [1, 4, 3, 2], TABLE_SESSION, 5)
    assert session_result(41, [1, 2, 3], {1: 5, 2: 5}, 2).places == [1, 1, 3]   # ties share; absent: 0


# --- where the follow re-rates from ------------------------------------------------------------

def test_nothing_moved_or_only_new_deals():
    keys = [(1, 11, None), (2, 12, None)]
    assert first_moved(keys, keys) is None
    assert first_moved(keys + [(3, 13, None)], keys) == 3
    assert first_moved(keys, []) == 1


def test_a_correction_or_a_void_re_rates_from_that_deal():
    taken = [(1, 11, None), (2, 12, None), (3, 13, None)]
    assert first_moved([(1, 11, None), (2, 99, None), (3, 13, None)], taken) == 2
    assert first_moved([(1, 11, None), (3, 13, None)], taken) == 2


def test_a_sessions_result_moves_from_the_earlier_of_its_old_and_new_key():
    # session 50: deals 2 and 4 (key 4); deals 1, 3, 5 each rated alone
    taken = [(1, 11, None), (2, 12, 50), (3, 13, None), (4, 14, 50), (5, 15, None)]
    # a new deal in the session: its result leaves key 4 for key 6
    assert first_moved(taken + [(6, 16, 50)], taken) == 4
    # its latest deal voided: the result moves back to key 2
    assert first_moved([k for k in taken if k[0] != 4], taken) == 2
    # its first deal corrected: from that deal (before both keys)
    assert first_moved([(2, 99, 50) if k[0] == 2 else k for k in taken], taken) == 2
    # a deal of another session or alone does not move it
    assert first_moved(taken + [(6, 16, 60)], taken) == 6
