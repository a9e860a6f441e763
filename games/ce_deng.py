"""Ce Deng (料釘 / 斜钉, "oblique nail"), RULES.md §4.

Four players, one arm, otherwise as Jie Long (CD-1), read with ``connecting.read_deal``. A hand
of ``redeal_doubles`` (default 7) or more doubles voids the deal: it is recorded in the redeal
form, and an outcome record showing such a hand is refused (CD-2). The leader is the Head, the
others Tails (CD-3); each ends clean, penalty or none by the tiles left unplayed (CD-4). Pairs
settle by the difference of points (CD-5) times a multiplier: by pair (CD-6, default) or by
payer and receiver (CD-7); worked example CD-8. Winner and next leader as CG-14 (CD-9).
"""

from __future__ import annotations

from .connecting import LEVELS, read_deal, result_body
from .decks import CONNECTING_DEALS
from .moves import fast_tile
from .record import Common, Problems, check_deck, check_seat_count, read_list
from .settlement import difference_transfers, places_lower_hand
from .tiles import Tile
from .words import gettext_noop

CLEAN, PENALTY, NONE = "clean", "penalty", "none"


def ce_deng_status(seat: int, unplayed: int, head_tail: str) -> str:
    """CD-4: clean with nothing unplayed; penalty at Head ≥ 7 / Tail 8 (or 6/7)."""
    head_limit, tail_limit = (7, 8) if head_tail == "7/8" else (6, 7)
    if unplayed == 0:
        return CLEAN
    if unplayed >= (head_limit if seat == 0 else tail_limit):
        return PENALTY
    return NONE


def pair_multiplier(a: str, b: str) -> int:
    """CD-6: ×1 same status, ×2 when exactly one is none, ×4 clean against penalty."""
    if a == b:
        return 1
    if a == NONE or b == NONE:
        return 2
    return 4


def payer_multiplier(payer: str, receiver: str) -> int:
    """CD-7: doubled to a clean receiver, doubled from a penalised payer."""
    return (2 if receiver == CLEAN else 1) * (2 if payer == PENALTY else 1)


def _redeal_refusals(tiles_by_seat: list[list[Tile]], paths: list[str], common: Common, limit: int,
                     p: Problems) -> None:
    for s, ts in enumerate(tiles_by_seat):
        doubles = sum(1 for a, b in ts if a == b)
        if doubles >= limit:
            p.error(paths[s], "redeal_deal",
                    f"{common.seats[s]} was dealt {doubles} doubles, which voids the deal (CD-2); "
                    'record it as a redeal: {"redeal": true, "hands": [...]}.')


def _read_redeal(record: dict, common: Common, p: Problems) -> dict | None:
    """CD-2: a void deal; some hand holds at least ``redeal_doubles`` doubles."""
    limit = common.variant["redeal_doubles"]
    for level in LEVELS + ("unplayed", "left_in_hand"):
        if level in record:
            p.error(level, "unexpected_field", gettext_noop("A redeal record has only the dealt hands, no outcome."))
    if record.get("redeal") is not True:
        if "redeal" in record:
            p.error("redeal", "bad_type", gettext_noop("redeal is true for a void deal; leave it out otherwise."))
        else:
            p.error("redeal", "missing_field", gettext_noop("hands are only recorded for a redeal (redeal: true)."))
        return None
    if not check_seat_count(common, CONNECTING_DEALS["ce_deng"], p):
        return None
    deck, deal = CONNECTING_DEALS["ce_deng"][common.n]
    if "hands" not in record:
        p.error("hands", "missing_field", gettext_noop("A redeal record lists the dealt hands (hands)."))
        return None
    rows = read_list(record["hands"], "hands", p, "hands", length=common.n)
    if rows is None:
        return None
    hands: list[list[Tile]] = []
    placed = []
    for i, row in enumerate(rows):
        path = f"hands[{i}]"
        row = read_list(row, path, p, f"{common.seats[i]}'s hand", length=deal)
        if row is None:
            continue
        hand = []
        for j, v in enumerate(row):
            t = fast_tile(v, f"{path}[{j}]", p)
            if t is not None:
                hand.append(t)
                placed.append((t, f"{path}[{j}]"))
        hands.append(hand)
    check_deck(placed, deck, p)
    if p:
        return None
    if not any(sum(1 for a, b in h if a == b) >= limit for h in hands):
        p.error("hands", "no_redeal",
                f"No hand holds {limit} or more doubles, so the deal is not void (CD-2).")
        return None
    seats = [{"name": name, "points": None, "unplayed": None, "place": None, "net": 0, "status": None}
             for name in common.seats]
    return {"level": "redeal", "redeal": True, "seats": seats, "winner": None, "next_leader": 0,
            "blocked": False, "suanzhang": None, "transfers": []}


def evaluate_ce_deng(record: dict, common: Common, p: Problems) -> dict | None:
    """CD-1 … CD-9: Head and Tails, clean/penalty status, multiplied differences."""
    if "hands" in record or record.get("redeal", False) is not False:
        return _read_redeal(record, common, p)
    out = read_deal(record, common, p, two_arms=False)
    if out is None or p:
        return None
    limit = common.variant["redeal_doubles"]
    if out.hands is not None:
        _redeal_refusals(out.hands, ["moves"] * common.n, common, limit, p)
    elif out.tiles is not None:
        _redeal_refusals(out.tiles, [f"unplayed_tiles[{s}]" for s in range(common.n)], common, limit, p)
    if p:
        return None
    head_tail = common.variant["head_tail"]
    status = [ce_deng_status(s, u, head_tail) for s, u in enumerate(out.unplayed)]
    if common.variant["multiplier"] == "payer":
        transfers = difference_transfers(out.points, lambda a, b: payer_multiplier(status[a], status[b]))
    else:
        transfers = difference_transfers(out.points, lambda a, b: pair_multiplier(status[a], status[b]))
    return result_body(common, out, places_lower_hand(out.points), transfers, status=status)


__all__ = ["evaluate_ce_deng", "ce_deng_status", "pair_multiplier", "payer_multiplier", "CLEAN", "PENALTY", "NONE"]
