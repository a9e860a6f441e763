"""The club ratings followed and rebuilt (scoring/services/ratings.py)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

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
    assert ratings_follow(club=club) == {"deals": 0, "results": 0, "from": None}   # nothing new: nothing done


def test_seats_are_read_from_the_leader_and_a_one_deal_session_is_placed_by_net(make_setup, club):
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
    assert done == {"deals": 0, "results": 3, "from": rounds[1].pk}   # none new; three re-rated
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


# --- Tau Ngau: a table's session is one result --------------------------------------------------

# (banker, hands rotated by) → nets by seat (Bank, Six, One, NoBull), from TAU_NGAU_V1's hands
def _tau(banker, rot):
    hands = TAU_NGAU_V1["hands"]
    return {"banker": banker, "hands": hands[rot:] + hands[:rot]}


BANK_WINS_BIG = _tau(0, 0)     # nets 17, -4, -9, -4
BANK_LOSES = _tau(3, 2)        # nets -5, -4, 4, 5: Bank last


def test_a_tau_ngau_session_is_ranked_by_its_net_over_the_session(tau_ngau, club):
    s = tau_ngau
    bodies = [BANK_LOSES, BANK_WINS_BIG, BANK_LOSES, BANK_WINS_BIG, BANK_LOSES]
    rounds = []
    for body in bodies:   # Bank last in three deals of five, but +19 over the session
        rounds.append(round_record(actor=s.scorer_actor, table=s.table, body=body))
        ratings_follow(club=club)
    # session nets: Bank 19, Six -20, One -6, NoBull 7 — one result, keyed by the latest deal
    assert set(RatingChange.objects.filter(club=club).values_list("round_id", flat=True)) == {rounds[-1].pk}
    assert _places(rounds[-1].pk) == {"Bank": 1, "NoBull": 2, "One": 3, "Six": 4}
    assert [row["player"]["name"] for row in club_ladder(club)] == ["Bank", "NoBull", "One", "Six"]
    assert all(row["deals"] == 1 for row in club_ladder(club))
    history = player_history(club.players.get(name="Bank"))
    assert len(history) == 1
    assert history[0]["unit"] == "table_session" and history[0]["unit_deals"] == 5
    assert history[0]["deal"]["id"] == rounds[-1].pk
    followed = _state(club)
    ratings_rebuild(actor=s.director_actor, club=club)
    assert _state(club) == followed


def test_a_new_deal_moves_the_sessions_result_and_re_rates_what_came_after(make_setup, tau_ngau, club):
    jl = make_setup("jie_long")
    s = tau_ngau
    first = round_record(actor=s.scorer_actor, table=s.table, body=BANK_WINS_BIG)
    between = round_record(actor=jl.scorer_actor, table=jl.table, body=JIE_LONG)
    ratings_follow(club=club)
    last = round_record(actor=s.scorer_actor, table=s.table, body=BANK_LOSES)
    done = ratings_follow(club=club)
    # the session's result leaves its old key (the first deal): re-rated from there
    assert done == {"deals": 1, "results": 2, "from": first.pk}
    assert not RatingChange.objects.filter(round=first).exists()
    assert _places(last.pk) == {"Bank": 1, "NoBull": 2, "One": 3, "Six": 4}   # 12, 1, -5, -8
    assert RatingChange.objects.filter(round=between).count() == 4
    followed = _state(club)
    ratings_rebuild(actor=s.director_actor, club=club)
    assert _state(club) == followed


def test_voiding_a_sessions_latest_deal_moves_its_result_back(make_setup, tau_ngau, club):
    s = tau_ngau
    first = round_record(actor=s.scorer_actor, table=s.table, body=BANK_LOSES)
    last = round_record(actor=s.scorer_actor, table=s.table, body=BANK_WINS_BIG)
    ratings_follow(club=club)
    assert _places(last.pk)["Bank"] == 1
    round_void(actor=s.director_actor, round=last, reason="misdeal")
    assert ratings_follow(club=club)["from"] == first.pk
    assert not RatingChange.objects.filter(round=last).exists()
    assert _places(first.pk) == {"Bank": 4, "Six": 3, "One": 2, "NoBull": 1}
    assert player_history(club.players.get(name="Bank"))[0]["unit_deals"] == 1


def test_a_deal_is_its_own_unit_in_the_history(jie_long, club):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    ratings_follow(club=club)
    row = player_history(club.players.get(name="Anna"))[0]
    assert (row["unit"], row["unit_deals"]) == ("deal", 1)


# --- a game left out by the club ----------------------------------------------------------------

def test_a_game_the_club_leaves_out_drops_from_the_ratings_and_comes_back(make_setup, jie_long, club):
    tau = make_setup("tau_ngau", variant={"settlement": "v1"})
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    round_record(actor=tau.scorer_actor, table=tau.table, body=BANK_WINS_BIG)
    ratings_follow(club=club)
    both = _state(club)
    assert PlayerRating.objects.filter(club=club).count() == 8
    club.unrated_games = ["tau_ngau"]
    club.save(update_fields=["unrated_games"])
    done = ratings_follow(club=club)
    assert done["results"] == 0 and done["from"] is not None
    assert set(PlayerRating.objects.filter(club=club).values_list("player__name", flat=True)) == {
        "Anna", "Bob", "Celine", "Dominic"}
    assert RatedDeal.objects.filter(club=club).count() == 1
    alone = _state(club)
    ratings_rebuild(actor=jie_long.director_actor, club=club)
    assert _state(club) == alone
    club.unrated_games = []
    club.save(update_fields=["unrated_games"])
    ratings_follow(club=club)
    assert _state(club) == both


# --- rebuild equals following, whatever happened -------------------------------------------------

_BODIES = {"jie_long": [JIE_LONG, {"points": [34, 12, 2, 18]}, {"points": [12, 2, 18, 34]}],
           "tau_ngau": [BANK_WINS_BIG, BANK_LOSES, _tau(1, 2), _tau(2, 1)]}
_record = st.tuples(st.just("record"), st.integers(0, 2), st.integers(0, 3), st.booleans())
_op = st.one_of(
    _record, _record, _record,
    st.tuples(st.just("correct"), st.integers(0, 30), st.integers(0, 3)),
    st.tuples(st.just("void"), st.integers(0, 30)),
    st.tuples(st.just("leave_out"), st.sampled_from(["jie_long", "tau_ngau"])),
    st.tuples(st.just("follow")),
)


@pytest.fixture
def three_tables(make_setup, club):
    # two Tau Ngau sessions (tables of two tournaments, the same players) and a Jie Long table
    return [make_setup("jie_long"), make_setup("tau_ngau", variant={"settlement": "v1"}),
            make_setup("tau_ngau", variant={"settlement": "v1"}, table_name="Table 2")]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(_op, min_size=3, max_size=20))
@example([("record", 1, 0, True), ("record", 1, 1, True)])                  # a session's result moves on
@example([("record", 1, 0, False), ("record", 0, 0, False), ("record", 1, 1, True), ("void", 2)])  # ... and back
@example([("record", 2, 0, True), ("leave_out", "tau_ngau"), ("follow",), ("record", 2, 1, False),
          ("leave_out", "tau_ngau")])
def test_rebuild_equals_following_over_records_corrections_voids_and_games_left_out(three_tables, club, ops):
    setups = three_tables
    director = setups[0].director_actor
    with transaction.atomic():
        rounds = []
        for op in ops:
            if op[0] == "record":
                s = setups[op[1]]
                bodies = _BODIES[s.tournament.game]
                rounds.append(round_record(actor=s.scorer_actor, table=s.table, body=bodies[op[2] % len(bodies)]))
                if op[3]:
                    ratings_follow(club=club)   # as the task after the deal's write
            elif op[0] in ("correct", "void") and rounds:
                r = rounds[op[1] % len(rounds)]
                r.refresh_from_db()
                if r.status == r.Status.VOIDED:
                    continue
                if op[0] == "void":
                    round_void(actor=director, round=r, reason="misdeal")
                else:
                    bodies = _BODIES[r.table.session.tournament.game]
                    round_correct(actor=director, round=r, body=bodies[op[2] % len(bodies)], reason="typo",
                                  expected_revision=r.current_revision.number)
            elif op[0] == "leave_out":
                club.refresh_from_db()
                left = set(club.unrated_games) ^ {op[1]}
                club.unrated_games = sorted(left)
                club.save(update_fields=["unrated_games"])
            else:
                ratings_follow(club=club)
        ratings_follow(club=club)
        followed = _state(club)
        ratings_rebuild(actor=director, club=club)
        assert _state(club) == followed
        assert ratings_follow(club=club)["from"] is None
        transaction.set_rollback(True)


# --- the follow of one more deal: its queries, whatever the history -------------------------------

#: The club row locked + counted keys + taken keys + tournaments + seats + substitutions + the deal
#: read + its players' ratings to start from + the rows written (rated deal, changes, ratings deleted,
#: ratings), inside one savepoint (two statements).
FOLLOW_APPENDED = 14


def test_following_one_more_deal_costs_a_fixed_number_of_queries(make_setup, jie_long, club,
                                                                django_assert_num_queries):
    tau = make_setup("tau_ngau", variant={"settlement": "v1"})
    for _ in range(5):
        round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
        round_record(actor=tau.scorer_actor, table=tau.table, body=BANK_LOSES)
    ratings_follow(club=club)
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    # PostgreSQL takes the three writes by COPY, on psycopg's cursor: outside Django's query log
    with django_assert_num_queries(FOLLOW_APPENDED - (3 if connection.vendor == "postgresql" else 0)):
        assert ratings_follow(club=club)["results"] == 1


def test_a_re_rating_that_reads_everything_anew_gives_the_same(monkeypatch, make_setup, jie_long, club):
    # past REREAD_ALL new deals a re-rating reads every result from its start, not its stored places
    from scoring.services import ratings as services
    tau = make_setup("tau_ngau", variant={"settlement": "v1"})
    rounds = []
    for body in (BANK_WINS_BIG, BANK_LOSES):
        rounds.append(round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG))
        round_record(actor=tau.scorer_actor, table=tau.table, body=body)
    ratings_follow(club=club)
    monkeypatch.setattr(services, "REREAD_ALL", 0)
    round_void(actor=jie_long.director_actor, round=rounds[0], reason="misdeal")
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={"points": [34, 12, 2, 18]})
    assert ratings_follow(club=club)["from"] == rounds[0].pk
    followed = _state(club)
    ratings_rebuild(actor=jie_long.director_actor, club=club)
    assert _state(club) == followed
