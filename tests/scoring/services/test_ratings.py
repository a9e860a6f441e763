"""The club ratings followed and rebuilt (scoring/services/ratings.py)."""

from __future__ import annotations

import pytest

from scoring.models import ActionLog, PlayerRating, RatedDeal, RatingChange
from scoring.selectors.ratings import club_ladder, player_history
from scoring.services.ratings import ratings_follow, ratings_rebuild
from scoring.services.rounds import round_confirm, round_correct, round_record, round_void
from scoring.services.tournaments import tournament_update

from ..bodies import DING_NIU_LED_BY_1, JIE_LONG, TAU_NGAU_V1

pytestmark = pytest.mark.django_db


def _state(club):
    """Everything the ratings hold, without ids or times."""
    ratings = sorted(PlayerRating.objects.filter(club=club).values_list("player_id", "mu", "sigma", "deals"))
    changes = sorted(RatingChange.objects.filter(club=club).values_list(
        "round_id", "player_id", "place", "mu_before", "sigma_before", "mu_after", "sigma_after", "deals"))
    rated = sorted(RatedDeal.objects.filter(club=club).values_list("round_id", "revision_id"))
    return ratings, changes, rated


def _places(round_id):
    return {c.player.name: c.place for c in RatingChange.objects.filter(round_id=round_id).select_related("player")}


def test_who_always_wins_rises_above_who_always_loses(jie_long, club):
    for _ in range(12):
        round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    assert ratings_follow(club=club)["deals"] == 12
    ladder = club_ladder(club)
    # JIE_LONG: Anna lowest points (first), then Bob, Dominic, Celine
    assert [row["player"]["name"] for row in ladder] == ["Anna", "Bob", "Dominic", "Celine"]
    assert [row["rank"] for row in ladder] == [1, 2, 3, 4]
    assert ladder[0]["rating"] > 1000 > ladder[-1]["rating"]
    assert all(row["deals"] == 12 and not row["provisional"] for row in ladder)
    assert ratings_follow(club=club) == {"deals": 0, "from": None}   # nothing new: nothing done


def test_seats_are_read_from_the_leader_and_tau_ngau_is_placed_by_net(make_setup, club):
    ding = make_setup("ding_niu")
    tau = make_setup("tau_ngau", variant={"settlement": "v1"})
    d = round_record(actor=ding.scorer_actor, table=ding.table, body=DING_NIU_LED_BY_1)
    t = round_record(actor=tau.scorer_actor, table=tau.table, body=TAU_NGAU_V1)
    ratings_follow(club=club)
    assert _places(d.pk)["Valentine"] == 1      # the winner (nets by position -2, -4, 12, -6)
    assert _places(t.pk) == {"Bank": 1, "Six": 2, "NoBull": 2, "One": 4}   # nets 17, -4, -9, -4
    bank = club.players.get(name="Bank")
    assert sorted(o["name"] for o in player_history(bank)[0]["opponents"]) == ["NoBull", "One", "Six"]


def test_a_void_re_rates_from_that_deal_on(jie_long, club):
    rounds = [round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG) for _ in range(5)]
    ratings_follow(club=club)
    round_void(actor=jie_long.director_actor, round=rounds[1], reason="misdeal")
    done = ratings_follow(club=club)
    assert done == {"deals": 3, "from": rounds[1].pk}
    assert not RatingChange.objects.filter(round=rounds[1]).exists()
    assert set(PlayerRating.objects.filter(club=club).values_list("deals", flat=True)) == {4}
    followed = _state(club)
    ratings_rebuild(actor=jie_long.director_actor, club=club)
    assert _state(club) == followed


def test_a_correction_re_rates_and_rebuild_equals_incremental(jie_long, club):
    s = jie_long
    rounds = []
    for i in range(6):
        rounds.append(round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG))
        ratings_follow(club=club)       # one deal at a time, as the task follows them
    before = _state(club)
    flipped = {"points": [34, 12, 2, 18]}     # Celine wins this one
    round_correct(actor=s.director_actor, round=rounds[2], body=flipped, reason="typo",
                  expected_revision=1)
    assert ratings_follow(club=club)["from"] == rounds[2].pk
    after = _state(club)
    assert after != before
    assert _places(rounds[2].pk)["Celine"] == 1
    ratings_rebuild(actor=s.director_actor, club=club)
    assert _state(club) == after
    assert ActionLog.objects.filter(action="ratings_rebuild").count() == 1


def test_only_confirmed_deals_count_where_confirmation_is_required(make_setup, club):
    s = make_setup("jie_long", require_confirmation=True)
    r = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    assert ratings_follow(club=club)["deals"] == 0
    round_confirm(actor=s.scorer_actor, round=r, confirmed_by=1)
    assert ratings_follow(club=club)["deals"] == 1


def test_a_tournament_left_out_drops_from_the_ratings(jie_long, club):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    ratings_follow(club=club)
    assert PlayerRating.objects.filter(club=club).count() == 4
    tournament_update(actor=jie_long.director_actor, tournament=jie_long.tournament, rated=False)
    ratings_follow(club=club)
    assert _state(club) == ([], [], [])


def test_a_deal_write_enqueues_the_follow_after_commit(jie_long, club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    assert PlayerRating.objects.filter(club=club).count() == 4


def test_a_finished_tournament_may_still_be_left_out(jie_long, club):
    from scoring.services.tournaments import tournament_finish
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    tournament_finish(actor=jie_long.director_actor, tournament=jie_long.tournament)
    t = tournament_update(actor=jie_long.director_actor, tournament=jie_long.tournament, rated=False)
    assert t.rated is False
