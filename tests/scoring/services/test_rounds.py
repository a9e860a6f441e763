"""Deals: recording, corrections, confirm, void, dispute (scoring/services/rounds.py)."""

from __future__ import annotations

import pytest

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, PreconditionFailed, PreconditionRequired, ValidationFailed
from scoring.models import ActionLog, Round, RoundRevision
from scoring.selectors.audits import round_verify_chain
from scoring.selectors.rounds import round_detail, table_round_preview
from scoring.selectors.tables import round_defaults, table_running_totals
from scoring.services.rounds import (
    round_confirm,
    round_correct,
    round_dispute,
    round_dispute_resolve,
    round_record,
    round_void,
)

from ..bodies import DING_NIU_LED_BY_1, DING_NIU_LED_BY_1_NETS, JIE_LONG, JIE_LONG_NETS, TAU_NGAU_V1, TAU_NGAU_V1_NETS

pytestmark = pytest.mark.django_db


def nets(rnd):
    return [p["net"] for p in round_detail(rnd)["players"]]




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
    assert round_defaults(s.table)["last"] == {"banker": 0}  # the seat the bank has just left
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
