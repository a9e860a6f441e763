"""Players proving who they are: a personal code (4 to 6 digits) per player of a club, typed at
the table or on the player's page, or a phone that remembers the player who proved themselves
on it.

Pure: what a proof says, what a code looks like, and what a code proves by where it came from
(``first_code_refusal``, ``confirm_refusal``): a code the director issued proves the player; a
code set at first use on a scorer page proves only that someone at the table chose it, so it
confirms a deal only when it was set before the deal was entered, on another phone. The
services check a proof against the player's stored hash (and an entry's legacy one) (``scoring.services.players``); the
HTTP edge reads the phone's signed cookie (``scoring.web.player_proof``) and counts wrong codes
(``scoring.web.throttling``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Collection

from django.utils.translation import gettext

#: A personal code: 4 to 6 ASCII digits (no "٣" or "１": the phone's keypad types ASCII).
CODE_PATTERN = r"\A[0-9]{4,6}\Z"
_CODE = re.compile(CODE_PATTERN)
#: How many digits a code issued by the director has.
ISSUED_CODE_DIGITS = 6

#: The error codes of a proof refused (the API documents them; the pages say them in words).
WRONG_CODE = "wrong_player_code"
PROOF_REQUIRED = "player_proof_required"
CODE_NOT_SET = "player_code_not_set"
SELF_CONFIRMATION = "self_confirmation"
#: A phone that has proven a player (or entered a deal as one) sets no other player's first code.
PHONE_PROVES_ANOTHER = "phone_proves_another_player"
#: A code set at first use after the deal was entered does not confirm it.
CODE_SET_AFTER_DEAL = "code_set_after_deal"
#: A code set at first use on the phone that entered the deal (or one not told apart from it).
CODE_SET_ON_ENTERING_PHONE = "code_set_on_entering_phone"

#: How a code came to be (``Player.code_origin``): none yet, from the director (issued on a card or
#: typed by them), or set by someone at the table at first use.
ORIGIN_NONE = ""
ORIGIN_DIRECTOR = "director"
ORIGIN_FIRST_USE = "first_use"


def is_code(value: Any) -> bool:
    """Whether ``value`` has the shape of a personal code (text of 4 to 6 ASCII digits)."""
    return isinstance(value, str) and bool(_CODE.match(value))


def code_shape_message() -> str:
    return gettext("A personal code is 4 to 6 digits.")


@dataclass(frozen=True)
class PlayerProof:
    """The proof offered for the player at a seat (the seat is named beside it: ``entered_by``,
    ``confirmed_by``): the ``code`` typed, or ``remembered``, the ``(player id, code version)``
    that a phone's signed cookie holds (its signature is checked by the HTTP edge before it
    gets here)."""

    code: Any = None
    remembered: tuple[int, int] | None = None

    @property
    def typed(self) -> bool:
        """Whether a code was typed (and so could be a guess, counted by the edge)."""
        return self.remembered is None


def first_code_refusal(*, player_id: int, proven_here: Collection[int],
                       entered_as: Collection[int | None]) -> str | None:
    """Why this phone may not set the first code of player ``player_id`` (an error code), or None.

    ``proven_here``: the players this phone has proven in the club (a code typed or set on it,
    its memory); ``entered_as``: the players of the proven enterers of the deals this phone
    entered. Setting a first code
    proves nothing but "someone here chose it": a phone already speaking for one player that
    could also choose another's code would confirm its own deals as them."""
    if any(e != player_id for e in proven_here) or any(e != player_id for e in entered_as):
        return PHONE_PROVES_ANOTHER
    return None


def confirm_refusal(*, origin: str, code_set_at: datetime | None, code_set_on: str,
                    deal_entered_at: datetime | None, deal_entered_on: str) -> str | None:
    """Why the confirmer's code cannot confirm a deal (an error code), or None when it can.

    A code from the director confirms. A code set at first use confirms only a deal entered after
    it was set, from another phone than the one it was set on: else the phone that entered the
    deal could have chosen the confirmer's code itself. An unknown phone (a deal entered through
    the API, a code set before phones were told apart) is not known to be another one."""
    if origin == ORIGIN_DIRECTOR:
        return None
    if code_set_at is None or deal_entered_at is None or not code_set_at < deal_entered_at:
        return CODE_SET_AFTER_DEAL
    if not code_set_on or not deal_entered_on or code_set_on == deal_entered_on:
        return CODE_SET_ON_ENTERING_PHONE
    return None
