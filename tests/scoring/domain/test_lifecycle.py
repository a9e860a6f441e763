"""The moves' table and its refusals where they live (``scoring.domain.lifecycle``), over plain
values: one wording per refusal, the same on every page and in the API."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict
from scoring.domain.lifecycle import (
    SESSION_CLOSED,
    TOURNAMENT_MOVES,
    round_moves_allowed,
    session_move_refusal,
    session_refusal,
    tournament_move_refusal,
    tournament_refusal,
)

SCORER = Actor(table=SimpleNamespace(pk=1, name="T"))
DIRECTOR = Actor(user=object())


@pytest.mark.parametrize(("status", "code", "message"), [
    ("draft", "tournament_not_running", "This tournament has not started yet; start it before recording deals."),
    ("finished", "tournament_finished", "This tournament is finished; it is read-only."),
])
def test_a_tournament_not_running_refuses_every_deal_move_in_one_wording(status, code, message):
    refusal = tournament_refusal(status)
    assert (refusal.error, refusal.code, refusal.message) == (Conflict, code, message)
    deal = {"status": "recorded", "disputed": False}
    for actor in (SCORER, DIRECTOR):
        assert set(round_moves_allowed(deal, actor, tournament=SimpleNamespace(status=status)).values()) == {refusal}
    with translation.override("en"), pytest.raises(Conflict) as caught:
        refusal.raise_()
    assert caught.value.errors == [{"path": "", "code": code, "message": message}]


def test_a_running_tournament_refuses_nothing_by_its_status():
    assert tournament_refusal("running") is None


def test_the_tournaments_moves_and_their_refusal():
    assert [(m.source, m.target) for m in TOURNAMENT_MOVES.values()] == [("draft", "running"), ("running", "finished")]
    assert tournament_move_refusal("tournament_start", "draft") is None
    assert tournament_move_refusal("tournament_finish", "draft") == ("Only a running tournament can finish; this one "
                                                                      "is draft.")


def test_a_closed_session_refuses_scorer_links_only():
    assert session_refusal("closed", SCORER) is SESSION_CLOSED
    assert session_refusal("closed", DIRECTOR) is None
    assert session_refusal("open", SCORER) is None
    assert session_move_refusal("session_close", "open") is None
    assert session_move_refusal("session_close", "closed").code == "session_already_closed"
    assert session_move_refusal("session_reopen", "open").code == "session_already_open"
