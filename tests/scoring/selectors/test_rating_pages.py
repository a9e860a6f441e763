"""The ratings as the pages read them (scoring/selectors/rating_pages.py): rank moves since the
latest rated tournament, a player's path, a tournament's changes."""

from __future__ import annotations

import pytest

from scoring.models import RatingChange
from scoring.selectors.rating_pages import (
    ladder_with_moves,
    rating_path,
    ratings_before,
    tournament_rating_changes,
)
from scoring.selectors.ratings import club_ladder
from scoring.services.ratings import ratings_follow
from scoring.services.rounds import round_record

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db

BOB_FIRST = {"points": [12, 2, 34, 18]}     # Anna, Bob, Celine, Dominic / Eve: Bob 1st, Anna 2nd


def _deals(setup, body, n):
    return [round_record(actor=setup.scorer_actor, table=setup.table, body=body) for _ in range(n)]


def _moves(club):
    return {r["player"]["name"]: (r["rank"], r["rank_change"], r["new"]) for r in ladder_with_moves(club)["rows"]}


def test_a_player_who_overtakes_another_moves_up_one_and_the_other_down_one(make_setup, club):
    first = make_setup("jie_long")
    _deals(first, JIE_LONG, 3)            # Anna, Bob, Dominic, Celine
    ratings_follow(club=club)
    assert _moves(club) == {"Anna": (1, None, True), "Bob": (2, None, True), "Dominic": (3, None, True),
                            "Celine": (4, None, True)}   # one tournament: nobody was on a ladder before it
    second = make_setup("jie_long", names=["Anna", "Bob", "Celine", "Dominic"])
    _deals(second, BOB_FIRST, 6)          # Bob wins every deal, Anna second
    ratings_follow(club=club)
    moves = _moves(club)
    assert moves["Bob"] == (1, +1, False) and moves["Anna"] == (2, -1, False)
    assert moves["Dominic"] == (3, 0, False) and moves["Celine"] == (4, 0, False)
    assert ladder_with_moves(club)["since"] == second.tournament


def test_a_player_new_in_the_latest_tournament_is_marked_new(make_setup, club):
    first = make_setup("jie_long")
    _deals(first, JIE_LONG, 2)
    second = make_setup("jie_long", names=["Anna", "Bob", "Celine", "Eve"])
    _deals(second, BOB_FIRST, 1)
    ratings_follow(club=club)
    moves = _moves(club)
    assert moves["Eve"][1:] == (None, True)
    assert all(not new and change is not None for name, (_, change, new) in moves.items() if name != "Eve")


def test_the_earlier_ladder_is_each_players_last_change_before_the_tournament(make_setup, club):
    first = make_setup("jie_long")
    rounds = _deals(first, JIE_LONG, 3)
    second = make_setup("jie_long")
    later = _deals(second, BOB_FIRST, 2)
    ratings_follow(club=club)
    before = ratings_before(club, later[0].pk)
    for player, rating in before.items():
        last = RatingChange.objects.get(round=rounds[-1], player_id=player)
        assert (rating.mu, rating.sigma, rating.deals) == (last.mu_after, last.sigma_after, 3)
    assert ratings_before(club, rounds[0].pk) == {}


def test_ladder_with_moves_reads_a_fixed_number_of_queries(make_setup, club, django_assert_num_queries):
    first = make_setup("jie_long")
    _deals(first, JIE_LONG, 2)
    second = make_setup("jie_long", names=["Anna", "Bob", "Celine", "Eve"])
    _deals(second, BOB_FIRST, 2)
    ratings_follow(club=club)
    with django_assert_num_queries(5):
        rows = ladder_with_moves(club)["rows"]
    assert [r["player"]["name"] for r in rows] == [r["player"]["name"] for r in club_ladder(club)]


def test_a_players_path_and_a_tournaments_changes(make_setup, club):
    first = make_setup("jie_long")
    _deals(first, JIE_LONG, 3)
    second = make_setup("jie_long")
    _deals(second, BOB_FIRST, 2)
    ratings_follow(club=club)
    anna = club.players.get(name="Anna")
    path = rating_path(anna)
    assert len(path) == 5 and path[0]["tournament"] == first.tournament.pk
    assert path[2]["rating"] > path[0]["rating"] > 1000      # she won the first three
    changes = {r["player"]["name"]: r for r in tournament_rating_changes(second.tournament)}
    assert changes["Anna"]["before"] == path[2]["rating"] and changes["Anna"]["after"] == path[4]["rating"]
    assert changes["Bob"]["change"] == changes["Bob"]["after"] - changes["Bob"]["before"] > 0
    assert all(r["results"] == 2 for r in changes.values())
    second.tournament.rated = False
    assert tournament_rating_changes(second.tournament) == []
