"""What a personal code proves by where it came from (pure): a director's code confirms any deal;
a code set at first use confirms only a deal entered after it, from another phone; a phone that
speaks for one player sets no other player's first code."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from scoring.domain import proof

T = datetime(2025, 3, 1, 14, 0, tzinfo=timezone.utc)
EARLIER, LATER = T - timedelta(minutes=5), T + timedelta(minutes=5)


def refusal(origin=proof.ORIGIN_FIRST_USE, set_at=EARLIER, set_on="phone-b", entered_at=T, entered_on="phone-a"):
    return proof.confirm_refusal(origin=origin, code_set_at=set_at, code_set_on=set_on, deal_entered_at=entered_at,
                                 deal_entered_on=entered_on)


def test_a_code_set_at_first_use_before_the_deal_on_another_phone_confirms():
    assert refusal() is None


@pytest.mark.parametrize("set_at", [LATER, T, None])
def test_a_code_set_at_first_use_once_the_deal_was_entered_does_not(set_at):
    # The attack: enter a deal, then choose another player's first code and confirm as them.
    assert refusal(set_at=set_at) == proof.CODE_SET_AFTER_DEAL


@pytest.mark.parametrize("set_on, entered_on", [("phone-a", "phone-a"), ("", "phone-a"), ("phone-b", "")])
def test_a_code_set_on_the_entering_phone_or_one_not_told_apart_does_not(set_on, entered_on):
    assert refusal(set_on=set_on, entered_on=entered_on) == proof.CODE_SET_ON_ENTERING_PHONE


@pytest.mark.parametrize("set_at, set_on", [(LATER, "phone-a"), (None, ""), (EARLIER, "phone-a")])
def test_a_directors_code_confirms_whenever_and_wherever(set_at, set_on):
    assert refusal(origin=proof.ORIGIN_DIRECTOR, set_at=set_at, set_on=set_on) is None


def test_a_code_of_unknown_origin_is_not_a_directors():
    assert refusal(origin=proof.ORIGIN_NONE, set_at=None, set_on="") == proof.CODE_SET_AFTER_DEAL


def test_a_phone_speaking_for_nobody_else_may_set_a_first_code():
    assert proof.first_code_refusal(player_id=1, proven_here=(), entered_as=()) is None
    # Its own player again (after a reset, say): still theirs.
    assert proof.first_code_refusal(player_id=1, proven_here={1}, entered_as={1}) is None


@pytest.mark.parametrize("proven_here, entered_as", [({2}, ()), ((), {2}), ({1, 2}, ()), ((), {None})])
def test_a_phone_that_proved_or_entered_as_another_may_not(proven_here, entered_as):
    # ``None``: a deal the phone entered without proof: whoever it was, not known to be this player.
    assert proof.first_code_refusal(player_id=1, proven_here=proven_here,
                                    entered_as=entered_as) == proof.PHONE_PROVES_ANOTHER
