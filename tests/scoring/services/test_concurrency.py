"""Concurrent corrections of one deal: exactly one wins, the others are told the deal changed
(412), nothing crashes, and the history keeps every stored revision, chained."""

from __future__ import annotations

import pytest

from scoring.models import RoundRevision
from scoring.selectors.audits import round_verify_chain
from scoring.selectors.rounds import round_get

from ..bodies import JIE_LONG
from ..concurrency import run_concurrently

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 8


def test_concurrent_corrections_with_the_same_if_match_have_one_winner(jie_long, scorer_client_for, slow_engine):
    s = jie_long
    scorer = scorer_client_for(s.token)
    created = scorer.post(f"/api/v1/tables/{s.table.pk}/rounds/", JIE_LONG, format="json")
    assert created.status_code == 201
    url = f"/api/v1/rounds/{created.json()['id']}/"

    def correct(i):
        client = scorer_client_for(s.token)
        body = {"points": [12, 2, 34, 18], "reason": f"swap, by phone {i}"}
        return client.put(url, body, format="json", HTTP_IF_MATCH='"1"')

    answers = run_concurrently(THREADS, correct)
    statuses = sorted(a.status_code if not isinstance(a, Exception) else repr(a) for a in answers)
    assert statuses == [200] + [412] * (THREADS - 1)
    for a in answers:
        if a.status_code == 412:
            assert a.json()["errors"][0]["code"] == "stale_revision"
    rnd = round_get(created.json()["id"])
    assert list(RoundRevision.objects.filter(round=rnd).values_list("number", flat=True)) == [1, 2]
    assert round_verify_chain(rnd).ok
