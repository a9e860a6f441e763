"""Kept standings (applied in each write) always equal a recomputation from scratch, whatever
happens to the deals: records, corrections, confirmations, voids, and the director switching
"count confirmed deals only" on and off, adjustments (fines, bonuses) added and deleted — every figure (net, deals, wins, places, last deal
time) and every row of the ranked standings, in a game with a leader, one with a banker and
one with neither (and a house)."""

from __future__ import annotations

import itertools

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.simulate import simulate
from scoring.domain.actors import Actor
from scoring.domain.errors import DomainError, ValidationFailed
from scoring.domain.records import body_from_record
from scoring.domain.standings import Figures, average_place, rank_rows
from scoring.models import Standing
from scoring.selectors.standings import head_to_head, place_count, standings_for, tournament_figures
from scoring.services.adjustments import adjustment_create, adjustment_delete
from scoring.services.clubs import player_create
from scoring.services.rounds import round_confirm, round_correct, round_record, round_void
from scoring.services.tournaments import entry_create, tournament_update

pytestmark = pytest.mark.django_db

#: Jie Long points a real deal can end with, dealt to the four seats in every order, each led by
#: every seat in turn.
JIE_LONG_BODIES = [{"points": list(p), "leader": lead}
                   for lead, p in zip(itertools.cycle(range(4)), itertools.permutations([2, 12, 34, 18]))]
#: Random legal Tau Ngau deals (v2 stakes), the banker at every seat in turn.
TAU_NGAU_BODIES = [body_from_record(r, banker=i % 4)
                   for i, r in enumerate(simulate("tau_ngau", deals=16, seed=7, players=4))]
#: Random legal Da Ling deals (with the casino chip: nets do not sum to zero).
DA_LING_BODIES = [body_from_record(r) for r in simulate("da_ling", deals=16, seed=7, players=4)]
GAMES = {"jie_long": ({}, JIE_LONG_BODIES), "tau_ngau": ({}, TAU_NGAU_BODIES),
         "da_ling": ({"casino_chip": True}, DA_LING_BODIES)}

OPS = st.one_of(
    st.tuples(st.just("record"), st.integers(0, 23)),
    st.tuples(st.just("correct"), st.integers(0, 9), st.integers(0, 23)),
    st.tuples(st.just("confirm"), st.integers(0, 9), st.integers(1, 3)),
    st.tuples(st.just("void"), st.integers(0, 9)),
    st.tuples(st.just("switch_confirmation"),),
    st.tuples(st.just("adjust"), st.integers(0, 3), st.sampled_from([-20, -5, 3, 10])),
    st.tuples(st.just("unadjust"), st.integers(0, 9)),
)


class Rollback(Exception):
    pass


def _kept(tournament):
    return {s.entry_id: Figures(s.total, s.rounds_counted, s.wins, tuple(getattr(s, f) for f in Standing.PLACES),
                                s.last_deal_at)
            for s in Standing.objects.filter(tournament=tournament)}


def _recomputed(tournament):
    tournament.refresh_from_db()  # which deals count depends on its settings now
    figures = tournament_figures(tournament)
    return {e.pk: figures.get(e.pk, Figures.none()) for e in tournament.entries.all()}


def _rows_from_scratch(tournament):
    """The standings rows a recomputation gives: figures from scratch, ranked the same way."""
    width = place_count(tournament)
    rows = []
    for e in tournament.entries.select_related("player"):
        f = tournament_figures(tournament).get(e.pk, Figures.none())
        avg = average_place(f.places)
        rows.append({"entry": e.pk, "name": e.player.name, "deals": f.deals, "net": f.net, "wins": f.wins,
                     "_average_place": avg, "average_place": None if avg is None else round(float(avg), 3),
                     "places": {str(k): f.places[k - 1] for k in range(1, width + 1)},
                     "last_deal_at": f.last_deal_at})
    rank_rows(rows, tournament.tie_breaks, head_to_head=lambda groups: head_to_head(tournament, groups))
    return [{k: v for k, v in r.items() if k != "_average_place"} for r in rows]


def _shown(rows):
    keys = ("rank", "tied", "entry", "name", "deals", "net", "wins", "average_place", "places", "last_deal_at")
    return [{k: r[k] for k in keys} for r in rows]


def _apply(setup, bodies, op, rounds, adjustments):
    kind = op[0]
    actor = setup.director_actor
    if kind == "adjust":
        adjustments.append(adjustment_create(actor=actor, tournament=setup.tournament, entry=setup.entries[op[1]],
                                             amount=op[2], reason="fine"))
        return
    if kind == "unadjust":
        if adjustments:
            adjustment_delete(actor=actor, adjustment=adjustments[op[1] % len(adjustments)])
        return
    if kind == "record":
        body = {**bodies[op[1] % len(bodies)], "entered_by": 0}
        rounds.append(round_record(actor=setup.scorer_actor, table=setup.table, body=body))
        return
    if kind == "switch_confirmation":
        t = setup.tournament
        t.refresh_from_db()
        tournament_update(actor=actor, tournament=t, require_confirmation=not t.require_confirmation)
        return
    if not rounds:
        return
    rnd = rounds[op[1] % len(rounds)]
    rnd.refresh_from_db()
    if kind == "correct":
        round_correct(actor=actor, round=rnd, body=bodies[op[2] % len(bodies)], reason="fix",
                               expected_revision=rnd.current_revision.number)
    elif kind == "confirm":
        round_confirm(actor=actor, round=rnd, confirmed_by=op[2])
    elif kind == "void":
        round_void(actor=actor, round=rnd, reason="void")


@pytest.mark.parametrize("game", list(GAMES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(ops=st.lists(OPS, max_size=14))
def test_kept_standings_equal_a_recomputation_after_any_sequence(make_setup, game, ops):
    variant, bodies = GAMES[game]
    try:
        with transaction.atomic():
            setup = make_setup(game, variant=variant)
            rounds: list = []
            adjustments: list = []
            for op in ops:
                try:
                    _apply(setup, bodies, op, rounds, adjustments)
                except DomainError:
                    pass  # refused moves (confirm a voided deal, ...) change nothing
                t = setup.tournament
                assert _kept(t) == _recomputed(t), op
                assert _shown(standings_for(t)) == _shown(_rows_from_scratch(t)), op
            raise Rollback
    except Rollback:
        pass


def test_a_void_takes_the_deal_out_and_a_confirmation_puts_it_in(make_setup):
    s = make_setup("jie_long", require_confirmation=True)
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={"points": [2, 12, 34, 18], "entered_by": 0})
    assert set(_kept(s.tournament).values()) == {Figures.none()}
    round_confirm(actor=s.scorer_actor, round=rnd, confirmed_by=1)
    kept = _kept(s.tournament)
    assert sorted((f.net, f.deals, f.wins) for f in kept.values()) == [(-70, 1, 0), (-6, 1, 0), (18, 1, 0),
                                                                        (58, 1, 1)]
    assert {f.last_deal_at for f in kept.values()} == {rnd.created_at}
    assert kept[s.entries[2].pk].places == (0, 0, 0, 1, 0, 0)   # Celine, 34 points: last
    round_void(actor=s.director_actor, round=rnd, reason="wrong table")
    assert set(_kept(s.tournament).values()) == {Figures.none()}


def test_the_last_deal_time_goes_back_when_the_latest_deal_is_voided(jie_long):
    s = jie_long
    first = round_record(actor=s.scorer_actor, table=s.table, body={"points": [2, 12, 34, 18]})
    second = round_record(actor=s.scorer_actor, table=s.table, body={"points": [12, 2, 34, 18]})
    assert {f.last_deal_at for f in _kept(s.tournament).values()} == {second.created_at}
    round_void(actor=s.director_actor, round=second, reason="misdeal")
    assert {f.last_deal_at for f in _kept(s.tournament).values()} == {first.created_at}
    round_void(actor=s.director_actor, round=first, reason="misdeal")
    assert {f.last_deal_at for f in _kept(s.tournament).values()} == {None}


def test_a_correction_moves_the_win_and_the_places(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={"points": [2, 12, 34, 18]})
    round_correct(actor=s.director_actor, round=rnd, body={"points": [12, 2, 34, 18]}, reason="swapped",
                           expected_revision=1)
    by_name = {r["name"]: r for r in standings_for(s.tournament)}
    assert (by_name["Bob"]["wins"], by_name["Bob"]["places"]["1"], by_name["Anna"]["places"]["2"]) == (1, 1, 1)
    assert by_name["Anna"]["wins"] == 0 and by_name["Bob"]["average_place"] == 1.0


def test_tau_ngau_wins_are_positive_nets_and_places_follow_the_nets(tau_ngau):
    from ..bodies import TAU_NGAU_V1, TAU_NGAU_V1_NETS

    s = tau_ngau
    round_record(actor=s.scorer_actor, table=s.table, body=TAU_NGAU_V1)
    by_name = {r["name"]: r for r in standings_for(s.tournament)}
    nets = dict(zip(s.names, TAU_NGAU_V1_NETS))             # Bank 17, Six −4, One −9, NoBull −4
    assert {n: by_name[n]["net"] for n in s.names} == nets
    assert {n: by_name[n]["wins"] for n in s.names} == {"Bank": 1, "Six": 0, "One": 0, "NoBull": 0}
    assert {n: by_name[n]["average_place"] for n in s.names} == {"Bank": 1.0, "Six": 2.0, "One": 4.0, "NoBull": 2.0}
    assert by_name["Bank"]["places"] == {"1": 1, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0}   # up to six seats


# --- ranking: tie-breaks and shared ranks --------------------------------------------------------

#: Ding Niu points (Adam, Boris, Valentine, George at positions 0..3, Adam leading) giving places
#: 1st 0, 2nd 7, 3rd 10, 4th 14; the winner takes 1, 2 and 3 from 2nd, 3rd and 4th (DN-4).
DN_X = {"points": [0, 7, 10, 14]}    # Adam wins; Boris 2nd pays him 1
DN_Y = {"points": [14, 0, 7, 10]}    # Boris wins; Adam last pays him 3
DN_Z = {"points": [7, 14, 10, 0]}    # George wins; Adam 2nd, Boris last
DN_W = {"points": [7, 10, 14, 0]}    # George wins; Adam 2nd, Boris 3rd


def _ranking(tournament, tie_breaks):
    tournament_update(actor=Actor.system(), tournament=tournament, tie_breaks=tie_breaks)
    tournament.refresh_from_db()
    return [(r["name"], r["rank"], r["tied"]) for r in standings_for(tournament)]


def test_head_to_head_ranks_a_tie_by_the_money_between_the_tied(ding_niu):
    s = ding_niu
    for body in (DN_X, DN_Y, DN_Z, DN_W):
        round_record(actor=s.scorer_actor, table=s.table, body=body)
    # Nets: George 7, Adam 1, Boris 0, Valentine −8; wins: George 2, Adam 1, Boris 1, Valentine 0.
    assert _ranking(s.tournament, ["net", "wins", "average_place"]) == [
        ("George", 1, False), ("Adam", 2, False), ("Boris", 3, False), ("Valentine", 4, False)]
    # Level on wins, Adam and Boris met: Boris took 3 from Adam, Adam 1 from Boris.
    assert _ranking(s.tournament, ["wins", "head_to_head"]) == [
        ("George", 1, False), ("Boris", 2, False), ("Adam", 3, False), ("Valentine", 4, False)]
    rows = {r["name"]: r for r in standings_for(s.tournament)}
    assert (rows["Boris"]["head_to_head"], rows["Adam"]["head_to_head"]) == (2, -2)
    assert "head_to_head" not in rows["George"] or rows["George"]["head_to_head"] == 0
    assert _ranking(s.tournament, ["wins", "net"]) == [
        ("George", 1, False), ("Adam", 2, False), ("Boris", 3, False), ("Valentine", 4, False)]


def test_ties_left_after_every_key_share_a_rank(ding_niu):
    s = ding_niu
    round_record(actor=s.scorer_actor, table=s.table, body=DN_X)
    # Adam won; the other three never paid one another: head-to-head leaves them level.
    assert _ranking(s.tournament, ["wins", "head_to_head"]) == [
        ("Adam", 1, False), ("Boris", 2, True), ("George", 2, True), ("Valentine", 2, True)]
    assert _ranking(s.tournament, ["deals"]) == [
        ("Adam", 1, True), ("Boris", 1, True), ("George", 1, True), ("Valentine", 1, True)]


def test_average_place_ranks_lower_first_and_no_places_last(jie_long):
    s = jie_long
    for points in ([10, 10, 20, 20], [20, 20, 10, 10], [20, 20, 20, 20]):
        round_record(actor=s.scorer_actor, table=s.table, body={"points": points, "leader": 0})
    # Every net 0; places (Anna leads each time; ties to the lower hand, CG-14): Anna 1, 3, 1;
    # Bob 2, 4, 2; Celine 3, 1, 3; Dominic 4, 2, 4.
    rows = standings_for(s.tournament)
    assert {r["name"]: r["average_place"] for r in rows} == {"Anna": 1.667, "Bob": 2.667, "Celine": 2.333,
                                                             "Dominic": 3.333}
    assert _ranking(s.tournament, ["net", "average_place"]) == [
        ("Anna", 1, False), ("Celine", 2, False), ("Bob", 3, False), ("Dominic", 4, False)]


def test_deals_played_rank_more_first_and_an_entry_without_deals_comes_last(jie_long, director_actor, club):
    s = jie_long
    late = entry_create(actor=director_actor, tournament=s.tournament,
                                 player=player_create(actor=director_actor, club=club, name="Late"))
    round_record(actor=s.scorer_actor, table=s.table, body={"points": [20, 20, 20, 20]})
    rows = {r["name"]: r for r in standings_for(s.tournament)}
    assert (rows["Late"]["deals"], rows["Late"]["average_place"], rows["Late"]["last_deal_at"]) == (0, None, None)
    assert _ranking(s.tournament, ["net", "deals"])[-1] == ("Late", 5, False)
    assert _ranking(s.tournament, ["average_place"])[-1] == ("Late", 5, False)
    assert late.pk in {r["entry"] for r in standings_for(s.tournament)}


def test_tie_breaks_are_checked(jie_long):
    t = jie_long.tournament
    assert t.tie_breaks == ["net", "wins", "average_place"]
    for bad, code in [([], "bad_type"), ("net", "bad_type"), (["net", "luck"], "unknown_tie_break"),
                      (["net", "net"], "duplicate"), (["head_to_head", "net"], "head_to_head_first"),
                      ([1], "unknown_tie_break")]:
        with pytest.raises(ValidationFailed) as e:
            tournament_update(actor=jie_long.director_actor, tournament=t, tie_breaks=bad)
        assert e.value.errors[0]["code"] == code, bad
    tournament_update(actor=jie_long.director_actor, tournament=t,
                               tie_breaks=["wins", "head_to_head", "deals", "average_place", "net"])
    t.refresh_from_db()
    assert t.tie_breaks == ["wins", "head_to_head", "deals", "average_place", "net"]


@pytest.mark.parametrize("require_confirmation", [False, True])
def test_the_counted_filter_picks_the_deals_the_rule_counts(make_setup, require_confirmation):
    """The query form of ``counts_round``, for one tournament and for many at once, picks the same deals."""
    from scoring.domain.standings import counts_round
    from scoring.models import Round
    from scoring.selectors.standings import counted_rounds_filter

    s = make_setup("jie_long", require_confirmation=require_confirmation)
    kept, confirmed, voided = (round_record(actor=s.scorer_actor, table=s.table,
                                            body={"points": [2, 12, 34, 18], "entered_by": 0}) for _ in range(3))
    round_confirm(actor=s.scorer_actor, round=confirmed, confirmed_by=1)
    round_void(actor=s.director_actor, round=voided, reason="wrong table")
    deals = Round.objects.filter(table=s.table)
    by_rule = {r.pk for r in deals if counts_round(s.tournament, r)}
    assert by_rule == ({confirmed.pk} if require_confirmation else {kept.pk, confirmed.pk})
    assert set(deals.filter(counted_rounds_filter(s.tournament)).values_list("pk", flat=True)) == by_rule
    assert set(deals.filter(counted_rounds_filter()).values_list("pk", flat=True)) == by_rule
