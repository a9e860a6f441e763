"""What the deal path does without the ORM's help, checked against what the ORM would give: the
scorer link's table read by one SQL statement, the stored answer copied by name rather than
walked field by field, and the deal limit counting new deals only (the key's insert tells)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from scoring.api.rounds import RoundSerializer
from scoring.models import IdempotencyKey, Table
from scoring.selectors.tables import table_by_scorer_token

from ..bodies import DING_NIU_FULL_LOG, JIE_LONG

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_the_scorer_links_table_comes_with_what_the_orm_reads(jie_long):
    t = jie_long.tournament
    t.tie_breaks = ["wins", "net"]
    t.save()
    mine = table_by_scorer_token(jie_long.token)
    orm = Table.objects.select_related("session__tournament__club").get(pk=jie_long.table.pk)
    assert _fields(mine) == _fields(orm)
    assert _fields(mine.session) == _fields(orm.session)
    assert _fields(mine.session.tournament) == _fields(orm.session.tournament)   # JSON, decimals, dates
    assert _fields(mine.session.tournament.club) == _fields(orm.session.tournament.club)
    assert mine.session.tournament.tie_breaks == ["wins", "net"]
    assert table_by_scorer_token(jie_long.token + "x") is None


@pytest.mark.parametrize("game, body", [("jie_long", {**JIE_LONG, "leader": 1, "entered_by": 2}),
                                        ("ding_niu", DING_NIU_FULL_LOG)])
def test_the_stored_answer_copied_by_name_is_what_the_serializer_writes(make_setup, scorer_client_for, game, body):
    s = make_setup(game)
    r = scorer_client_for(s.token).post(f"/api/v1/tables/{s.table.pk}/rounds/", body, format="json",
                                        HTTP_IDEMPOTENCY_KEY="k")
    assert r.status_code == 201, r.json()
    stored = IdempotencyKey.objects.get(key="k").response_body
    assert RoundSerializer.stored(stored) == RoundSerializer(stored).data == r.json()


# An hour's window: a fixed window of a minute may turn during the test on a busy machine.
@override_settings(RATE_LIMITS={"round-create": "2/h"})
def test_the_deal_limit_counts_new_deals_and_not_their_replays(jie_long, scorer_client_for):
    # counted under this test's own prefix (conftest): no count of another test's
    scorer = scorer_client_for(jie_long.token)
    url = f"/api/v1/tables/{jie_long.table.pk}/rounds/"
    assert scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="a").status_code == 201
    for _ in range(3):   # retries of a stored deal: answered from the store, never counted
        r = scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="a")
        assert r.status_code == 201 and r["Idempotent-Replayed"] == "true"
    assert scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="b").status_code == 201
    refused = scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="c")
    assert refused.status_code == 429
    assert not IdempotencyKey.objects.filter(key="c").exists()   # refused: its key's insert undone
    assert scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="a").status_code == 201  # still a replay


def test_a_new_deal_is_stored_pointing_at_its_first_revision(jie_long):
    """On PostgreSQL the pointer is written by the deal's INSERT, before its revision exists."""
    from scoring.models import Round, RoundRevision
    from scoring.selectors.audits import round_verify_chain
    from scoring.services.rounds import round_record

    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    stored = Round.objects.get(pk=rnd.pk)
    first = RoundRevision.objects.get(round=stored, number=1)
    assert stored.current_revision_id == first.pk == rnd.current_revision.pk
    assert (stored.created_at, stored.updated_at) == (rnd.created_at, rnd.updated_at)
    assert round_verify_chain(stored).ok
