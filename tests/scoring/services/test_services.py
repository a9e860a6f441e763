"""Services: every operation, including its refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, PreconditionFailed, PreconditionRequired, ValidationFailed
from scoring.models import ActionLog, IdempotencyKey, Round, RoundRevision, Session, Standing, Tournament
from scoring.selectors.audits import round_verify_chain
from scoring.selectors.auth import user_by_api_token
from scoring.selectors.clubs import club_list_for_user
from scoring.selectors.rounds import round_detail, table_round_preview
from scoring.selectors.standings import standings_for
from scoring.selectors.tables import round_defaults, table_by_scorer_token, table_running_totals, table_seats
from scoring.services.auth import (
    DIRECTORS_GROUP,
    auth_token_obtain,
    auth_tokens_cleanup,
    auth_tokens_revoke,
    director_create,
)
from scoring.services.clubs import club_create, player_create
from scoring.services.idempotency import idempotency_keys_cleanup, round_record_idempotent
from scoring.services.rounds import (
    round_confirm,
    round_correct,
    round_dispute,
    round_dispute_resolve,
    round_record,
    round_void,
)
from scoring.services.standings import standings_refresh
from scoring.services.tables import session_create, table_create, table_scorer_token_rotate
from scoring.services.tournaments import (
    entry_create,
    tournament_create,
    tournament_finish,
    tournament_start,
    tournament_update,
)

from ..bodies import DING_NIU_LED_BY_1, DING_NIU_LED_BY_1_NETS, JIE_LONG, JIE_LONG_NETS, TAU_NGAU_V1, TAU_NGAU_V1_NETS

pytestmark = pytest.mark.django_db


def nets(rnd):
    return [p["net"] for p in round_detail(rnd)["players"]]


# --- directors, clubs, players ------------------------------------------------------------------

def test_director_create_makes_a_staff_user_in_the_directors_group(db):
    user = director_create(username="carol", password="carol-secret")
    assert user.is_staff and not user.is_superuser
    assert user.groups.filter(name=DIRECTORS_GROUP).exists()
    assert not user.get_all_permissions()  # every change goes through services; no admin rights
    assert ActionLog.objects.filter(action="director_create", actor_label="system").exists()


def test_director_create_refuses_duplicates_and_short_passwords(director):
    with pytest.raises(Conflict):
        director_create(username="alice", password="another-pass")
    with pytest.raises(ValidationFailed) as e:
        director_create(username="dora", password="short")
    assert e.value.errors[0]["path"] == "password"


def test_director_create_refuses_scorers(jie_long):
    with pytest.raises(PermissionDenied):
        director_create(username="eve", password="eve-secret-1", actor=jie_long.scorer_actor)


def test_club_create_makes_the_creator_a_director(director_actor, director):
    club = club_create(actor=director_actor, name="Dragon Club")
    assert club.slug == "dragon-club"
    assert list(club.directors.all()) == [director]
    again = club_create(actor=director_actor, name="Dragon Club")
    assert again.slug == "dragon-club-2"
    log = ActionLog.objects.get(action="club_create", target_id=str(club.pk))
    assert log.actor_user == director and log.actor_label == "director alice" and log.ip == "127.0.0.1"


@pytest.mark.parametrize("actor", [Actor(), Actor(ip="1.2.3.4")])
def test_club_create_refuses_anonymous(db, actor):
    with pytest.raises(PermissionDenied):
        club_create(actor=actor, name="Nope")


def test_player_create_and_refusals(club, director_actor, other_director):
    p = player_create(actor=director_actor, club=club, name="Mei")
    assert p.club == club
    with pytest.raises(Conflict):
        player_create(actor=director_actor, club=club, name="Mei")
    with pytest.raises(ValidationFailed):
        player_create(actor=director_actor, club=club, name="   ")
    with pytest.raises(PermissionDenied):
        player_create(actor=Actor(user=other_director), club=club, name="Jun")


# --- tournaments --------------------------------------------------------------------------------

def test_tournament_create_fills_variant_defaults(club, director_actor):
    t = tournament_create(actor=director_actor, club=club, name="Spring", game="jie_long",
                                   variant={"arms": 2}, chip_value="0.25", currency="eur")
    assert t.status == Tournament.Status.DRAFT
    assert t.variant == {"voluntary_pass": False, "arms": 2, "settlement": "difference"}
    assert str(t.chip_value) == "0.25" and t.currency == "EUR"
    assert not t.require_confirmation and not t.public


def test_tournament_create_refuses_bad_variants_and_games(club, director_actor):
    with pytest.raises(ValidationFailed) as e:
        tournament_create(actor=director_actor, club=club, name="X", game="jie_long",
                                   variant={"arms": 3, "colour": "red"})
    assert {(x["path"], x["code"]) for x in e.value.errors} == {("variant.arms", "bad_variant"),
                                                                ("variant.colour", "unknown_variant")}
    with pytest.raises(ValidationFailed) as e:
        tournament_create(actor=director_actor, club=club, name="X", game="mahjong")
    assert e.value.errors[0]["path"] == "game"
    with pytest.raises(ValidationFailed):
        tournament_create(actor=director_actor, club=club, name="X", game="jie_long", chip_value="-1")


def test_tournament_create_refuses_directors_of_other_clubs(club, other_director):
    with pytest.raises(PermissionDenied):
        tournament_create(actor=Actor(user=other_director), club=club, name="X", game="jie_long")


def test_tournament_status_pipeline(make_setup):
    s = make_setup("jie_long", start=False)
    with pytest.raises(Conflict):
        tournament_finish(actor=s.director_actor, tournament=s.tournament)
    tournament_start(actor=s.director_actor, tournament=s.tournament)
    assert s.tournament.status == "running" and s.tournament.started_at
    with pytest.raises(Conflict):
        tournament_start(actor=s.director_actor, tournament=s.tournament)
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    assert Tournament.objects.get(pk=s.tournament.pk).status == "finished"
    with pytest.raises(Conflict):
        tournament_finish(actor=s.director_actor, tournament=s.tournament)


def test_tournament_start_refuses_scorers(make_setup):
    s = make_setup("jie_long", start=False)
    with pytest.raises(PermissionDenied):
        tournament_start(actor=s.scorer_actor, tournament=s.tournament)


def test_tournament_update(make_setup):
    s = make_setup("jie_long", start=False)
    tournament_update(actor=s.director_actor, tournament=s.tournament, public=False, variant={"arms": 2})
    t = Tournament.objects.get(pk=s.tournament.pk)
    assert not t.public and t.variant["arms"] == 2
    tournament_start(actor=s.director_actor, tournament=t)
    with pytest.raises(Conflict):
        tournament_update(actor=s.director_actor, tournament=t, variant={"arms": 1})
    with pytest.raises(ValidationFailed):
        tournament_update(actor=s.director_actor, tournament=t, game="ding_niu")


def test_finished_tournament_is_read_only(jie_long, club, director_actor):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    player = player_create(actor=director_actor, club=club, name="Late")
    calls = [
        lambda: round_record(actor=s.director_actor, table=s.table, body=JIE_LONG),
        lambda: round_correct(actor=s.director_actor, round=rnd, body=JIE_LONG, reason="x",
                                       expected_revision=1),
        lambda: round_confirm(actor=s.director_actor, round=rnd),
        lambda: round_void(actor=s.director_actor, round=rnd, reason="x"),
        lambda: round_dispute(actor=s.director_actor, round=rnd, message="x"),
        lambda: entry_create(actor=director_actor, tournament=s.tournament, player=player),
        lambda: table_create(actor=director_actor, tournament=s.tournament, name="T9", entries=s.entries),
        lambda: table_scorer_token_rotate(actor=director_actor, table=s.table),
        lambda: tournament_update(actor=director_actor, tournament=s.tournament, public=False),
        lambda: session_create(actor=director_actor, tournament=s.tournament),
    ]
    for call in calls:
        with pytest.raises(Conflict) as e:
            call()
        assert e.value.errors[0]["code"] == "tournament_finished"


# --- entries, sessions, tables ------------------------------------------------------------------

def test_entry_create_and_refusals(make_setup, club, director_actor, other_director):
    s = make_setup("jie_long", start=False)
    other_club = club_list_for_user(other_director).get()
    stranger = player_create(actor=Actor(user=other_director), club=other_club, name="Stranger")
    with pytest.raises(ValidationFailed):
        entry_create(actor=director_actor, tournament=s.tournament, player=stranger)
    with pytest.raises(Conflict):
        entry_create(actor=director_actor, tournament=s.tournament, player=s.entries[0].player)
    assert Standing.objects.filter(tournament=s.tournament).count() == 4


def test_table_create_seats_entries_in_order_and_hashes_the_token(jie_long):
    s = jie_long
    seats = table_seats(s.table)
    assert [x.entry.player.name for x in seats] == s.names
    assert [x.position for x in seats] == [0, 1, 2, 3]
    assert s.table.session.number == 1
    assert s.token not in s.table.scorer_token_hash and len(s.table.scorer_token_hash) == 64
    assert table_by_scorer_token(s.token) == s.table
    assert not ActionLog.objects.filter(data__icontains=s.token).exists()


def test_table_create_refusals(make_setup, director_actor):
    s = make_setup("ding_niu", start=False)
    with pytest.raises(ValidationFailed) as e:
        table_create(actor=director_actor, tournament=s.tournament, name="T2", entries=s.entries[:3])
    assert e.value.errors[0]["code"] == "wrong_player_count"
    with pytest.raises(ValidationFailed) as e:
        table_create(actor=director_actor, tournament=s.tournament, name="T2",
                              entries=[s.entries[0], s.entries[0], s.entries[1], s.entries[2]])
    assert e.value.errors[0]["path"] == "entries[1]"
    with pytest.raises(ValidationFailed) as e:  # already seated in session 1
        table_create(actor=director_actor, tournament=s.tournament, name="T2", entries=s.entries)
    assert e.value.errors[0]["code"] == "already_seated"
    other = make_setup("ding_niu", names=["W", "X", "Y", "Z"], start=False)
    with pytest.raises(ValidationFailed) as e:
        table_create(actor=director_actor, tournament=s.tournament, name="T2", entries=other.entries)
    assert e.value.errors[0]["code"] == "not_found"
    with pytest.raises(PermissionDenied):
        table_create(actor=s.scorer_actor, tournament=s.tournament, name="T2", entries=s.entries)


def test_table_create_in_a_new_session(jie_long, director_actor):
    s = jie_long
    table, token = table_create(actor=director_actor, tournament=s.tournament, name="Table 1",
                                         entries=list(reversed(s.entries)), session=2)
    assert table.session.number == 2 and token != s.token
    assert Session.objects.filter(tournament=s.tournament).count() == 3 - 1
    assert session_create(actor=director_actor, tournament=s.tournament).number == 3


def test_table_scorer_token_rotate_revokes_the_old_token(jie_long, director_actor):
    s = jie_long
    new = table_scorer_token_rotate(actor=director_actor, table=s.table)
    assert new != s.token
    assert table_by_scorer_token(s.token) is None
    assert table_by_scorer_token(new) == s.table
    with pytest.raises(PermissionDenied):
        table_scorer_token_rotate(actor=s.scorer_actor, table=s.table)


# --- recording ----------------------------------------------------------------------------------

def test_round_record_jie_long(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 1})
    assert (rnd.number, rnd.status, rnd.leader, rnd.entered_by, rnd.next_leader) == (1, "recorded", 0, 1, 0)
    rev = rnd.current_revision
    assert rev.number == 1 and rev.prev_hash == "" and len(rev.hash) == 64
    assert rev.record == {"game": "jie_long", "variant": s.tournament.variant, "seats": s.names, **JIE_LONG}
    assert rev.result["ok"] and rev.engine_version
    assert rev.actor_label.startswith("scorer of table") and rev.actor_user is None
    assert nets(rnd) == JIE_LONG_NETS
    log = ActionLog.objects.get(action="round_record")
    assert log.ip == "10.0.0.7" and log.tournament == s.tournament


def test_round_record_rotates_seats_to_the_leader(jie_long):
    s = jie_long
    body = {"leader": 2, "points": [34, 18, 2, 12]}   # Celine (2) led and has 2 points
    rnd = round_record(actor=s.director_actor, table=s.table, body=body)
    rev = rnd.current_revision
    assert rev.record["seats"] == ["Celine", "Dominic", "Anna", "Bob"]
    assert rev.record["points"] == [2, 12, 34, 18]
    detail = round_detail(rnd)
    assert [(p["position"], p["name"], p["net"]) for p in detail["players"]] == [
        (0, "Anna", -70), (1, "Bob", -6), (2, "Celine", 58), (3, "Dominic", 18)]
    assert detail["outcome"]["winner"] == 2 and rnd.next_leader == 2
    assert {(t["from"], t["to"], t["amount"]) for t in detail["outcome"]["transfers"]} >= {(0, 2, 32)}
    # the next deal defaults to the winner's lead
    assert round_defaults(s.table)["leader"] == 2
    nxt = round_record(actor=s.scorer_actor, table=s.table, body={"points": [34, 18, 2, 12]})
    assert nxt.number == 2 and nxt.leader == 2


def test_round_record_ding_niu_rotates_suanzhang(ding_niu):
    s = ding_niu
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=DING_NIU_LED_BY_1)
    rev = rnd.current_revision
    assert rev.record["seats"] == ["Boris", "Valentine", "George", "Adam"]
    assert rev.record["points"] == [12, 7, 14, 10]
    assert rev.record["suanzhang"] == {"seat": 1}
    assert nets(rnd) == DING_NIU_LED_BY_1_NETS
    detail = round_detail(rnd)
    assert detail["outcome"]["suanzhang"]["seat"] == 2
    assert rnd.next_leader == 2
    assert rev.body["leader"] == 1 and rev.body["points"] == DING_NIU_LED_BY_1["points"]


def test_round_record_ding_niu_moves_are_kept_in_turn_order(ding_niu):
    import json
    from pathlib import Path

    example = json.loads((Path(__file__).parents[2] / "examples" / "ding_niu-layout-a-fours.json").read_text())
    record = example["record"]
    body = {"moves": record["moves"], "left_in_hand": record["left_in_hand"]}
    rnd = round_record(actor=ding_niu.scorer_actor, table=ding_niu.table, body=body)
    assert rnd.current_revision.record["moves"] == record["moves"]
    assert round_detail(rnd)["outcome"]["suanzhang"]["seat"] == 1


def test_round_record_tau_ngau_banker(tau_ngau):
    s = tau_ngau
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=TAU_NGAU_V1)
    assert rnd.current_revision.record["seats"] == s.names
    assert rnd.current_revision.record["banker"] == 0
    assert nets(rnd) == TAU_NGAU_V1_NETS
    assert (rnd.banker, rnd.next_banker) == (0, 1)
    assert round_defaults(s.table)["banker"] == 1
    body = {k: v for k, v in TAU_NGAU_V1.items() if k != "banker"}
    nxt = round_record(actor=s.scorer_actor, table=s.table, body=body)
    assert nxt.banker == 1 and nxt.current_revision.record["banker"] == 1
    assert "leader" not in round_detail(nxt) and round_detail(nxt)["banker"] == 1


def test_round_record_maps_engine_error_paths_to_the_body(jie_long):
    s = jie_long
    with pytest.raises(ValidationFailed) as e:
        round_record(actor=s.scorer_actor, table=s.table, body={"leader": 2, "points": [34, 18, 2, -1]})
    assert [x["path"] for x in e.value.errors] == ["points[3]"]
    assert Round.objects.count() == 0 and RoundRevision.objects.count() == 0


def test_round_record_refusals(jie_long):
    s = jie_long
    cases = [
        ({"game": "jie_long", "seats": ["a"], "variant": {}, "points": [1, 2, 3, 4]}, {"game", "seats", "variant"}),
        ({"points": [2, 12, 34, 18], "colour": "red"}, {"colour"}),   # the engine's unknown_field
        ({"leader": 4, "points": [2, 12, 34, 18]}, {"leader"}),
        ({"leader": True, "points": [2, 12, 34, 18]}, {"leader"}),
        ({"banker": 1, "points": [2, 12, 34, 18]}, {"banker"}),
        ({"entered_by": -1, "points": [2, 12, 34, 18]}, {"entered_by"}),
        ({"points": [2, 12, 34]}, {"points"}),
        (["not", "an", "object"], {""}),
    ]
    for body, paths in cases:
        with pytest.raises(ValidationFailed) as e:
            round_record(actor=s.scorer_actor, table=s.table, body=body)
        assert {x["path"] for x in e.value.errors} == paths, body
    with pytest.raises(ValidationFailed) as e:
        round_record(actor=s.scorer_actor, table=s.table, body={"points": [2, 12, 34, 18], "colour": 1})
    assert e.value.errors[0]["code"] == "unknown_field"
    assert Round.objects.count() == 0


def test_round_record_needs_a_running_tournament(make_setup):
    s = make_setup("jie_long", start=False)
    with pytest.raises(Conflict) as e:
        round_record(actor=s.director_actor, table=s.table, body=JIE_LONG)
    assert e.value.errors[0]["code"] == "tournament_not_running"


def test_scorer_cannot_record_at_another_table(jie_long, make_setup):
    other = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    with pytest.raises(PermissionDenied):
        round_record(actor=other.scorer_actor, table=jie_long.table, body=JIE_LONG)


def test_director_of_another_club_cannot_record(jie_long, other_director):
    with pytest.raises(PermissionDenied):
        round_record(actor=Actor(user=other_director), table=jie_long.table, body=JIE_LONG)


def test_round_numbers_count_up_per_table(jie_long, make_setup):
    other = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    a = [round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG).number
         for _ in range(3)]
    b = round_record(actor=other.scorer_actor, table=other.table, body=JIE_LONG).number
    assert a == [1, 2, 3] and b == 1


def test_round_preview_stores_nothing(jie_long):
    s = jie_long
    p = table_round_preview(table=s.table, body={"leader": 1, "points": [34, 2, 12, 18]})
    assert p.ok and p.leader == 1 and p.record["seats"][0] == "Bob"
    assert [x["net"] for x in p.players] == [-70, 58, 18, -6]
    bad = table_round_preview(table=s.table, body={"points": [1, 1, 1]})
    assert not bad.ok and bad.errors
    assert Round.objects.count() == 0 and ActionLog.objects.filter(action__startswith="round").count() == 0


# --- corrections --------------------------------------------------------------------------------

def test_round_correct_adds_a_chained_revision(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    body = {"leader": 0, "points": [2, 12, 18, 34]}
    rnd = round_correct(actor=s.scorer_actor, round=rnd, body=body, reason="Celine and Dominic swapped",
                                 expected_revision=1)
    revs = list(rnd.revisions.order_by("number"))
    assert [r.number for r in revs] == [1, 2]
    assert revs[1].prev_hash == revs[0].hash and revs[1].reason == "Celine and Dominic swapped"
    assert rnd.current_revision == revs[1]
    assert revs[0].record["points"] == JIE_LONG["points"]   # the old revision is untouched
    assert nets(rnd) == [58, 18, -6, -70]
    assert rnd.entered_by == 0   # kept from the round when the body leaves it out
    assert round_verify_chain(rnd).ok


def test_round_correct_preconditions(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    with pytest.raises(PreconditionRequired):
        round_correct(actor=s.scorer_actor, round=rnd, body=JIE_LONG, reason="x", expected_revision=None)
    round_correct(actor=s.scorer_actor, round=rnd, body=JIE_LONG, reason="x", expected_revision=1)
    with pytest.raises(PreconditionFailed):
        round_correct(actor=s.scorer_actor, round=rnd, body=JIE_LONG, reason="x", expected_revision=1)
    with pytest.raises(ValidationFailed) as e:
        round_correct(actor=s.scorer_actor, round=rnd, body=JIE_LONG, reason=" ", expected_revision=2)
    assert e.value.errors[0]["path"] == "reason"
    with pytest.raises(ValidationFailed) as e:
        round_correct(actor=s.scorer_actor, round=rnd, body={"points": [1]}, reason="x",
                               expected_revision=2)
    assert rnd.revisions.count() == 2


def test_scorer_may_correct_only_until_confirmed(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    round_confirm(actor=s.scorer_actor, round=rnd, confirmed_by=2)
    with pytest.raises(PermissionDenied):
        round_correct(actor=s.scorer_actor, round=rnd, body=JIE_LONG, reason="x", expected_revision=1)
    rnd = round_correct(actor=s.director_actor, round=rnd, body={"points": [2, 12, 18, 34]},
                                 reason="referee", expected_revision=1)
    assert rnd.status == "confirmed" and rnd.confirmed_by_user == s.director


def test_voided_round_cannot_be_corrected(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_void(actor=s.director_actor, round=rnd, reason="misdeal")
    with pytest.raises(Conflict):
        round_correct(actor=s.director_actor, round=rnd, body=JIE_LONG, reason="x", expected_revision=1)


# --- confirm, void, dispute ---------------------------------------------------------------------

def test_round_confirm_by_another_seat(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 1})
    with pytest.raises(ValidationFailed):
        round_confirm(actor=s.scorer_actor, round=rnd, confirmed_by=1)
    with pytest.raises(ValidationFailed):
        round_confirm(actor=s.scorer_actor, round=rnd)
    with pytest.raises(ValidationFailed):
        round_confirm(actor=s.scorer_actor, round=rnd, confirmed_by=7)
    rnd = round_confirm(actor=s.scorer_actor, round=rnd, confirmed_by=3)
    assert (rnd.status, rnd.confirmed_by, rnd.confirmed_by_user) == ("confirmed", 3, None)
    with pytest.raises(Conflict):
        round_confirm(actor=s.director_actor, round=rnd)


def test_scorer_cannot_confirm_without_entered_by(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    with pytest.raises(PermissionDenied):
        round_confirm(actor=s.scorer_actor, round=rnd, confirmed_by=2)
    rnd = round_confirm(actor=s.director_actor, round=rnd)
    assert rnd.status == "confirmed" and rnd.confirmed_by_user == s.director


def test_round_void(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    with pytest.raises(PermissionDenied):
        round_void(actor=s.scorer_actor, round=rnd, reason="x")
    with pytest.raises(ValidationFailed):
        round_void(actor=s.director_actor, round=rnd, reason="")
    rnd = round_void(actor=s.director_actor, round=rnd, reason="misdeal")
    assert rnd.status == "voided" and rnd.void_reason == "misdeal"
    with pytest.raises(Conflict):
        round_void(actor=s.director_actor, round=rnd, reason="again")
    with pytest.raises(Conflict):
        round_confirm(actor=s.director_actor, round=rnd)
    assert [x["total"] for x in table_running_totals(s.table)] == [0, 0, 0, 0]


def test_round_dispute_and_resolve(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    with pytest.raises(PermissionDenied):
        round_dispute_resolve(actor=s.scorer_actor, round=rnd)
    with pytest.raises(Conflict):
        round_dispute_resolve(actor=s.director_actor, round=rnd)
    rnd = round_dispute(actor=s.scorer_actor, round=rnd, message="Bob says he passed")
    assert rnd.disputed and rnd.dispute_message == "Bob says he passed"
    with pytest.raises(Conflict):   # a disputed deal waits for the director
        round_confirm(actor=s.scorer_actor, round=rnd, confirmed_by=1)
    rnd = round_dispute_resolve(actor=s.director_actor, round=rnd, note="checked")
    assert not rnd.disputed
    assert ActionLog.objects.filter(action="round_dispute_resolve", data__note="checked").exists()


# --- standings and housekeeping -----------------------------------------------------------------

def test_standings_refresh_counts_all_but_voided(jie_long):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    r2 = round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    round_void(actor=s.director_actor, round=r2, reason="misdeal")
    standings_refresh(tournament=s.tournament)
    rows = standings_for(s.tournament)
    assert [(r["name"], r["net"], r["deals"]) for r in rows] == [
        ("Anna", 58, 1), ("Bob", 18, 1), ("Dominic", -6, 1), ("Celine", -70, 1)]
    assert str(rows[0]["money"]) == "29.00"


def test_standings_refresh_counts_confirmed_only_when_required(make_setup):
    s = make_setup("jie_long", require_confirmation=True)
    r1 = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    round_confirm(actor=s.scorer_actor, round=r1, confirmed_by=1)
    standings_refresh(tournament=s.tournament)
    assert {r["name"]: r["net"] for r in standings_for(s.tournament)}["Anna"] == 58
    assert [x["total"] for x in table_running_totals(s.table)] == JIE_LONG_NETS


def test_idempotency_keys_cleanup(jie_long):
    s = jie_long
    round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key="old")
    round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key="new")
    IdempotencyKey.objects.filter(key="old").update(created_at=timezone.now() - timedelta(hours=25))
    IdempotencyKey.objects.filter(key="new").update(created_at=timezone.now() - timedelta(hours=23))
    assert idempotency_keys_cleanup() == 1
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["new"]
    with pytest.raises(ValidationFailed):
        idempotency_keys_cleanup(older_than=timedelta(hours=1))


def test_auth_token_obtain_makes_a_new_hashed_expiring_token_each_time(director, settings):
    from scoring.models import ApiToken

    token = auth_token_obtain(username="alice", password="alice-secret-1", ip="10.1.1.1")
    other = auth_token_obtain(username="alice", password="alice-secret-1")
    assert token != other and len(token) >= 40
    assert user_by_api_token(token) == director == user_by_api_token(other)
    stored = ApiToken.objects.filter(user=director)
    assert stored.count() == 2 and not stored.filter(key_hash__in=[token, other]).exists()
    assert all(t.expires_at - t.created_at >= settings.API_TOKEN_TTL - timedelta(seconds=5) for t in stored)
    stored.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert user_by_api_token(token) is None
    assert auth_tokens_cleanup() == 0   # expired for less than a day: kept a little
    with pytest.raises(ValidationFailed):
        auth_token_obtain(username="alice", password="wrong")
    get_user_model().objects.create_user(username="plain", password="plain-secret-1")
    with pytest.raises(PermissionDenied):
        auth_token_obtain(username="plain", password="plain-secret-1")


def test_auth_tokens_revoke_logs_out_everywhere(director, director_actor, other_director):
    mine = [auth_token_obtain(username="alice", password="alice-secret-1") for _ in range(2)]
    theirs = auth_token_obtain(username="bruno", password="bruno-secret-1")
    assert auth_tokens_revoke(actor=director_actor) == 2
    assert [user_by_api_token(t) for t in mine] == [None, None]
    assert user_by_api_token(theirs) == other_director
    assert ActionLog.objects.filter(action="auth_tokens_revoke", data__revoked=2).exists()
    with pytest.raises(PermissionDenied):
        auth_tokens_revoke(actor=Actor(table=None))
