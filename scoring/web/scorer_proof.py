"""The scorer page's players' proof, where the tournament requires it: "Who are you?" (pick your
name, type your code, or a new code twice the first time), "Entering as Chen (not you?)", and
who confirms a deal (the player this phone remembers in one tap, or another seat with that
player's code typed on this phone).

The phone's memory is ``scoring.web.player_proof``; the checks are the services'.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring.domain.errors import PermissionDenied
from scoring.domain.proof import PROOF_REQUIRED, PlayerProof
from scoring.selectors.players import has_code
from scoring.web.player_proof import remembered_player


def not_proven() -> PermissionDenied:
    """This phone proves nobody (never told, or the player's code was reset or changed since)."""
    return PermissionDenied(gettext("Say who you are first: pick your name and type your code."),
                            path="entered_by_code", code=PROOF_REQUIRED)


def proof_context(request, table, seats: list, who: dict | None) -> dict:
    """What the page shows of the players' proof: ``proof`` (whether the tournament requires it),
    ``me`` (the player this phone remembers here, or None), ``who`` (the "Who are you?" form:
    each seat's name and whether a code is set, what was picked, the errors)."""
    if not table.session.tournament.require_proof:
        return {"proof": False, "me": None, "who": None}
    who = who or {}
    return {
        "proof": True,
        "me": remembered_player(request, table),
        "who": {"seats": [{"position": s.position, "name": s.entry.player.name, "has_code": has_code(s.entry)}
                          for s in seats],
                "seat": who.get("seat"), "errors": who.get("errors", [])},
    }


def confirming(request, table, confirmed_by: Any) -> tuple[Any, PlayerProof | None]:
    """The seat confirming a deal and its proof, from the confirm form: the player this phone
    remembers (``as_me``, or their own seat picked with no code typed), else the code typed for the
    seat picked. Without proof required: the seat picked, no proof (as before)."""
    if not table.session.tournament.require_proof:
        return confirmed_by, None
    code = (request.POST.get("confirmed_by_code") or "").strip()
    me = remembered_player(request, table)
    if request.POST.get("as_me"):
        if me is None:
            raise not_proven()
        return me.seat, me.proof
    if not code and me is not None and confirmed_by == me.seat:
        return me.seat, me.proof
    return confirmed_by, PlayerProof(code=code)
