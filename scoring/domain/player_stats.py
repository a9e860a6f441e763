"""A player's statistics from their stored deals: plain rows in, figures out. Pure: no queries.

Every figure is read from what the engine stored for a counted deal (its result, and the body's
``leader``), never re-typed: places and wins by ``Game.deal_places`` (``records.outcomes_by_position``),
Ding Niu's ``suanzhang``, Tau Ngau's ``bull``/``best_value``/``banker`` and its ``suboptimal``
warnings, and the connecting games' ``must_play`` warnings of a full log (level ``moves``).
The selector (``scoring.selectors.player_stats``) reads the rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from games import get_game
from scoring.domain.records import outcomes_by_position

#: A warning's path that names a record seat: ``declared[2].bull`` (a seat index) or
#: ``moves[5]`` (a move index: seat = index mod n).
_INDEXED = re.compile(r"^(declared|moves)\[(\d+)\]")


@dataclass(frozen=True)
class DealRow:
    """One counted deal as one player sat at it. ``position``: their table position; ``n``:
    the table's seats; ``leader``: the body's ``leader``; ``result``: the stored result."""

    game: str
    tournament: int
    session: int
    session_number: int
    position: int
    n: int
    leader: Any
    result: dict


@dataclass
class Figures:
    """The figures over some deals (one game's, or all). The game sections are None where the
    game has no such thing."""

    deals: int = 0
    sessions: int = 0
    placed: int = 0
    place_sum: int = 0
    firsts: int = 0
    wins: int = 0
    net: int = 0
    chips_won: int = 0
    chips_lost: int = 0
    best_session: dict | None = None
    suanzhang: dict | None = None   # {"caused", "suffered"}
    bulls: dict | None = None       # {"hands", "possible", "found", "best_found", "suboptimal"}
    banker: dict | None = None      # {"deals", "net", "won"}
    must_play: dict | None = None   # {"full_logs", "warnings"}
    _session_nets: dict = field(default_factory=dict, repr=False)

    @property
    def average_place(self) -> Decimal | None:
        """Sum of places / deals placed, 3 decimals; None when no deal placed the player."""
        if not self.placed:
            return None
        return (Decimal(self.place_sum) / Decimal(self.placed)).quantize(Decimal("0.001"))

    def as_dict(self) -> dict:
        avg = self.average_place
        out = {"deals": self.deals, "sessions": self.sessions, "average_place": None if avg is None else float(avg),
               "firsts": self.firsts, "wins": self.wins, "net": self.net, "chips_won": self.chips_won,
               "chips_lost": self.chips_lost, "best_session": self.best_session}
        for key in ("suanzhang", "bulls", "banker", "must_play"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def _record_index(info, row: DealRow) -> int:
    """The player's index in the record's (and result's) seats."""
    shift = (row.leader or 0) if info.has_leader else 0
    return (row.position - shift) % row.n


def _warning_seat(path: str, n: int) -> int | None:
    m = _INDEXED.match(path or "")
    if not m:
        return None
    index = int(m.group(2))
    return index % n if m.group(1) == "moves" else index


def _add(f: Figures, row: DealRow, info, key: tuple, outcome) -> None:
    """Count one deal in ``f``, the player's ``outcome`` in it (``outcomes_by_position``)."""
    result = row.result
    seats = result.get("seats") or []
    f.deals += 1
    f.net += outcome.net
    f.chips_won += max(outcome.net, 0)
    f.chips_lost += max(-outcome.net, 0)
    f.wins += outcome.win
    if outcome.place is not None:
        f.placed += 1
        f.place_sum += outcome.place
        f.firsts += outcome.place == 1
    f._session_nets.setdefault(key, [0, 0])
    f._session_nets[key][0] += outcome.net
    f._session_nets[key][1] += 1
    me = _record_index(info, row)
    warnings = result.get("warnings") or []
    if f.suanzhang is not None:
        sz = result.get("suanzhang")
        if isinstance(sz, dict) and sz.get("seat") is not None:
            if sz["seat"] == me:
                f.suanzhang["caused"] += 1
            elif outcome.net < 0:
                f.suanzhang["suffered"] += 1
    if f.bulls is not None:
        seat = seats[me] if me < len(seats) else {}
        if "best_value" in seat:  # the hands were entered: the engine knows the best bull
            b = f.bulls
            b["hands"] += 1
            if seat["best_value"] > 0:
                b["possible"] += 1
                b["found"] += seat.get("bull") is not None
                b["best_found"] += seat.get("value") == seat["best_value"]
        f.bulls["suboptimal"] += sum(1 for w in warnings if w.get("code") == "suboptimal"
                                     and _warning_seat(w.get("path", ""), row.n) == me)
    if f.banker is not None and result.get("banker") == me:
        f.banker["deals"] += 1
        f.banker["net"] += outcome.net
        f.banker["won"] += outcome.net > 0
    if f.must_play is not None and result.get("level") == "moves":
        f.must_play["full_logs"] += 1
        f.must_play["warnings"] += sum(1 for w in warnings if w.get("code") == "must_play"
                                       and _warning_seat(w.get("path", ""), row.n) == me)


def _new(game: str | None) -> Figures:
    f = Figures()
    if game is None:
        return f
    info = get_game(game)
    if "suanzhang" in info.seat_object_fields:   # the result names the blocker's seat (Ding Niu)
        f.suanzhang = {"caused": 0, "suffered": 0}
    if info.has_banker:
        f.bulls = {"hands": 0, "possible": 0, "found": 0, "best_found": 0, "suboptimal": 0}
        f.banker = {"deals": 0, "net": 0, "won": 0}
    if info.connecting:
        f.must_play = {"full_logs": 0, "warnings": 0}
    return f


def _close(f: Figures) -> None:
    f.sessions = len(f._session_nets)
    if f._session_nets:
        # The best session: the largest net; on a tie, the earlier (tournament, session).
        (tournament, session, number), (net, deals) = max(
            f._session_nets.items(), key=lambda kv: (kv[1][0], -kv[0][0], -kv[0][2]))
        f.best_session = {"tournament": tournament, "session": session, "number": number, "net": net,
                          "deals": deals}


@dataclass
class PlayerStats:
    overall: Figures
    games: dict[str, Figures]            # by game key, in the order first met
    tournaments: dict[int, tuple[int, int]]  # tournament id → (deals, net)


def player_stats_from_rows(rows: list[DealRow]) -> PlayerStats:
    """The figures per game and over all, and each tournament's deals and net."""
    overall = _new(None)
    by_game: dict[str, Figures] = {}
    tournaments: dict[int, list[int]] = {}
    for row in rows:
        info = get_game(row.game)
        key = (row.tournament, row.session, row.session_number)
        f = by_game.get(row.game)
        if f is None:
            f = by_game[row.game] = _new(row.game)
        outcome = outcomes_by_position(game=row.game, leader=row.leader, seats=row.result.get("seats") or [],
                                       n=row.n)[row.position]
        _add(f, row, info, key, outcome)
        # Over all: the same deal without the game sections.
        _add(overall, row, info, key, outcome)
        t = tournaments.setdefault(row.tournament, [0, 0])
        t[0] += 1
        t[1] += outcome.net
    for f in (overall, *by_game.values()):
        _close(f)
    return PlayerStats(overall, by_game, {t: (d, n) for t, (d, n) in tournaments.items()})
