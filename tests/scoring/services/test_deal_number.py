"""The same deal never twice: a deal sent with its ``number`` is recorded only as that deal."""

from __future__ import annotations

import pytest

from scoring.domain.errors import Conflict, ValidationFailed
from scoring.models import Round
from scoring.services.idempotency import round_record_idempotent
from scoring.services.rounds import round_record
from scoring.web.http import status_of

from ..api.test_api import errors_of
from ..bodies import JIE_LONG


@pytest.mark.django_db
def test_the_next_number_is_recorded_and_not_stored_in_the_body(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "number": 1})
    assert rnd.number == 1 and "number" not in rnd.current_revision.body
    assert round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG).number == 2


@pytest.mark.django_db
def test_a_number_taken_meanwhile_is_refused(jie_long):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "number": 1})
    with pytest.raises(Conflict) as e:
        round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "number": 1})
    assert status_of(e.value) == 409
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("number", "deal_number_taken")]
    assert Round.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("number", [0, -1, True, "2", 1.5, None, 2**31])
def test_a_number_that_is_not_a_deal_number_is_refused(jie_long, number):
    with pytest.raises(ValidationFailed) as e:
        round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={**JIE_LONG, "number": number})
    assert [x["path"] for x in e.value.errors] == ["number"]


@pytest.mark.django_db
def test_a_retry_with_its_key_gets_the_stored_answer_before_the_number_check(jie_long):
    s = jie_long
    body = {**JIE_LONG, "number": 1}
    first = round_record_idempotent(actor=s.scorer_actor, table=s.table, body=body, key="k1")
    again = round_record_idempotent(actor=s.scorer_actor, table=s.table, body=dict(body), key="k1")
    assert again.replayed and again.status == 201 and again.body == first.body
    with pytest.raises(Conflict):  # another key: a second phone with the same deal
        round_record_idempotent(actor=s.scorer_actor, table=s.table, body=body, key="k2")
    assert Round.objects.count() == 1


def test_the_api_answers_409_for_a_number_taken(jie_long, scorer_client_for):
    scorer = scorer_client_for(jie_long.token)
    url = f"/api/v1/tables/{jie_long.table.pk}/rounds/"
    a = scorer.post(url, {**JIE_LONG, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="a")
    assert a.status_code == 201 and a.json()["number"] == 1
    b = scorer.post(url, {**JIE_LONG, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="b")
    assert b.status_code == 409 and errors_of(b) == [("number", "deal_number_taken")]
    replay = scorer.post(url, {**JIE_LONG, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="a")
    assert replay.status_code == 201 and replay["Idempotent-Replayed"] == "true"
    c = scorer.post(url, {**JIE_LONG, "number": 2}, format="json")
    assert c.status_code == 201 and c.json()["number"] == 2
    d = scorer.post(url, {**JIE_LONG, "number": "x"}, format="json")
    assert d.status_code == 400 and errors_of(d) == [("number", "bad_type")]
    assert Round.objects.count() == 2
