"""Exactly once: Idempotency-Key on round creation."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

import games
from scoring import services
from scoring.errors import IdempotencyKeyReused, ValidationFailed
from scoring.http import status_of
from scoring.models import IdempotencyKey, Round

from .bodies import JIE_LONG


@pytest.mark.django_db
def test_same_key_same_body_replays_the_first_answer(jie_long):
    s = jie_long
    first = services.round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key="k1")
    again = services.round_record_idempotent(actor=s.scorer_actor, table=s.table, body=dict(JIE_LONG), key="k1")
    assert not first.replayed and again.replayed
    assert first.status == again.status == 201
    assert first.body == again.body and first.round_id == again.round_id
    assert Round.objects.count() == 1


@pytest.mark.django_db
def test_same_key_other_body_is_refused(jie_long):
    s = jie_long
    services.round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key="k1")
    with pytest.raises(IdempotencyKeyReused) as e:
        services.round_record_idempotent(actor=s.scorer_actor, table=s.table, body={"points": [2, 12, 18, 34]},
                                         key="k1")
    assert status_of(e.value) == 422
    assert Round.objects.count() == 1


@pytest.mark.django_db
def test_keys_are_per_table(jie_long, make_setup):
    other = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    services.round_record_idempotent(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG, key="k1")
    services.round_record_idempotent(actor=other.scorer_actor, table=other.table, body=JIE_LONG, key="k1")
    assert Round.objects.count() == 2


@pytest.mark.django_db
def test_an_invalid_body_stores_no_key(jie_long):
    s = jie_long
    with pytest.raises(ValidationFailed):
        services.round_record_idempotent(actor=s.scorer_actor, table=s.table, body={"points": [1]}, key="k1")
    assert not IdempotencyKey.objects.exists()
    ok = services.round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key="k1")
    assert not ok.replayed


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["", "   ", "x" * 256])
def test_bad_keys_are_refused(jie_long, key):
    with pytest.raises(ValidationFailed):
        services.round_record_idempotent(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG, key=key)


def _run_concurrently(n, target):
    """Run ``target(i)`` in ``n`` threads started together; return their results (or exceptions)."""
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i):
        try:
            barrier.wait(timeout=10)
            results[i] = target(i)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            results[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.fixture
def slow_engine(monkeypatch):
    """Hold each evaluation long enough that the two requests overlap inside their transactions."""
    import time

    real = games.evaluate

    def slow(record):
        time.sleep(0.3)
        return real(record)

    monkeypatch.setattr(games, "evaluate", slow)


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_requests_with_the_same_key_make_one_round(jie_long, slow_engine):
    s = jie_long

    def post(i):
        return services.round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key="same")

    a, b = _run_concurrently(2, post)
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
        return services.round_record_idempotent(actor=s.scorer_actor, table=s.table, body=JIE_LONG, key=f"k{i}")

    results = _run_concurrently(2, post)
    assert not any(isinstance(r, Exception) for r in results), results
    assert sorted(Round.objects.filter(table=s.table).values_list("number", flat=True)) == [1, 2]

