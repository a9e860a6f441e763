"""The line of tiles of the connecting games: reading a move log and replaying it
(RULES.md CG-4 … CG-13; ROUND_RECORD.md §2c).

A parsed move is a tuple ``(is_play, tile, to, open)``. The replay keeps only ints and
tuples (the open ends, the tiles each seat used) so that a whole Ding Niu log replays in
well under a tenth of a millisecond. Move ``k`` is made by seat ``k % n``, so seat ``s``'s
``j``-th tile is move ``s + j*n``: a seat's hand at any move is the tiles it uses from
that move on plus what it kept in hand, with no per-move bookkeeping.

Game-specific watching (Ding Niu's SuanZhang) plugs in through a small ``Watch`` object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .record import Problems, read_tile
from .tiles import ALL_TILES, Tile, tile_str

#: Every accepted spelling of a tile -> the tile; a dict hit is much cheaper than the regex.
TILE_BY_TEXT: dict[str, Tile] = {}
for _a, _b in ALL_TILES:
    for _text in (f"{_a}:{_b}", f"{_b}:{_a}"):
        TILE_BY_TEXT[_text] = (_a, _b)
        TILE_BY_TEXT[f"[{_text}]"] = (_a, _b)

_MOVE_KEYS = frozenset(("play", "pass", "to", "open"))

Move = tuple  # (is_play: bool, tile: Tile, to: int | None, open: int | None)

# How the deal ended (CG-11, CG-12, DN-SZ-6).
COMPLETE = "complete"
BLOCKED = "blocked"
SMOTHERED = "smothered"


def fast_tile(value: object, path: str, p: Problems) -> Tile | None:
    """A tile from its text; the slow reader only runs to word the error."""
    if type(value) is str:
        tile = TILE_BY_TEXT.get(value)
        if tile is not None:
            return tile
    return read_tile(value, path, p)


def _pip(value: object) -> bool:
    return type(value) is int and 1 <= value <= 6


def ends_text(ends: tuple[int, ...]) -> str:
    if len(ends) == 1:
        return f"the open end {ends[0]}"
    if ends[0] == ends[1]:
        return f"the open ends {ends[0]} and {ends[1]}"
    return f"either open end ({ends[0]} and {ends[1]})"


def read_moves(raw: object, p: Problems, *, two_arms: bool, max_moves: int) -> list[Move] | None:
    """Read the log's shape and tiles (§2c). None when anything is wrong (errors recorded)."""
    if not isinstance(raw, list):
        p.error("moves", "bad_type", "moves must be a list of moves.")
        return None
    if not raw:
        p.error("moves", "empty_log", "The log has no moves; the leader's lead comes first.")
        return None
    if len(raw) > max_moves + 1:
        # Moves beyond the dealt tiles are after the end anyway; the replay names the first
        # one (or an earlier end), so the rest need not be read.
        raw = raw[:max_moves + 1]
    moves: list[Move] = []
    ok = True
    for k, m in enumerate(raw):
        path = f"moves[{k}]"
        if type(m) is not dict:
            p.error(path, "bad_move", 'Each move is an object like {"play": "6:4"} or {"pass": "3:1"}.')
            ok = False
            continue
        if len(m) > 1 and not _MOVE_KEYS.issuperset(m):
            for key in m:
                if key not in _MOVE_KEYS:
                    p.error(f"{path}.{str(key)[:40]}", "unknown_field",
                            "A move has only play or pass, and to or open where they apply.")
            ok = False
            continue
        if "play" in m:
            if "pass" in m:
                p.error(path, "bad_move", "A move is either a play or a pass, not both.")
                ok = False
                continue
            tile = fast_tile(m["play"], path + ".play", p)
            is_play = True
        elif "pass" in m:
            tile = fast_tile(m["pass"], path + ".pass", p)
            is_play = False
        else:
            p.error(path, "bad_move", 'Each move is an object like {"play": "6:4"} or {"pass": "3:1"}.')
            ok = False
            continue
        if tile is None:
            ok = False
            continue
        to = m.get("to")
        opened = m.get("open")
        if to is not None:
            if not is_play:
                p.error(path + ".to", "bad_move", "A pass lays its tile face down; it has no end (to).")
                ok = False
            elif k == 0:
                p.error(path + ".to", "bad_move", "The lead starts the line; it is laid against no end (to).")
                ok = False
            elif not _pip(to):
                p.error(path + ".to", "bad_type", "to must be the pip (1 to 6) of the open end played on.")
                ok = False
        if k == 0:
            if not is_play:
                p.error(path, "lead_is_pass", "The leader must start by laying a tile face up (CG-4).")
                ok = False
            elif two_arms:
                if opened is not None:
                    p.error(path + ".open", "bad_move",
                            "With two arms both halves of the lead are open; leave out open.")
                    ok = False
            elif opened is None:
                if tile[0] != tile[1]:
                    p.error(path + ".open", "missing_field",
                            f"Say which half of the lead [{tile_str(tile)}] stays open (open).")
                    ok = False
                else:
                    opened = tile[0]
            elif not _pip(opened) or opened not in tile:
                p.error(path + ".open", "bad_open",
                        f"The open pip of the lead must be one of its halves, {tile[0]} or {tile[1]}.")
                ok = False
        elif opened is not None:
            p.error(path + ".open", "bad_move", "Only the lead names an open pip.")
            ok = False
        moves.append((is_play, tile, to, opened))
    return moves if ok else None


class Watch(Protocol):
    """Hooks a game may hang on the replay (Ding Niu: SuanZhang detection)."""

    def lead(self, tile: Tile) -> None: ...

    def play(self, k: int, tile: Tile, end: int, ends: tuple[int, int]) -> bool:
        """A face-up non-double play at move k on end index ``end`` of ``ends`` (before the
        play). True when the deal ends at once."""
        ...


@dataclass
class Replay:
    """What the log shows (only built for a log that matched at every move)."""

    n: int
    deal: int
    used: list[list[Tile]]            # per seat: every tile it played or passed, in order
    down: list[list[Tile]]            # per seat: the face-down tiles, in order
    pass_ends: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # (move, open ends)
    end: str | None = None            # COMPLETE / BLOCKED / SMOTHERED, None while going on
    ends: tuple[int, ...] = ()

    def hand_at(self, k: int, left: list[list[Tile]]) -> list[Tile]:
        """Seat k % n's hand just before move k: what it uses from k on plus what it kept."""
        s = k % self.n
        return self.used[s][k // self.n:] + left[s]


def replay(moves: list[Move], n: int, deal: int, two_arms: bool, p: Problems,
           watch: Watch | None = None) -> Replay | None:
    """Lay the log out move by move (CG-4 … CG-12). Stops at the first move that does not
    match its end, or that comes after the deal has ended; None then (error recorded)."""
    used: list[list[Tile]] = [[] for _ in range(n)]
    down: list[list[Tile]] = [[] for _ in range(n)]
    pass_ends: list[tuple[int, tuple[int, ...]]] = []
    total = n * deal
    in_row = 0
    end = None
    e0 = e1 = 0
    for k, (is_play, tile, to, opened) in enumerate(moves):
        if end is not None:
            why = {COMPLETE: "every dealt tile has been used",
                   BLOCKED: f"{n} passes in a row blocked the deal (CG-12)",
                   SMOTHERED: "a smothered SuanZhang ended the deal (DN-SZ-6)"}[end]
            p.error(f"moves[{k}]", "after_end", f"The deal is already over ({why}); the log must stop there.")
            return None
        s = k % n
        used[s].append(tile)
        if not is_play:
            down[s].append(tile)
            pass_ends.append((k, (e0, e1) if two_arms else (e0,)))
            in_row += 1
            if in_row == n:
                end = BLOCKED
        else:
            in_row = 0
            a, b = tile
            if k == 0:
                if two_arms:
                    e0, e1 = a, b
                    if watch is not None:
                        watch.lead(tile)
                else:
                    e0 = opened
            elif two_arms:
                if to is None:
                    fits0 = e0 == a or e0 == b
                    fits1 = e1 == a or e1 == b
                    if fits0 and fits1 and e0 != e1:
                        p.error(f"moves[{k}].to", "ambiguous_end",
                                f"[{tile_str(tile)}] fits both open ends ({e0} and {e1}); say which with to.")
                        return None
                    if not (fits0 or fits1):
                        p.error(f"moves[{k}].play", "not_matching",
                                f"[{tile_str(tile)}] matches neither open end ({e0} and {e1}).")
                        return None
                    side = 0 if fits0 else 1
                else:
                    if to == e0:
                        side = 0
                    elif to == e1:
                        side = 1
                    else:
                        p.error(f"moves[{k}].to", "no_such_end",
                                f"No open end shows {to}; the open ends are {e0} and {e1}.")
                        return None
                    if a != to and b != to:
                        p.error(f"moves[{k}].play", "not_matching",
                                f"[{tile_str(tile)}] does not match the open end {to}.")
                        return None
                if a != b and watch is not None:
                    if watch.play(k, tile, side, (e0, e1)):
                        end = SMOTHERED
                if side == 0:
                    e0 = a + b - e0
                else:
                    e1 = a + b - e1
            else:
                if to is not None and to != e0:
                    p.error(f"moves[{k}].to", "no_such_end", f"The open end shows {e0}, not {to}.")
                    return None
                if a != e0 and b != e0:
                    p.error(f"moves[{k}].play", "not_matching",
                            f"[{tile_str(tile)}] does not match the open end {e0}.")
                    return None
                e0 = a + b - e0
        if end is None and k + 1 == total:
            end = COMPLETE
    return Replay(n=n, deal=deal, used=used, down=down, pass_ends=pass_ends, end=end,
                  ends=(e0, e1) if two_arms else (e0,))


def fits(tile: Tile, ends: tuple[int, ...]) -> bool:
    a, b = tile
    return a in ends or b in ends


def must_play_warnings(rep: Replay, left: list[list[Tile]], seats: list[str], p: Problems) -> None:
    """CG-9: a pass by a seat whose hand (reconstructed from the log) held a tile that fits."""
    n = rep.n
    for k, ends in rep.pass_ends:
        s = k % n
        for tile in rep.used[s][k // n:] + left[s]:
            if tile[0] in ends or tile[1] in ends:
                passed = rep.used[s][k // n]
                p.warn(f"moves[{k}]", "must_play",
                       f"{seats[s]} put [{tile_str(passed)}] face down although [{tile_str(tile)}] fits "
                       f"{ends_text(ends)}; a player who can play must play (CG-9).")
                break
