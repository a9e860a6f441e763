"""Who sat where at which deal (scoring/domain/substitutions.py)."""

from games.seating import Change, Seating
from scoring.domain.substitutions import Stint, seat_history


def test_a_deal_keeps_the_players_who_played_it():
    # seat 0: 1 → 5 from deal 8, then 5 → 6 from deal 12; seat 2: 3 → 7 from deal 10
    seating = Seating((6, 2, 7, 4), (Change(0, 5, 1, 8), Change(2, 7, 3, 10), Change(0, 6, 5, 12)))
    assert seating.at(3) == [1, 2, 3, 4]
    assert seating.at(7) == [1, 2, 3, 4]
    assert seating.at(8) == [5, 2, 3, 4]
    assert seating.at(10) == [5, 2, 7, 4]
    assert seating.at(12) == [6, 2, 7, 4]
    assert seating.entries() == {1, 2, 3, 4, 5, 6, 7}


def test_without_substitutions_every_deal_has_todays_players():
    assert Seating((1, 2, 3, 4)).at(1) == [1, 2, 3, 4]


def test_a_seats_history_names_each_player_with_their_deals():
    seating = Seating((6, 2, 3, 4), (Change(0, 5, 1, 8), Change(0, 6, 5, 12)))
    assert seat_history(seating, 0) == [Stint(1, 1, 7), Stint(5, 8, 11), Stint(6, 12, None)]
    assert seat_history(seating, 1) == [Stint(2, 1, None)]


def test_a_substitution_before_any_deal_or_undone_leaves_no_stint():
    # from deal 1: the first player never played; two from deal 4: the middle one never played
    assert seat_history(Seating((5, 2), (Change(0, 5, 1, 1),)), 0) == [Stint(5, 1, None)]
    seating = Seating((6, 2), (Change(0, 5, 1, 4), Change(0, 6, 5, 4)))
    assert seat_history(seating, 0) == [Stint(1, 1, 3), Stint(6, 4, None)]
    assert seating.at(3) == [1, 2] and seating.at(4) == [6, 2]
