"""The moves a deal's row offers on a page (scorer link or director), and a refused move shown
at its row.

Which moves are offered is ``lifecycle.round_moves_allowed``'s answer, the one the services
enforce. A refused move's errors go under the input that caused them (what was typed kept), the
rest in a card at the top of the deal.
"""

from __future__ import annotations

from scoring.domain.actors import Actor
from scoring.domain.errors import DomainError
from scoring.domain.lifecycle import round_moves_open


def with_moves(rows: list[dict], actor: Actor, tournament, *, session=None, failed: dict | None = None) -> list[dict]:
    """``rows`` (deals as the pages list them), each given ``allowed`` (the names of the moves it
    offers) and ``failed`` (``move_failure`` of its deal, else None). ``session``: the deals'
    session (a scorer link's page: a closed one allows fewer moves)."""
    for d in rows:
        d["allowed"] = round_moves_open(d, actor, tournament=tournament, session=session)
        d["failed"] = failed if failed and failed["id"] == d["id"] else None
    return rows


def move_failure(round_id: int, error: DomainError, *, field: str | None = None, value: str = "") -> dict:
    """A refused move of deal ``round_id``: ``errors`` at the move's text input ``field`` (its
    service path), ``value`` what was typed there, ``general`` the other messages."""
    mine = [e for e in error.errors if field and e.get("path") == field]
    return {"id": round_id, "field": field, "value": value, "errors": [e["message"] for e in mine],
            "general": [e["message"] for e in error.errors if e not in mine]}
