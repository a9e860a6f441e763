"""Players proving who they are: a personal code (4 to 6 digits) per entry of a tournament, typed
at the table, or a phone that remembers the player who proved themselves on it.

Pure: what a proof says and what a code looks like. The services check a proof against the
entry's stored hash (``scoring.services.players``); the HTTP edge reads the phone's signed
cookie (``scoring.web.player_proof``) and counts wrong codes (``scoring.web.throttling``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

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


def is_code(value: Any) -> bool:
    """Whether ``value`` has the shape of a personal code (text of 4 to 6 ASCII digits)."""
    return isinstance(value, str) and bool(_CODE.match(value))


def code_shape_message() -> str:
    return gettext("A personal code is 4 to 6 digits.")


@dataclass(frozen=True)
class PlayerProof:
    """The proof offered for the player at a seat (the seat is named beside it: ``entered_by``,
    ``confirmed_by``): the ``code`` typed, or ``remembered``, the ``(entry id, code version)``
    that a phone's signed cookie holds (its signature is checked by the HTTP edge before it
    gets here)."""

    code: Any = None
    remembered: tuple[int, int] | None = None

    @property
    def typed(self) -> bool:
        """Whether a code was typed (and so could be a guess, counted by the edge)."""
        return self.remembered is None
