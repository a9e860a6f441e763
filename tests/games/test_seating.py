"""Who sat where at which deal (games/seating.py): the one rule the site and the verifier run."""

import pytest

from games.seating import Change, Seating, seating_from_start


def test_a_deal_keeps_the_players_who_played_it():
    # seat 0: 1 → 5 from deal 8, then 5 → 6 from deal 12; seat 2: 3 → 7 from deal 10
    seating = Seating((6, 2, 7, 4), (Change(0, 5, 1, 8), Change(2, 7, 3, 10), Change(0, 6, 5, 12)))
    assert [seating.at(d) for d in (3, 7, 8, 10, 12)] == [
        [1, 2, 3, 4], [1, 2, 3, 4], [5, 2, 3, 4], [5, 2, 7, 4], [6, 2, 7, 4]]
    assert seating.first() == [1, 2, 3, 4] and seating.entries() == {1, 2, 3, 4, 5, 6, 7}


def test_the_first_seating_and_the_substitutions_in_order_give_the_same_seating():
    """What an export carries (the seats as made, each substitution's incoming player) is the
    site's seating again: the same players at every deal."""
    site = Seating((6, 2, 7, 4), (Change(0, 5, 1, 8), Change(2, 7, 3, 10), Change(0, 6, 5, 12)))
    rebuilt = seating_from_start(site.first(), [(c.seat, c.entry_in, c.from_deal) for c in site.changes])
    assert rebuilt == site
    assert [rebuilt.at(d) for d in range(1, 15)] == [site.at(d) for d in range(1, 15)]


def test_one_undone_before_a_deal_was_played_leaves_the_seat_to_the_last():
    seating = seating_from_start([1, 2], [(0, 5, 4), (0, 6, 4)])
    assert seating.current == (6, 2) and seating.at(3) == [1, 2] and seating.at(4) == [6, 2]


@pytest.mark.parametrize("subs", [[(2, 5, 3)], [(0, 5, 6), (0, 6, 4)]])
def test_no_such_seat_or_a_deal_before_the_seats_last_substitution_is_refused(subs):
    with pytest.raises(ValueError):
        seating_from_start([1, 2], subs)
