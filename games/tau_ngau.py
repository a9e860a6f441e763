"""Tau Ngau (鬥牛), RULES.md §7: record checks and settlement; the hand values are ``bulls.py``.

A record gives the hands (the full level, §3) or only the values the table agreed (the quick
level, §3b); both settle through ``settle`` and ``next_banker``.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple, Sequence

from .bulls import HAND_SIZE, hand_value, is_bull, rest_values
from .decks import CHINESE_32
from .record import Common, Problems, check_deck, check_seat_count, is_int, read_list, read_tile_list, seats_readable
from .settlement import nets_from_transfers, pay
from .tiles import Tile, tile_str
from .words import gettext_noop

#: TN-1: 3 to 6 players, the banker included.
PLAYERS = range(3, 7)

#: Largest stake or bet the reader accepts; a guard against absurd input, not a table limit.
MAX_STAKE = 1_000_000

#: TN-V1-1: a player without a bull pays the banker this many bets.
V1_NO_BULL_BETS = 4

#: TN-5: what a bull can be worth under each version (v1 counts a remainder of 0 as 10).
VALUE_RANGES = {"v2": (0, 9), "v1": (1, 10)}

#: The record's levels of detail (ROUND_RECORD.md §3, §3b), the full one first.
LEVELS = ("hands", "values")



# ---------------------------------------------------------------------------------------
# Settlement (TN-V1-*, TN-V2-*)

class SeatPlay(NamedTuple):
    """What a seat settles on: whether it formed a bull and that bull's value."""

    has_bull: bool
    value: int


def settle(plays: Sequence[SeatPlay], banker: int, stakes: Sequence[int | None], version: str,
           no_bull_pays: str = "four") -> list[dict]:
    """Transfers between the banker and each player; every player settles with the banker
    alone (TN-V1-1 … TN-V1-6, TN-V2-1 … TN-V2-6)."""
    transfers: list[dict] = []
    bank = plays[banker]
    for seat, play in enumerate(plays):
        if seat == banker:
            continue
        stake = stakes[seat] or 0
        if version == "v1":
            if not play.has_bull:
                # TN-V1-1 / TN-V1-6: no bull always pays; the variant scales it by the banker's bull.
                bets = bank.value if (no_bull_pays == "banker_value" and bank.has_bull) else V1_NO_BULL_BETS
                pay(transfers, seat, banker, bets * stake)
                continue
            diff = play.value - (bank.value if bank.has_bull else 0)  # TN-V1-2: no bull counts 0
            amount = abs(diff) * stake
        else:
            if play.has_bull and bank.has_bull:
                diff = play.value - bank.value  # TN-V2-2
            else:
                diff = int(play.has_bull) - int(bank.has_bull)  # TN-V2-3, TN-V2-4
            amount = stake if diff else 0  # TN-V2-1: stakes are never multiplied
        if diff > 0:
            pay(transfers, banker, seat, amount)
        elif diff < 0:
            pay(transfers, seat, banker, amount)
    return transfers


def next_banker(banker: int, n: int, banker_bull: bool, rotation: str) -> int:
    """TN-V2-5: the bank passes to the banker's right when he formed a bull (default)."""
    if rotation == "fixed":
        return banker
    if rotation == "every_round" or banker_bull:
        return (banker + 1) % n
    return banker


# ---------------------------------------------------------------------------------------
# Reading the record (ROUND_RECORD.md §3)

def _name(common: Common, seat: int) -> str:
    if 0 <= seat < common.n and common.seats[seat]:
        return common.seats[seat]
    return f"Seat {seat}"


def _read_banker(record: dict, n: int | None, p: Problems) -> int | None:
    if "banker" not in record:
        p.error("banker", "missing_field", gettext_noop("Say which seat holds the bank (banker, a seat number from 0)."))
        return None
    banker = record["banker"]
    if not is_int(banker) or banker < 0 or (n is not None and banker >= n):
        top = f" from 0 to {n - 1}" if n else ""
        p.error("banker", "bad_banker", f"The banker must be a seat number{top}.")
        return None
    return banker


def _read_stakes(record: dict, version: str, n: int | None, banker: int | None,
                 p: Problems) -> list[int | None] | None:
    """TN-3: per-seat stakes (v2, or v1), or one bet for all (v1 only, default 1)."""
    has_stakes, has_bet = "stakes" in record, "bet" in record
    if has_bet and version == "v2":
        p.error("bet", "bet_needs_v1",
                gettext_noop("A single bet is only for version 1; under version 2 give each player's stake (stakes)."))
        return None
    if has_bet and has_stakes:
        p.error("bet", "stakes_and_bet", gettext_noop("Give either one bet for everyone or each player's stake, not both."))
        return None
    if not has_stakes:
        if version == "v2":
            p.error("stakes", "missing_field",
                    gettext_noop("Give each player's stake (stakes), with null for the banker."))
            return None
        bet = record.get("bet", 1)
        if not is_int(bet) or not 0 < bet <= MAX_STAKE:
            p.error("bet", "bad_stake", f"The bet must be a whole number from 1 to {MAX_STAKE}.")
            return None
        if n is None or banker is None:
            return None
        return [None if s == banker else bet for s in range(n)]
    raw = read_list(record["stakes"], "stakes", p, "The stakes list", length=n)
    if raw is None:
        return None
    ok = True
    for seat, stake in enumerate(raw):
        path = f"stakes[{seat}]"
        if seat == banker:
            if stake is not None:
                p.error(path, "banker_stake", gettext_noop("The banker places no stake; write null in his place."))
                ok = False
        elif stake is None and banker is None:
            continue  # cannot tell yet whether this is the banker's place
        elif not is_int(stake) or not 0 < stake <= MAX_STAKE:
            p.error(path, "bad_stake", f"A stake must be a whole number from 1 to {MAX_STAKE}.")
            ok = False
    return list(raw) if ok and banker is not None and n is not None else None


def _read_hands(record: dict, common: Common, n: int | None, p: Problems) -> list[list[Tile] | None] | None:
    raw = read_list(record["hands"], "hands", p, "The hands list", length=n)
    if raw is None:
        return None
    hands = [read_tile_list(h, f"hands[{i}]", p, f"{_name(common, i)}'s hand", length=HAND_SIZE)
             for i, h in enumerate(raw)]
    placed = [(t, f"hands[{i}][{k}]") for i, h in enumerate(hands) if h for k, t in enumerate(h)]
    check_deck(placed, CHINESE_32, p)
    return hands


_DECLINE = "decline"  # marker: the seat declared "no bull"


def _read_declared(record: dict, common: Common, n: int | None, hands: list | None,
                   p: Problems) -> list[object] | None:
    """Per seat: None (take the best), _DECLINE, or the declared bull as 3 tiles."""
    if "declared" not in record:
        return [None] * (n or 0)
    raw = read_list(record["declared"], "declared", p, "The declared list", length=n)
    if raw is None:
        return None
    out: list[object] = []
    for seat, entry in enumerate(raw):
        path = f"declared[{seat}]"
        if entry is None:
            out.append(None)
            continue
        if not isinstance(entry, dict):
            p.error(path, "bad_type", gettext_noop('A declaration is null or {"bull": [three tiles]} or {"bull": null}.'))
            out.append(None)
            continue
        for key in entry:
            if key != "bull":
                p.error(f"{path}.{str(key)[:40]}", "unknown_field", gettext_noop("A declaration has only the field 'bull'."))
        if "bull" not in entry:
            p.error(f"{path}.bull", "missing_field", gettext_noop("Say which three tiles form the bull, or null for no bull."))
            out.append(None)
            continue
        if entry["bull"] is None:
            out.append(_DECLINE)
            continue
        bull = read_tile_list(entry["bull"], f"{path}.bull", p, "A declared bull", length=3)
        if bull is None:
            out.append(None)
            continue
        hand = hands[seat] if hands is not None and seat < len(hands) else None
        if hand is not None:
            left = Counter(hand)
            for k, t in enumerate(bull):
                if left[t] <= 0:
                    p.error(f"{path}.bull[{k}]", "not_in_hand",
                            f"[{tile_str(t)}] is not in {_name(common, seat)}'s hand.")
                    bull = None
                    break
                left[t] -= 1
            if bull is not None and not is_bull(bull):
                shown = " ".join(f"[{tile_str(t)}]" for t in bull)
                p.error(f"{path}.bull", "not_a_bull", f"{shown} cannot make 10, 20 or 30, so it is not a bull.")
                bull = None
        out.append(bull)
    return out


def _read_level(record: dict, p: Problems) -> str | None:
    """Which of the two levels the record gives (§3, §3b): exactly one, as for the connecting
    games; None (with the error) for neither or both. ``declared`` belongs to the hands."""
    given = [level for level in LEVELS if level in record]
    if len(given) == 2:
        p.error(LEVELS[1], "two_levels", gettext_noop("Give exactly one of hands or values, not both."))
        return None
    if not given:
        p.error("", "missing_level",
                gettext_noop("Give the outcome of the deal: every seat's hand (hands) or the values the "
                             "table agreed (values), exactly one."))
        return None
    if given[0] == "values" and "declared" in record:
        p.error("declared", "unknown_field",
                gettext_noop("declared goes only with the hands; with values, a declined bull is entered as null."))
    return given[0]


def _read_values(record: dict, version: str, n: int | None, p: Problems) -> list[SeatPlay] | None:
    """§3b: per seat null (no bull) or the value of its bull, 0–9 under v2, 1–10 under v1."""
    raw = read_list(record["values"], "values", p, "The values list", length=n)
    if raw is None:
        return None
    low, high = VALUE_RANGES[version]
    plays = []
    for seat, value in enumerate(raw):
        if value is None:
            plays.append(SeatPlay(False, 0))
        elif is_int(value) and low <= value <= high:
            plays.append(SeatPlay(True, value))
        else:
            p.error(f"values[{seat}]", "bad_value",
                    gettext_noop("Under version 1 a value is null (no bull) or a whole number from 1 to 10 "
                                 "(10 for a remainder of 0).") if version == "v1" else
                    gettext_noop("A value is null (no bull) or a whole number from 0 to 9."))
    return None if len(plays) < len(raw) else plays


def _settled(common: Common, banker: int, plays: list[SeatPlay], stakes: list[int | None],
             seats_out: list[dict]) -> dict:
    """Settle the plays, whatever level they come from, and put each seat's net in its entry."""
    variant = common.variant
    n = len(plays)
    transfers = settle(plays, banker, stakes, variant["settlement"], variant["v1_no_bull_pays"])
    for out, net in zip(seats_out, nets_from_transfers(n, transfers), strict=True):
        out["net"] = net
    return {
        "banker": banker,
        "next_banker": next_banker(banker, n, plays[banker].has_bull, variant["bank_rotation"]),
        "seats": seats_out,
        "transfers": transfers,
    }


def evaluate(record: dict, common: Common, p: Problems) -> dict | None:
    """Check and settle a Tau Ngau record (ROUND_RECORD.md §3, §3b, RULES.md §7)."""
    variant = common.variant
    version = variant["settlement"]
    n: int | None = None
    readable = seats_readable(record)
    if readable and check_seat_count(common, PLAYERS, p):
        n = common.n
    banker = _read_banker(record, common.n if readable else None, p)
    stakes = _read_stakes(record, version, n, banker, p)
    level = _read_level(record, p)
    if level == "values":
        agreed = _read_values(record, version, n, p)
        if p.errors or n is None or banker is None or stakes is None or agreed is None:
            return None
        # The engine cannot check what it cannot see: the table's word is taken (§3b).
        p.warn("values", "unverified",
               gettext_noop("The values are the table's word: without the hands the engine cannot check them."))
        return _settled(common, banker, agreed, stakes, [
            {"name": common.seats[seat], "value": play.value, "has_bull": play.has_bull,
             "stake": stakes[seat], "net": 0} for seat, play in enumerate(agreed)])
    if level is None:
        return None
    hands = _read_hands(record, common, n, p)
    declared = _read_declared(record, common, n, hands, p)
    if p.errors or n is None or banker is None or stakes is None or hands is None or declared is None:
        return None

    plays: list[SeatPlay] = []
    seats_out: list[dict] = []
    v1 = version == "v1"
    for seat, hand in enumerate(hands):
        hv = hand_value(hand)  # type: ignore[arg-type]
        best = hv.v1 if v1 else hv.v2
        best_bull = hv.bull_v1 if v1 else hv.bull_v2
        choice = declared[seat]
        path = f"declared[{seat}].bull"
        if choice is None:
            play, bull = SeatPlay(hv.has_bull, best), best_bull
        elif choice is _DECLINE:
            if hv.has_bull:
                if not variant["may_decline_bull"]:
                    p.error(path, "bull_exists",
                            f"{_name(common, seat)} holds a bull, so 'no bull' cannot be declared.")
                    continue
                p.warn(path, "suboptimal",
                       f"{_name(common, seat)} declared no bull although a bull worth {best} was possible.")
            play, bull = SeatPlay(False, 0), None
        else:
            bull = tuple(choice)  # type: ignore[arg-type]
            rest = list(hand)  # type: ignore[arg-type]
            for t in bull:
                rest.remove(t)
            r1, r2 = rest_values(rest)
            value = r1 if v1 else r2
            if value < best:
                p.warn(path, "suboptimal",
                       f"{_name(common, seat)}'s declared bull is worth {value}, but {best} was possible.")
            play = SeatPlay(True, value)
        plays.append(play)
        seats_out.append({
            "name": common.seats[seat],
            "bull": [tile_str(t) for t in bull] if bull else None,
            "value": play.value if play.has_bull else 0,
            "best_value": best,
            "stake": stakes[seat],
            "net": 0,
        })
    if p.errors:
        return None

    return _settled(common, banker, plays, stakes, seats_out)
