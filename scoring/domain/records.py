"""Between a request body and the engine's record, and back. Pure: no queries, no writes.

A *body* is what a scorer or the API sends for one deal: the round record (ROUND_RECORD.md)
without ``game``, ``variant`` and ``seats`` (the table knows them), per-seat lists by **table
position**, plus ``leader`` (games with a leader), ``banker`` (games with a banker) and
``entered_by``. The *record* is what the engine reads: seats in playing order, the leader first.
The engine's answer is mapped back to table positions (``result_by_position``).

Services (recording, correcting) and selectors (previews, stored deals) both use this module;
it imports neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

import games
from games import get_game
from games.standings import SeatOutcome, outcomes_by_position, transfers_by_position  # noqa: F401 - kept by name
from scoring.domain.errors import problem
from scoring.domain.inputs import is_int

#: Body fields that are the service's, not the engine's; stripped before evaluation.
BODY_ONLY_FIELDS = ("leader", "banker", "entered_by", "reason")
#: Record fields that the table knows; refused in a body.
TABLE_FIELDS = ("game", "variant", "seats")

#: Top-level result fields holding a record seat index (mapped to a table position).
_SEAT_INDEX_FIELDS = ("winner", "next_leader", "absolute_winner")
#: Top-level result fields a page or the API shows about a deal as a whole.
_OUTCOME_FIELDS = ("winner", "next_leader", "next_banker", "blocked", "suanzhang", "transfers", "target",
                   "colour", "absolute_winner", "group_winners", "house")


def is_seat(value: Any, n: int) -> bool:
    """A table position at a table of ``n`` seats (``True`` is no seat)."""
    return is_int(value, 0, n - 1)


@dataclass
class BuiltRecord:
    """A body turned into an engine record. ``errors`` (body-relative) when it cannot be built."""

    record: dict | None
    body: dict                     # the body as understood: service fields resolved, seats by position
    n: int
    leader: int | None = None      # games with a leader: table position of seats[0]
    banker: int | None = None      # games with a banker: table position of the banker
    entered_by: int | None = None
    rotated: tuple[str, ...] = ()  # per-seat fields rotated into playing order
    errors: list[dict] = field(default_factory=list)

    def record_index(self, position: int) -> int:
        """Index in the record's seats of a table position."""
        return (position - self.leader) % self.n if self.leader is not None else position

    def position(self, index: Any) -> Any:
        """Table position of a record seat index (other values unchanged)."""
        if self.leader is None or not is_int(index):
            return index
        return (self.leader + index) % self.n

    def body_path(self, path: str) -> str:
        """An engine error path, relative to the body."""
        if self.leader is not None:
            m = re.match(r"^([a-z_]+)\[(\d+)\](.*)$", path)
            if m and m.group(1) in self.rotated:
                return f"{m.group(1)}[{self.position(int(m.group(2)))}]{m.group(3)}"
        if re.match(r"^seats(\[\d+\])?$", path):
            return ""
        return path


def round_build_record(*, game: str, variant: dict, names: list[str], body: Any, defaults: dict) -> BuiltRecord:
    """Build the engine record of a deal from a request body.

    ``names``: the players by table position. ``defaults``: ``{"leader", "banker",
    "entered_by"}`` used when the body leaves them out (a new deal: the previous deal's next
    leader or banker; a correction: the corrected deal's own)."""
    info = get_game(game)
    n = len(names)
    if not isinstance(body, dict):
        return BuiltRecord(None, {}, n, errors=[problem("", "not_an_object", gettext("The deal must be a JSON object."))])
    errors: list[dict] = []
    for key in TABLE_FIELDS:
        if key in body:
            errors.append(problem(key, "set_by_table",
                                  f"Leave out {key}: the table knows its game, rules and seats."))
    resolved: dict[str, Any] = {}
    # The seat that starts the deal: the leader of a layout game, the banker where there is one.
    for key, applies, refusal in (("leader", info.has_leader, "leader is the seat position (0 to {last}) that led."),
                                  ("banker", info.has_banker, "banker is the banker's seat position (0 to {last}).")):
        if not applies:
            if key in body:
                errors.append(problem(key, "unknown_field", f"{info.name} has no {key}."))
            continue
        seat = body.get(key, defaults.get(key, 0))
        if seat is None:
            seat = defaults.get(key) or 0
        if not is_seat(seat, n):
            errors.append(problem(key, "bad_seat", refusal.format(last=n - 1)))
        resolved[key] = seat
    entered_by = body.get("entered_by", defaults.get("entered_by"))
    if entered_by is not None and not is_seat(entered_by, n):
        errors.append(problem("entered_by", "bad_seat",
                              f"entered_by is the seat position (0 to {n - 1}) of the player entering the deal."))
    resolved["entered_by"] = entered_by
    content = {k: v for k, v in body.items() if k not in BODY_ONLY_FIELDS and k not in TABLE_FIELDS}
    built = BuiltRecord(None, {**content, **resolved}, n, leader=resolved.get("leader"),
                        banker=resolved.get("banker"), entered_by=entered_by, errors=errors)
    if errors:
        built.leader = built.leader if is_seat(built.leader, n) else None
        return built
    record: dict[str, Any] = {"game": game, "variant": dict(variant)}
    if info.has_leader:
        lead = built.leader
        record["seats"] = [names[(lead + i) % n] for i in range(n)]
        rotated = []
        for key, value in content.items():
            if key in info.per_seat_fields and isinstance(value, list) and len(value) == n:
                record[key] = [value[(lead + i) % n] for i in range(n)]
                rotated.append(key)
            elif key in info.seat_object_fields and isinstance(value, dict) and is_seat(value.get("seat"), n):
                record[key] = {**value, "seat": (value["seat"] - lead) % n}
            else:
                record[key] = value
        built.rotated = tuple(rotated)
    else:
        record["seats"] = list(names)
        if info.has_banker:
            record["banker"] = built.banker
        record.update(content)
    built.record = record
    return built


def body_from_record(record: dict, *, leader: int = 0, banker: int = 0) -> dict:
    """The inverse of ``round_build_record``: a record (seats in playing order) as the body of
    a table whose seats are the record's seats in the same order. With a leader, the record's
    seat 0 led, so it sits at table position ``leader``; with a banker, the seats turn so that
    the record's banker sits at position ``banker``."""
    info = get_game(record["game"])
    n = len(record["seats"])
    content = {k: v for k, v in record.items() if k not in TABLE_FIELDS}
    if info.has_leader:
        shift, body = -leader, {"leader": leader}
    elif info.has_banker:
        shift, body = content.pop("banker") - banker, {"banker": banker}
    else:
        return content
    for key, value in content.items():
        if key in info.per_seat_fields and isinstance(value, list) and len(value) == n:
            body[key] = [value[(p + shift) % n] for p in range(n)]
        elif key in info.seat_object_fields and isinstance(value, dict) and is_seat(value.get("seat"), n):
            body[key] = {**value, "seat": (value["seat"] - shift) % n}
        else:
            body[key] = value
    return body


def built_for_revision(*, game: str, record: dict, body: dict, n: int) -> BuiltRecord:
    """The ``BuiltRecord`` of a stored revision (its body and record), to map its result back."""
    info = get_game(game)
    leader = body.get("leader", 0) if info.has_leader else None
    rotated = tuple(k for k in info.per_seat_fields if k in record) if leader is not None else ()
    return BuiltRecord(record, body, n, leader=leader, banker=body.get("banker"),
                       entered_by=body.get("entered_by"), rotated=rotated)


def result_by_position(*, built: BuiltRecord, result: dict, seats: list) -> tuple[list[dict], dict]:
    """The engine's per-seat results by table position (``players``), and the top-level seat
    indexes mapped to table positions (``outcome``). ``seats``: the table's Seat rows (with
    entry and player) by position."""
    res_seats = result.get("seats", [])
    players = []
    for s in seats:
        i = built.record_index(s.position)
        seat_result = res_seats[i] if i < len(res_seats) else {}
        players.append({"position": s.position, "entry": s.entry_id, "player": s.entry.player_id,
                        "name": s.entry.player.name,
                        **{k: v for k, v in seat_result.items() if k != "name"}})
    outcome: dict[str, Any] = {}
    for key in _OUTCOME_FIELDS:
        if key not in result:
            continue
        value = result[key]
        if key in _SEAT_INDEX_FIELDS:
            value = built.position(value)
        elif key == "suanzhang" and isinstance(value, dict):
            value = {**value, "seat": built.position(value.get("seat"))}
        elif key == "transfers" and isinstance(value, list):
            value = [{**t, "from": built.position(t.get("from")), "to": built.position(t.get("to"))} for t in value]
        elif key == "group_winners" and isinstance(value, list):
            value = [built.position(v) for v in value]
        outcome[key] = value
    return players, outcome


def nets_by_position(*, game: str, body: dict, result: dict, n: int) -> list[int]:
    """Each table position's net in a stored result."""
    leader = body.get("leader", 0) if get_game(game).has_leader else None
    seats = result.get("seats", [])
    out = []
    for pos in range(n):
        i = (pos - leader) % n if leader is not None else pos
        out.append(int(seats[i].get("net", 0)) if i < len(seats) else 0)
    return out


@dataclass
class RoundPreview:
    """A deal evaluated but not stored."""

    ok: bool
    record: dict | None
    result: dict | None
    errors: list[dict]             # body-relative paths
    warnings: list[dict]           # body-relative paths
    body: dict
    leader: int | None
    banker: int | None
    entered_by: int | None
    next_leader: int | None = None
    next_banker: int | None = None
    players: list[dict] = field(default_factory=list)   # by table position
    outcome: dict = field(default_factory=dict)         # seat indexes as table positions

    def as_dict(self) -> dict:
        d = {"ok": self.ok, "record": self.record, "result": self.result, "players": self.players,
             "outcome": self.outcome, "entered_by": self.entered_by, "errors": self.errors,
             "warnings": self.warnings}
        if self.leader is not None:
            d["leader"] = self.leader
        if self.banker is not None:
            d["banker"] = self.banker
        return d


def round_preview(*, game: str, variant: dict, seats: list, body: Any, defaults: dict) -> RoundPreview:
    """Build the record of a body and evaluate it; nothing is stored. ``seats``: the table's
    Seat rows by position (with entry and player)."""
    names = [s.entry.player.name for s in seats]
    built = round_build_record(game=game, variant=variant, names=names, body=body, defaults=defaults)
    if built.errors:
        return RoundPreview(False, None, None, built.errors, [], built.body, built.leader, built.banker,
                            built.entered_by)
    result = games.evaluate(built.record)
    if not result.get("ok"):
        errors = [{**e, "path": built.body_path(e.get("path", ""))} for e in result.get("errors", [])]
        return RoundPreview(False, built.record, result, errors, [], built.body, built.leader, built.banker,
                            built.entered_by)
    warnings = [{**w, "path": built.body_path(w.get("path", ""))} for w in result.get("warnings", [])]
    players, outcome = result_by_position(built=built, result=result, seats=seats)
    return RoundPreview(True, built.record, result, [], warnings, built.body, built.leader, built.banker,
                        built.entered_by, next_leader=outcome.get("next_leader"),
                        next_banker=outcome.get("next_banker"), players=players, outcome=outcome)
