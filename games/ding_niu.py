"""Ding Niu (頂牛): places, the 6/1/2/3 chips and SuanZhang (RULES.md §6).

Detection follows the pseudocode of §6.4 to the letter, including its graph test for the
smothered forms: that test may miss dead pips, and that is the rule (DN-SZ-3).
"""

from __future__ import annotations

from dataclasses import dataclass

from .connecting import Outcome, read_deal, result_body
from .record import Common, Problems, is_int
from .settlement import Transfer, pay, places_ding_niu
from .tiles import Tile
from .words import gettext_noop

#: Non-double tile types of the Ding Niu deck and their copies (§6.4 `copies`).
START_COPIES: dict[Tile, int] = {(6, 5): 2, (6, 4): 2, (6, 1): 2, (3, 1): 2, (5, 1): 2, (6, 2): 1, (6, 3): 1}
#: Non-double halves per pip not face up, indexed by pip (index 0 unused) (§6.4 `left`).
START_LEFT: tuple[int, ...] = (0, 6, 1, 3, 2, 4, 8)

_BIT: dict[Tile, int] = {t: 1 << i for i, t in enumerate(START_COPIES)}
_FULL = (1 << len(START_COPIES)) - 1


def _components(mask: int) -> tuple[int, ...]:
    """Component label per pip 0..6 of the graph whose edges are the tile types in mask."""
    label = list(range(7))

    def find(x: int) -> int:
        while label[x] != x:
            x = label[x]
        return x

    for t, bit in _BIT.items():
        if mask & bit:
            ra, rb = find(t[0]), find(t[1])
            if ra != rb:
                label[ra] = rb
    return tuple(find(x) for x in range(7))


#: The graph G of §6.4 depends only on which types still have a copy not face up:
#: 128 possibilities, so the connectivity is looked up, never searched.
COMPONENTS: tuple[tuple[int, ...], ...] = tuple(_components(m) for m in range(_FULL + 1))


# What ``report`` must look at, by the graph after the play and the open ends after it:
_SAME = 4        # both ends show 1, 4 or 5: a classic SuanZhang if that pip is used up
_TWO_THREE = 8   # the ends show 2 and 3: classic if both are used up
_CUT_4 = 1       # pip 4 is in neither open end's component: smothered if a 4 is still hidden
_CUT_5 = 2       # the same for 5


def _checks(comp: tuple[int, ...]) -> tuple[int, ...]:
    """Index lo·7 + hi: the bits above that apply."""
    return tuple((_SAME if lo == hi and lo in (1, 4, 5) else 0)
                 | (_TWO_THREE if {lo, hi} == {2, 3} else 0)
                 | (_CUT_4 if comp[4] not in (comp[lo], comp[hi]) else 0)
                 | (_CUT_5 if comp[5] not in (comp[lo], comp[hi]) else 0)
                 for lo in range(7) for hi in range(7))


#: The tests of §6.4 that can apply, for every graph and pair of open ends (128 × 49 entries):
#: ``report`` looks them up once per play, and most plays need nothing more (entry 0).
CHECKS: tuple[tuple[int, ...], ...] = tuple(_checks(c) for c in COMPONENTS)

ONES, FOURS, FIVES, TWO_THREE = "ones", "fours", "fives", "two_three"
SMOTHERED_FOURS, SMOTHERED_FIVES = "smothered_fours", "smothered_fives"
SMOTHERED_KINDS = (SMOTHERED_FOURS, SMOTHERED_FIVES)
_CLASSIC_SAME = {1: ONES, 4: FOURS, 5: FIVES}

KIND_WORDS = {ONES: "ones", FOURS: "fours", FIVES: "fives", TWO_THREE: "two-three",
              SMOTHERED_FOURS: "smothered fours", SMOTHERED_FIVES: "smothered fives"}


def report(left, copies: dict[Tile, int], mask: int, tile: Tile, side: int, ends: tuple[int, int]) -> str | None:
    """The SuanZhang a face-up non-double ``tile`` laid on end index ``side`` would make,
    from the state before the play (DN-SZ-2, DN-SZ-3, DN-SZ-4); None for no report.

    Nothing is mutated, so this is also ``would_block``."""
    a, b = tile
    other = a + b - ends[side]
    if side == 0:
        lo, hi = other, ends[1]
    else:
        lo, hi = ends[0], other
    check = CHECKS[mask if copies[tile] > 1 else mask & ~_BIT[tile]][lo * 7 + hi]
    if not check:
        return None
    # left[] after the play: the two halves of the tile are now face up.
    if check & _SAME and left[lo] - (lo == a) - (lo == b) == 0:
        return _CLASSIC_SAME[lo]
    if check & _TWO_THREE and left[2] - (a == 2) - (b == 2) == 0 and left[3] - (a == 3) - (b == 3) == 0:
        return TWO_THREE
    if check & _CUT_4 and left[4] - (a == 4) - (b == 4) > 0:
        return SMOTHERED_FOURS
    if check & _CUT_5 and left[5] - (a == 5) - (b == 5) > 0:
        return SMOTHERED_FIVES
    return None


@dataclass
class Block:
    """A detected SuanZhang and the state just before the blocking play."""

    move: int
    tile: Tile
    side: int
    ends: tuple[int, int]
    kind: str
    left: tuple[int, ...]
    copies: dict[Tile, int]
    mask: int


class SuanZhangWatch:
    """Replay hook: the §6.4 state, updated on the lead and every face-up non-double play."""

    __slots__ = ("left", "copies", "mask", "block")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.left = list(START_LEFT)
        self.copies = dict(START_COPIES)
        self.mask = _FULL
        self.block: Block | None = None

    def _take(self, tile: Tile) -> None:
        a, b = tile
        left = self.left
        left[a] -= 1
        left[b] -= 1
        c = self.copies[tile] - 1
        self.copies[tile] = c
        if c == 0:
            self.mask &= ~_BIT[tile]

    def lead(self, tile: Tile) -> None:
        if tile[0] != tile[1]:
            self._take(tile)

    def play(self, k: int, tile: Tile, side: int, ends: tuple[int, int]) -> bool:
        """Returns True when a smothered SuanZhang ends the deal at once (DN-SZ-6)."""
        left = self.left
        copies = self.copies
        if self.block is None:  # at most one per deal (DN-SZ-9)
            kind = report(left, copies, self.mask, tile, side, ends)
            if kind is not None:
                self.block = Block(move=k, tile=tile, side=side, ends=ends, kind=kind, left=tuple(left),
                                   copies=dict(copies), mask=self.mask)
        else:
            kind = None
        # The tile is now face up (inlined _take: this runs on every play).
        a, b = tile
        left[a] -= 1
        left[b] -= 1
        c = copies[tile] - 1
        copies[tile] = c
        if c == 0:
            self.mask &= ~_BIT[tile]
        return kind is not None and kind in SMOTHERED_KINDS

    def would_block(self, tile: Tile, side: int, ends: tuple[int, int]) -> bool:
        """Would laying ``tile`` on end ``side`` now report a SuanZhang? Doubles never do."""
        if tile[0] == tile[1]:
            return False
        return report(self.left, self.copies, self.mask, tile, side, ends) is not None


def had_safe_play(block: Block, hand: list[Tile]) -> bool:
    """DN-SZ-8: some other legal play in the hand (any tile on any end it fits, doubles
    included, the same tile on the other end included) with ``would_block`` false."""
    ends = block.ends
    for tile in set(hand):
        a, b = tile
        for side in (0, 1):
            pip = ends[side]
            if pip != a and pip != b:
                continue
            if tile == block.tile and side == block.side:
                continue
            if a == b:
                return True  # a double is never a SuanZhang
            if report(block.left, block.copies, block.mask, tile, side, ends) is None:
                return True
    return False


# ---------------------------------------------------------------------------------------
# Payment (DN-4, DN-5, DN-SZ-7)

def ding_niu_transfers(points: list[int], blamed_blocker: int | None) -> tuple[list[int], list[Transfer]]:
    """Places by DN-5; 2nd/3rd/4th pay the winner 1/2/3 (DN-4). A blamed blocker who won
    doubles every amount; any other blamed blocker alone pays the winner 12 (DN-SZ-7)."""
    places = places_ding_niu(points)
    winner = places.index(1)
    transfers: list[Transfer] = []
    if blamed_blocker is not None and blamed_blocker != winner:
        pay(transfers, blamed_blocker, winner, 12)
    else:
        factor = 2 if blamed_blocker is not None else 1
        # What pay() would add, seat by seat: everyone but the winner (place 1) pays.
        transfers = [{"from": s, "to": winner, "amount": factor * (place - 1)}
                     for s, place in enumerate(places) if place > 1]
    return places, transfers


# ---------------------------------------------------------------------------------------
# Reading and evaluating

_SZ_KEYS = ("seat", "move", "kind", "blamed")


def _read_suanzhang_field(record: dict, common: Common, p: Problems) -> dict | None:
    raw = record.get("suanzhang")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        p.error("suanzhang", "bad_type", gettext_noop('suanzhang names the blocker\'s seat, like {"seat": 2}.'))
        return None
    for key in raw:
        if key not in _SZ_KEYS:
            p.error(f"suanzhang.{str(key)[:40]}", "unknown_field", gettext_noop("suanzhang has only seat, move, kind and blamed."))
    seat = raw.get("seat")
    if not (is_int(seat) and 0 <= seat < common.n):
        # Ding Niu has four seats; say so even when the seats themselves are missing.
        p.error("suanzhang.seat", "bad_seat", gettext_noop("suanzhang.seat must be a seat number from 0 to 3."))
    if p:
        return None
    return raw


def _check_table_word(field: dict, p: Problems) -> None:
    """DN-SZ-10 without a log: the named seat is a blamed blocker; move and kind unknown."""
    if field.get("move") is not None or field.get("kind") is not None:
        p.error("suanzhang", "needs_moves",
                gettext_noop("The move and kind of a SuanZhang can only come from the moves log; give just the seat."))
    if field.get("blamed", True) is not True:
        p.error("suanzhang.blamed", "bad_suanzhang",
                gettext_noop("A SuanZhang named without the log counts as blamed; leave the field out if the block was forced."))


def _check_agreement(field: dict | None, found: dict | None, common: Common, p: Problems) -> None:
    """DN-SZ-10: a `suanzhang` given beside the log must agree with what the log shows."""
    if field is None:
        return
    if found is None:
        p.error("suanzhang", "suanzhang_mismatch",
                f"The log shows no SuanZhang, but the record names {common.seats[field['seat']]} as blocker.")
        return
    shown = (f"{common.seats[found['seat']]}'s SuanZhang at move {found['move']} "
             f"({KIND_WORDS[found['kind']]}, {'blamed' if found['blamed'] else 'not blamed'})")
    for key in _SZ_KEYS:
        if key in field and (type(field[key]) is not type(found[key]) or field[key] != found[key]):
            said = common.seats[field["seat"]] if key == "seat" else _said(key, field[key])
            p.error(f"suanzhang.{key}", "suanzhang_mismatch", f"The log shows {shown}, but the record says {said}.")
            return


def _said(key: str, value: object) -> str:
    """How the record's own (disagreeing) suanzhang value reads in a sentence."""
    if key == "move" and is_int(value):
        return f"move {value}"
    if key == "kind" and isinstance(value, str) and value in KIND_WORDS:
        return KIND_WORDS[value]
    if key == "blamed" and isinstance(value, bool):
        return "blamed" if value else "not blamed"
    return f"something else for {key}"


def evaluate(record: dict, common: Common, p: Problems) -> dict | None:
    """DN-1 … DN-8 and DN-SZ-1 … DN-SZ-10."""
    field = _read_suanzhang_field(record, common, p)
    watch = SuanZhangWatch() if "moves" in record else None
    out: Outcome | None = read_deal(record, common, p, two_arms=True, watch=watch)
    if out is None or p:
        return None
    found = None
    if out.level == "moves":
        block = watch.block
        if block is not None:
            seat = block.move % common.n
            if common.variant["blame_needs_choice"]:
                blamed = had_safe_play(block, out.replay.hand_at(block.move, out.left))
            else:
                blamed = True
            found = {"seat": seat, "move": block.move, "kind": block.kind, "blamed": blamed}
        _check_agreement(field, found, common, p)
    elif field is not None:
        _check_table_word(field, p)
        found = {"seat": field["seat"], "move": None, "kind": None, "blamed": True}
    if p:
        return None
    blamed_blocker = found["seat"] if found is not None and found["blamed"] else None
    places, transfers = ding_niu_transfers(out.points, blamed_blocker)
    return result_body(common, out, places, transfers, suanzhang=found)
