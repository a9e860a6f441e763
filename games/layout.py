"""The line of tiles of the connecting games: replaying a move log (RULES.md CG-4 … CG-13;
ROUND_RECORD.md §2c), the log as ``moves`` reads it.

A valid log goes through ``quick_replay``: one pass over the raw moves with only ints and
tuples (the open ends, the tiles used), so that a whole Ding Niu log replays in a few tens of
microseconds. Anything doubtful is read again by ``read_moves`` (moves as tuples
``(is_play, tile, to, open)``) and ``replay``, which word every error.

Move ``k`` is made by seat ``k % n``, so seat ``s``'s ``j``-th tile is move ``s + j*n``: a
seat's hand at any move is the tiles it uses from that move on plus what it kept in hand,
with no per-move bookkeeping.

Game-specific watching (Ding Niu's SuanZhang) plugs in through a small ``Watch`` object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .decks import MAX_PACKED, PACK_WEIGHT, packed_fits
from .moves import TILE_BY_TEXT, Move
from .record import Problems
from .tiles import Tile, tile_str

# How the deal ended (CG-11, CG-12, DN-SZ-6).
COMPLETE = "complete"
BLOCKED = "blocked"
SMOTHERED = "smothered"


def ends_text(ends: tuple[int, ...]) -> str:
    if len(ends) == 1:
        return f"the open end {ends[0]}"
    if ends[0] == ends[1]:
        return f"the open ends {ends[0]} and {ends[1]}"
    return f"either open end ({ends[0]} and {ends[1]})"


class Watch(Protocol):
    """Hooks a game may hang on the replay (Ding Niu: SuanZhang detection)."""

    def reset(self) -> None:
        """Back to the start of the deal (the careful replay runs after a quick one gave up)."""
        ...

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


_WHY_OVER = {COMPLETE: "every dealt tile had been used (CG-11)",
             BLOCKED: "{n} passes in a row had blocked it (CG-12)",
             SMOTHERED: "a smothered SuanZhang had ended it (DN-SZ-6)"}


def _after_end(k: int, end: str, n: int, p: Problems) -> None:
    why = _WHY_OVER[end].format(n=n)
    p.error(f"moves[{k}]", "after_end", f"The deal was already over, as {why}; the log must stop there.")


def replay(moves: list[Move], n: int, deal: int, two_arms: bool, p: Problems,
           watch: Watch | None = None) -> Replay | None:
    """Lay the log out move by move (CG-4 … CG-12). Stops at the first move that does not
    match its end, or that comes after the deal has ended; None then (error recorded)."""
    pass_ends: list[tuple[int, tuple[int, ...]]] = []
    total = n * deal
    count = len(moves)
    in_row = 0
    end = None
    e0 = e1 = 0
    for k in range(min(count, total)):
        is_play, tile, to, opened = moves[k]
        if not is_play:
            pass_ends.append((k, (e0, e1) if two_arms else (e0,)))
            in_row += 1
            if in_row == n:
                # CG-12, unless these passes used up the last dealt tiles anyway (CG-11).
                end = BLOCKED if k + 1 < total else COMPLETE
                break
            continue
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
            smothered = a != b and watch is not None and watch.play(k, tile, side, (e0, e1))
            if side == 0:
                e0 = a + b - e0
            else:
                e1 = a + b - e1
            if smothered:
                end = SMOTHERED
                break
        else:
            if to is not None and to != e0:
                p.error(f"moves[{k}].to", "no_such_end", f"The open end shows {e0}, not {to}.")
                return None
            if a != e0 and b != e0:
                p.error(f"moves[{k}].play", "not_matching",
                        f"[{tile_str(tile)}] does not match the open end {e0}.")
                return None
            e0 = a + b - e0
    else:
        if count >= total:
            end = COMPLETE
    if end is not None:
        last = min(count, total) if end == COMPLETE else k + 1  # moves the deal used
        if count > last:
            _after_end(last, end, n, p)
            return None
    # Seat s made moves s, s + n, s + 2n, ...: slicing rebuilds every seat's tiles at C speed.
    used = [[m[1] for m in moves[s::n]] for s in range(n)]
    down = [[m[1] for m in moves[s::n] if not m[0]] for s in range(n)]
    return Replay(n=n, deal=deal, used=used, down=down, pass_ends=pass_ends, end=end,
                  ends=(e0, e1) if two_arms else (e0,))


def quick_replay(raw: object, raw_left: object, n: int, deal: int, two_arms: bool, deck,
                 watch: Watch | None) -> tuple[Replay, list[list[Tile]]] | None:
    """The common case in one pass: a well-formed log (and ``left_in_hand``, or ``None`` when
    the record has none) that fits the deck, matches at every move, ends where it should and
    gives every seat its deal. Returns the replay and the tiles kept, or None at the first
    doubt: then ``read_moves`` and ``replay`` go through the record again and word the errors.
    A valid record gives exactly what the careful path gives; this one is only faster (one
    loop, no move tuples, the deck counted once at the end).
    """
    if type(raw) is not list or not raw or len(raw) > n * deal or n * deal > MAX_PACKED:
        return None  # (no game deals more than MAX_PACKED tiles; the careful path would cope)
    try:
        return _quick(raw, raw_left, n, deal, two_arms, deck, watch)
    except (TypeError, KeyError, AttributeError):
        # Odd input (an unhashable "tile", a move that is no object) or a tile the deck does
        # not hold reaching the watch: the careful path will say what is wrong.
        return None


def _quick(raw: list, raw_left: object, n: int, deal: int, two_arms: bool, deck,
           watch: Watch | None) -> tuple[Replay, list[list[Tile]]] | None:
    total = n * deal
    count = len(raw)
    lookup = TILE_BY_TEXT.get
    m = raw[0]
    tile = lookup(m.get("play"))
    if tile is None:
        return None
    a, b = tile
    e0 = e1 = 0
    if two_arms:
        if len(m) != 1:
            return None
        e0, e1 = a, b
        if deck.get(tile, 0) < 1:
            return None  # the watch counts deck tiles only
        if watch is not None:
            watch.lead(tile)
    elif len(m) == 1:
        if a != b:
            return None
        e0 = a
    else:
        e0 = m.get("open")
        if len(m) != 2 or type(e0) is not int or (e0 != a and e0 != b):
            return None
    tiles = [tile]
    append = tiles.append
    pass_ends: list[tuple[int, tuple[int, ...]]] = []
    play = watch.play if watch is not None else None
    in_row = 0
    end = None
    k = 0
    for k in range(1, count):
        m = raw[k]
        size = len(m)
        text = m.get("play")
        if text is None:
            tile = lookup(m.get("pass"))
            if tile is None or size != 1:
                return None
            append(tile)
            pass_ends.append((k, (e0, e1) if two_arms else (e0,)))
            in_row += 1
            if in_row == n:
                end = BLOCKED if k + 1 < total else COMPLETE
                break
            continue
        tile = lookup(text)
        if tile is None:
            return None
        append(tile)
        in_row = 0
        a, b = tile
        if size == 1:
            to = None
        elif size == 2:
            to = m.get("to")
            if type(to) is not int:
                return None
        else:
            return None
        if two_arms:
            if to is None:
                fits0 = e0 == a or e0 == b
                fits1 = e1 == a or e1 == b
                if fits0:
                    if fits1 and e0 != e1:
                        return None
                    side = 0
                elif fits1:
                    side = 1
                else:
                    return None
            elif a != to and b != to:
                return None
            elif to == e0:
                side = 0
            elif to == e1:
                side = 1
            else:
                return None
            smothered = a != b and play is not None and play(k, tile, side, (e0, e1))
            if side == 0:
                e0 = a + b - e0
            else:
                e1 = a + b - e1
            if smothered:
                end = SMOTHERED
                break
        else:
            if (to is not None and to != e0) or (a != e0 and b != e0):
                return None
            e0 = a + b - e0
    if end is None:
        if count < total:
            return None
        end = COMPLETE
    elif k + 1 < count:
        return None  # moves after the end
    used_count = count if end == COMPLETE else k + 1
    left: list[list[Tile]]
    if raw_left is None:
        if used_count < total:
            return None
        left = [[] for _ in range(n)]
    else:
        if type(raw_left) is not list or len(raw_left) != n:
            return None
        left = [[lookup(text) for text in row] if type(row) is list else [None] for row in raw_left]
    everything = list(tiles)
    for s in range(n):
        kept = left[s]
        if (used_count - s + n - 1) // n + len(kept) != deal or None in kept:
            return None
        everything += kept
    # n·deal tiles in all (at most MAX_PACKED, checked on entry), counted as one packed int.
    if not packed_fits(sum(map(PACK_WEIGHT.__getitem__, everything)), deck):
        return None
    used = [tiles[s::n] for s in range(n)]
    down: list[list[Tile]] = [[] for _ in range(n)]
    for j, _ in pass_ends:
        down[j % n].append(tiles[j])
    return Replay(n=n, deal=deal, used=used, down=down, pass_ends=pass_ends, end=end,
                  ends=(e0, e1) if two_arms else (e0,)), left


def must_play_warnings(rep: Replay, left: list[list[Tile]], seats: list[str], p: Problems) -> None:
    """CG-9: a pass by a seat whose hand (reconstructed from the log) held a tile that fits."""
    n = rep.n
    for k, ends in rep.pass_ends:
        s = k % n
        for tile in rep.used[s][k // n:] + left[s]:
            if tile[0] in ends or tile[1] in ends:
                passed = rep.used[s][k // n]
                which = "it" if tile == passed else f"[{tile_str(tile)}] in the same hand"
                p.warn(f"moves[{k}]", "must_play",
                       f"{seats[s]} put [{tile_str(passed)}] face down although {which} fits "
                       f"{ends_text(ends)}; a player who can play must play (CG-9).")
                break
