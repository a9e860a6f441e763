"""A disputed deal is out of the table's hands (``domain.lifecycle.DISPUTE_HOLD``): over the API,
a scorer link's correction, confirmation or void is refused with 409 ``round_disputed`` and
changes nothing; the director still corrects, settles and voids it."""

from __future__ import annotations

import pytest

from scoring.models import ActionLog, Round
from scoring.services.rounds import round_dispute, round_record

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def disputed(setup) -> Round:
    rnd = round_record(actor=setup.scorer_actor, table=setup.table, body={**JIE_LONG, "entered_by": 1})
    return round_dispute(actor=setup.scorer_actor, round=rnd, message="Bob had 6:6")


def codes(response) -> list[str]:
    return [e["code"] for e in response.json()["errors"]]


@pytest.mark.parametrize("move", ["correct", "confirm", "void"])
def test_a_scorer_link_cannot_move_a_disputed_deal(jie_long, scorer_client_for, move):
    rnd = disputed(jie_long)
    logged = ActionLog.objects.count()
    scorer = scorer_client_for(jie_long.token)
    url = f"/api/v1/rounds/{rnd.pk}/"
    if move == "correct":
        r = scorer.put(url, {**JIE_LONG, "points": [2, 12, 30, 22], "reason": "recount"}, format="json",
                       HTTP_IF_MATCH='"1"')
    elif move == "confirm":
        r = scorer.post(f"{url}confirm/", {"confirmed_by": 2}, format="json")
    else:
        r = scorer.post(f"{url}void/", {"reason": "misdeal"}, format="json")
    assert r.status_code == 409 and codes(r) == ["round_disputed"]
    assert "a director must settle it" in r.json()["errors"][0]["message"]
    rnd.refresh_from_db()
    assert (rnd.status, rnd.disputed, rnd.current_revision.number) == (Round.Status.RECORDED, True, 1)
    assert ActionLog.objects.count() == logged


def test_a_scorer_link_still_cannot_void_an_undisputed_deal(jie_long, scorer_client_for):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={**JIE_LONG, "entered_by": 1})
    r = scorer_client_for(jie_long.token).post(f"/api/v1/rounds/{rnd.pk}/void/", {"reason": "x"}, format="json")
    assert r.status_code == 403 and codes(r) == ["permission_denied"]


def test_the_director_corrects_and_settles_a_disputed_deal(jie_long, director_client, scorer_client_for):
    rnd = disputed(jie_long)
    url = f"/api/v1/rounds/{rnd.pk}/"
    r = director_client.put(url, {**JIE_LONG, "entered_by": 1, "points": [2, 12, 30, 22], "reason": "referee"},
                            format="json", HTTP_IF_MATCH='"1"')
    assert r.status_code == 200 and r.json()["revision"] == 2 and r.json()["disputed"] is True
    r = director_client.post(f"{url}resolve/", {"note": "Bob was right"}, format="json")
    assert r.status_code == 200 and r.json()["disputed"] is False
    # settled: the table confirms it again
    r = scorer_client_for(jie_long.token).post(f"{url}confirm/", {"confirmed_by": 2}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "confirmed"


def test_the_director_voids_a_disputed_deal(jie_long, director_client):
    rnd = disputed(jie_long)
    r = director_client.post(f"/api/v1/rounds/{rnd.pk}/void/", {"reason": "misdeal"}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "voided" and r.json()["disputed"] is False
