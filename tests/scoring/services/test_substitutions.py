"""Substitutions: another player in a seat from the next deal on (scoring/services/substitutions.py)."""

from __future__ import annotations

import pytest

from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.models import ActionLog, Seat, Standing, TournamentEvent
from scoring.selectors.player_stats import player_stats
from scoring.selectors.ratings import rated_keys, rating_deals
from scoring.selectors.rounds import round_detail
from scoring.selectors.standings import standings_for, tournament_figures
from scoring.services.clubs import player_create
from scoring.services.roster import entry_withdraw
from scoring.services.rounds import round_confirm, round_correct, round_record, round_void
from scoring.services.sessions import session_close
from scoring.services.standings import standings_refresh
from scoring.services.substitutions import table_substitute
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create, tournament_finish, tournament_update

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db

#: Other points: nets 22, 6, -66, 38 instead of 58, 18, -70, -6.
JIE_LONG_LOWER = {"points": [8, 12, 30, 4]}


def _newcomer(s, name="Eve"):
    player = player_create(actor=s.director_actor, club=s.tournament.club, name=name)
    return entry_create(actor=s.director_actor, tournament=s.tournament, player=player)


def _figures(s):
    return {r["name"]: (r["net"], r["deals"]) for r in standings_for(s.tournament)}


def test_the_newcomer_plays_from_the_next_deal_and_the_deals_before_keep_theirs(jie_long):
    s = jie_long
    eve = _newcomer(s)
    for _ in range(2):
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    sub = table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=eve.pk)
    assert (sub.seat, sub.from_deal, sub.entry_out_id, sub.entry_in_id) == (0, 3, s.entries[0].pk, eve.pk)
    assert Seat.objects.get(table=s.table, position=0).entry_id == eve.pk
    third = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    assert third.current_revision.record["seats"][0] == "Eve"
    assert _figures(s)["Anna"] == (116, 2) and _figures(s)["Eve"] == (58, 1) and _figures(s)["Bob"] == (54, 3)
    # the kept standings equal a recomputation: nothing to repair
    standings_refresh(tournament=s.tournament)
    assert not ActionLog.objects.filter(action=ActionLog.Action.STANDINGS_REPAIR).exists()
    assert tournament_figures(s.tournament)[eve.pk].deals == 1
    log = ActionLog.objects.get(action=ActionLog.Action.TABLE_SUBSTITUTE)
    assert log.data == {"table": s.table.pk, "seat": 0, "from_deal": 3, "entry_out": s.entries[0].pk,
                        "name_out": "Anna", "entry_in": eve.pk, "name_in": "Eve"}
    assert TournamentEvent.objects.filter(tournament=s.tournament, kind="table_substituted").count() == 1


def test_a_correction_of_an_earlier_deal_keeps_the_player_who_played_it(jie_long):
    s = jie_long
    eve = _newcomer(s)
    first = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=eve)
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_correct(actor=s.director_actor, round=first, body=JIE_LONG_LOWER, reason="Anna miscounted",
                  expected_revision=1)
    first.refresh_from_db()
    assert first.current_revision.record["seats"] == ["Anna", "Bob", "Celine", "Dominic"]
    assert [p["name"] for p in round_detail(first)["players"]] == ["Anna", "Bob", "Celine", "Dominic"]
    assert _figures(s)["Anna"] == (22, 1) and _figures(s)["Eve"] == (58, 1) and _figures(s)["Dominic"] == (32, 2)
    standings_refresh(tournament=s.tournament)
    assert not ActionLog.objects.filter(action=ActionLog.Action.STANDINGS_REPAIR).exists()


def test_a_void_of_an_earlier_deal_takes_it_from_the_player_who_played_it(jie_long):
    s = jie_long
    eve = _newcomer(s)
    first = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=eve)
    third_at = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG).created_at
    round_void(actor=s.director_actor, round=first, reason="misdeal")
    assert _figures(s)["Anna"] == (0, 0) and _figures(s)["Eve"] == (58, 1)
    kept = {r.entry_id: r.last_deal_at for r in Standing.objects.filter(tournament=s.tournament)}
    assert kept[s.entries[0].pk] is None and kept[eve.pk] == third_at == kept[s.entries[1].pk]
    standings_refresh(tournament=s.tournament)
    assert not ActionLog.objects.filter(action=ActionLog.Action.STANDINGS_REPAIR).exists()


def test_player_stats_and_ratings_credit_each_deal_to_who_played_it(jie_long):
    s = jie_long
    tournament_update(actor=s.director_actor, tournament=s.tournament, rated=True)
    eve = _newcomer(s)
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=eve)
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG_LOWER)
    assert player_stats(s.entries[0].player, public_only=False)["overall"]["deals"] == 1
    assert player_stats(eve.player, public_only=False)["overall"]["deals"] == 1
    club = s.tournament.club
    deals = rating_deals(club, from_round=0, counted=rated_keys(club))
    anna, eve_player = s.entries[0].player_id, eve.player_id
    assert [(anna in d.players, eve_player in d.players) for d in deals] == [(True, False), (False, True)]


def test_refused_while_a_deal_waits_for_its_confirmation(make_setup):
    s = make_setup("jie_long", require_confirmation=True)
    eve = _newcomer(s)
    deal = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    with pytest.raises(Conflict) as e:
        table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=eve)
    assert e.value.errors[0]["code"] == "round_unconfirmed"
    round_confirm(actor=s.scorer_actor, round=deal, confirmed_by=1)
    assert table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=eve).from_deal == 2


def test_refusals(make_setup, jie_long):
    s = jie_long
    eve = _newcomer(s)
    with pytest.raises(ValidationFailed) as e:
        table_substitute(actor=s.director_actor, table=s.table, seat=4, entry=eve)
    assert (e.value.errors[0]["code"], e.value.errors[0]["path"]) == ("bad_seat", "seat")
    with pytest.raises(ValidationFailed) as e:
        table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=s.entries[1])
    assert e.value.errors[0]["code"] == "already_seated"
    other = make_setup("jie_long")
    with pytest.raises(ValidationFailed) as e:
        table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=other.entries[0].pk)
    assert (e.value.errors[0]["code"], e.value.errors[0]["path"]) == ("not_found", "player")
    with pytest.raises(PermissionDenied):
        table_substitute(actor=s.scorer_actor, table=s.table, seat=0, entry=eve)
    frank = _newcomer(s, "Frank")
    entry_withdraw(actor=s.director_actor, entry=frank)
    with pytest.raises(ValidationFailed) as e:
        table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=frank)
    assert e.value.errors[0]["code"] == "withdrawn"


def test_refused_for_a_player_seated_at_another_table_of_the_session(jie_long):
    s = jie_long
    others = [_newcomer(s, n) for n in ("Eve", "Frank", "Gus", "Hal")]
    table_create(actor=s.director_actor, tournament=s.tournament, name="Table 2", entries=others)
    with pytest.raises(ValidationFailed) as e:
        table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=others[0])
    assert e.value.errors[0]["code"] == "already_seated"


def test_refused_at_a_closed_session_and_in_a_finished_tournament(jie_long):
    s = jie_long
    eve = _newcomer(s)
    session_close(actor=s.director_actor, session=s.table.session)
    with pytest.raises(Conflict) as e:
        table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=eve)
    assert e.value.errors[0]["code"] == "session_closed"
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    with pytest.raises(Conflict) as e:
        table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=eve)
    assert e.value.errors[0]["code"] == "tournament_finished"
    assert not s.table.substitutions.exists()


def test_refused_before_the_tournament_starts(make_setup):
    s = make_setup("jie_long", start=False)
    with pytest.raises(Conflict) as e:
        table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=_newcomer(s))
    assert e.value.errors[0]["code"] == "tournament_not_running"


def test_the_player_who_left_may_come_back(jie_long):
    s = jie_long
    eve = _newcomer(s)
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=eve)
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    table_substitute(actor=s.director_actor, table=s.table, seat=0, entry=s.entries[0])
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    assert _figures(s)["Anna"] == (116, 2) and _figures(s)["Eve"] == (58, 1)
    standings_refresh(tournament=s.tournament)
    assert not ActionLog.objects.filter(action=ActionLog.Action.STANDINGS_REPAIR).exists()
