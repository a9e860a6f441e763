"""The moves a deal allows (``scoring.domain.lifecycle.round_moves_allowed``): for each status, disputed or not,
for a scorer link and a director; the guard the services call gives the same answer, and the
refusals speak the page's language with their codes unchanged."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.domain.actors import Actor
from scoring.domain.errors import DomainError
from scoring.domain.lifecycle import ROUND_MOVES, round_moves_allowed, round_moves_open
from scoring.models import Round, Table, Tournament
from scoring.services.lifecycle import round_guard

SCORER = Actor(table=Table(pk=1, name="T"))
DIRECTOR = Actor(user=object())  # only the kind of actor counts here, not whose club it is
RUNNING = Tournament(status=Tournament.Status.RUNNING)

MOVES = ("round_correct", "round_confirm", "round_void", "round_dispute", "round_dispute_resolve")
OK = None
DENIED = "permission_denied"
HELD = "round_disputed"

#: (actor, status, disputed) → the code of each move's refusal (in MOVES order), None: allowed.
EXPECTED = {
    ("scorer", "recorded", False): (OK, OK, DENIED, OK, DENIED),
    # a disputed deal is out of the table's hands until a director settles it
    ("scorer", "recorded", True): (HELD, HELD, HELD, OK, DENIED),
    ("scorer", "confirmed", False): ("round_confirmed", "already_confirmed", DENIED, OK, DENIED),
    ("scorer", "confirmed", True): (HELD, HELD, HELD, OK, DENIED),
    ("scorer", "voided", False): ("round_voided", "round_voided", DENIED, "round_voided", DENIED),
    ("scorer", "voided", True): (HELD, HELD, HELD, "round_voided", DENIED),
    ("director", "recorded", False): (OK, OK, OK, OK, "not_disputed"),
    ("director", "recorded", True): (OK, OK, OK, OK, OK),
    ("director", "confirmed", False): (OK, "already_confirmed", OK, OK, "not_disputed"),
    ("director", "confirmed", True): (OK, "already_confirmed", OK, OK, OK),
    ("director", "voided", False): ("round_voided", "round_voided", "round_voided", "round_voided", "not_disputed"),
    ("director", "voided", True): ("round_voided", "round_voided", "round_voided", "round_voided", OK),
}

ACTORS = {"scorer": SCORER, "director": DIRECTOR}


def codes(moves: dict) -> tuple:
    return tuple(None if moves[m] is None else moves[m].code for m in MOVES)


def test_every_move_is_described():
    assert tuple(ROUND_MOVES) == MOVES


@pytest.mark.parametrize("who, status, disputed", list(EXPECTED))
def test_the_moves_of_a_deal(who, status, disputed):
    rnd = Round(status=status, disputed=disputed)
    moves = round_moves_allowed(rnd, ACTORS[who], tournament=RUNNING)
    assert codes(moves) == EXPECTED[who, status, disputed]
    # a deal as the pages list it answers the same
    row = {"status": status, "disputed": disputed}
    assert codes(round_moves_allowed(row, ACTORS[who], tournament=RUNNING)) == EXPECTED[who, status, disputed]
    assert round_moves_open(row, ACTORS[who], tournament=RUNNING) == {
        m for m, code in zip(MOVES, EXPECTED[who, status, disputed]) if code is None}


@pytest.mark.parametrize("who, status, disputed", list(EXPECTED))
def test_the_guard_of_the_services_says_the_same(who, status, disputed):
    """One truth: ``round_guard`` refuses exactly what ``round_moves_allowed`` refuses, with the
    same error and code."""
    rnd = Round(status=status, disputed=disputed)
    for move, code in zip(MOVES, EXPECTED[who, status, disputed]):
        if code is None:
            round_guard(action=move, round=rnd, tournament=RUNNING, actor=ACTORS[who], fresh=False)
            continue
        refusal = round_moves_allowed(rnd, ACTORS[who], tournament=RUNNING)[move]
        with pytest.raises(DomainError) as caught:
            round_guard(action=move, round=rnd, tournament=RUNNING, actor=ACTORS[who], fresh=False)
        assert type(caught.value) is refusal.error and caught.value.errors[0]["code"] == code


@pytest.mark.parametrize("status, code", [(Tournament.Status.DRAFT, "tournament_not_running"),
                                          (Tournament.Status.FINISHED, "tournament_finished")])
def test_nothing_moves_unless_the_tournament_runs(status, code):
    rnd = Round(status="recorded", disputed=True)
    for actor in ACTORS.values():
        moves = round_moves_allowed(rnd, actor, tournament=Tournament(status=status))
        assert codes(moves) == (code,) * len(MOVES)
        with pytest.raises(DomainError) as caught:
            round_guard(action="round_correct", round=rnd, tournament=Tournament(status=status), actor=actor,
                        fresh=False)
        assert caught.value.errors[0]["code"] == code


def test_a_deal_as_a_dict_needs_its_tournament():
    with pytest.raises(TypeError):
        round_moves_allowed({"status": "recorded", "disputed": False}, DIRECTOR)


def test_refusals_speak_the_pages_language_and_keep_their_codes():
    rnd = Round(status="confirmed", disputed=False)
    refusal = round_moves_allowed(rnd, SCORER, tournament=RUNNING)["round_confirm"]
    with translation.override("en"):  # a page answered earlier in this thread may have left another one active
        assert refusal.text == "This deal is already confirmed."
    with translation.override("zh-hans"):
        assert refusal.text == "这一局已经确认过了。"
        with pytest.raises(DomainError) as caught:
            round_guard(action="round_confirm", round=rnd, tournament=RUNNING, actor=SCORER, fresh=False)
    assert caught.value.errors == [{"path": "", "code": "already_confirmed", "message": "这一局已经确认过了。"}]
    with translation.override("zh-hant"):
        finished = round_moves_allowed(rnd, SCORER, tournament=Tournament(status="finished"))["round_dispute"]
        assert finished.text == "這個比賽已結束，只能查看。"
