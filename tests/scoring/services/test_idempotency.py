"""Exactly once: Idempotency-Key on round creation."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.domain.errors import IdempotencyKeyReused, ValidationFailed
from scoring.models import IdempotencyKey, Round
from scoring.services.idempotency import idempotency_keys_cleanup, round_record_idempotent
from scoring.web.http import status_of

from ..bodies import JIE_LONG
from ..concurrency import run_concurrently


@pytest.mark.django_db
def test_same_key_same_body_replays_the_first_answer(jie_long):
    s = jie_long
    first = round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key="k1")
    again = round_record_idempotent(actor=s.scorer_actor, table=s.table, body=dict(JIE_LONG), key="k1")
    assert not first.replayed and again.replayed
    assert first.status == again.status == 201
    assert first.body == again.body and first.round_id == again.round_id
    assert Round.objects.count() == 1


@pytest.mark.django_db
def test_same_key_other_body_is_refused(jie_long):
    s = jie_long
    round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key="k1")
    with pytest.raises(IdempotencyKeyReused) as e:
        round_record_idempotent(actor=s.scorer_actor, table=s.table, body={"points": [2, 12, 18, 34]},
                                         key="k1")
    assert status_of(e.value) == 422
    assert Round.objects.count() == 1


@pytest.mark.django_db
def test_keys_are_per_table(jie_long, make_setup):
    other = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    round_record_idempotent(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG, key="k1")
    round_record_idempotent(actor=other.scorer_actor, table=other.table, body=JIE_LONG, key="k1")
    assert Round.objects.count() == 2


@pytest.mark.django_db
def test_an_invalid_body_stores_no_key(jie_long):
    s = jie_long
    with pytest.raises(ValidationFailed):
        round_record_idempotent(actor=s.scorer_actor, table=s.table, body={"points": [1]}, key="k1")
    assert not IdempotencyKey.objects.exists()
    ok = round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key="k1")
    assert not ok.replayed


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "   ", "x" * 256])
def test_bad_keys_are_refused(jie_long, key):
    with pytest.raises(ValidationFailed):
        round_record_idempotent(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG, key=key)


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_requests_with_the_same_key_make_one_round(jie_long, slow_engine):
    s = jie_long

    def post(i):
        return round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key="same")

    a, b = run_concurrently(2, post)
    assert not isinstance(a, Exception), a
    assert not isinstance(b, Exception), b
    assert Round.objects.filter(table=s.table).count() == 1
    assert sorted([a.replayed, b.replayed]) == [False, True]
    assert a.body == b.body and a.round_id == b.round_id
    assert IdempotencyKey.objects.filter(table=s.table).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_requests_with_different_keys_make_two_numbered_rounds(jie_long, slow_engine):
    s = jie_long

    def post(i):
        return round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key=f"k{i}")

    results = run_concurrently(2, post)
    assert not any(isinstance(r, Exception) for r in results), results
    assert sorted(Round.objects.filter(table=s.table).values_list("number", flat=True)) == [1, 2]


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
