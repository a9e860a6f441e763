"""Da Ling (打零, "play zeroes"), RULES.md §8: record checks, matching groups and settlement.

Each player splits six tiles into groups of 1, 2 and 3 tiles and bets on each (DL-2). The two
table tiles fix a target digit and a colour (DL-3, DL-4); groups that can reach the target win
by colour pips, or one player matching all three takes everything (DL-6 … DL-10).

A record gives the groups (the full level, §4) or only the winners the table agreed (the quick
level, §4b); both are paid by ``pay_winners``.
"""

from __future__ import annotations

from itertools import combinations_with_replacement, product
from typing import Sequence

from .decks import CHINESE_32, PACK_WEIGHT, packed_fits
from .record import Common, Problems, check_deck, check_seat_count, is_int, read_list, read_tile_list, seats_readable
from .settlement import nets_from_transfers
from .tiles import ALL_TILES, RED_BLACK, SPELLINGS, Tile, parse_tile, pip_choices
from .words import gettext_noop

#: DL-1: 2 to 5 players; the banker is not a seat (DL-12).
PLAYERS = range(2, 6)
#: DL-1: table tiles laid face up.
TABLE_TILES = 2
GROUP_SIZES = (1, 2, 3)
GROUP_NAMES = ("1-tile group", "2-tile group", "3-tile group")
#: DL-4: the game is red when the table tiles carry at least this many red pips.
RED_THRESHOLD = 4
#: DL-11 variant: what an absolute winner gives the house.
CASINO_CHIP = 1
#: The record's levels of detail (ROUND_RECORD.md §4, §4b), the full one first.
LEVELS = ("groups", "winners")


def target_and_colour(table: Sequence[Tile]) -> tuple[int, str]:
    """DL-3, DL-4: the table's mod-10 value at face value (never wild) and the game's colour."""
    target = sum(a + b for a, b in table) % 10
    red = sum(RED_BLACK[t][0] for t in table)
    return target, ("red" if red >= RED_THRESHOLD else "black")


_residue_cache: dict[tuple[Tile, ...], frozenset[int]] = {}


def residues(group: Sequence[Tile]) -> frozenset[int]:
    """Every mod-10 value the group can take, [4:2] and [2:1] counting 3 or 6 (DL-5)."""
    key = tuple(sorted(group))
    hit = _residue_cache.get(key)
    if hit is None:
        hit = frozenset(sum(c) % 10 for c in product(*(pip_choices(t) for t in key)))
        _residue_cache[key] = hit
    return hit


def matches(group: Sequence[Tile], target: int) -> bool:
    """DL-5: the group can be made worth the target."""
    return target in residues(group)


def colour_pips(tiles: Sequence[Tile], colour: str) -> int:
    """Pips of the game's colour (§1.2); wild tiles count at face value here."""
    i = 0 if colour == "red" else 1
    return sum(RED_BLACK[t][i] for t in tiles)


# ---------------------------------------------------------------------------------------
# Precomputed groups. A group is a multiset of 1 to 3 of the 21 tile kinds: only 2,023 of them
# (21 + 231 + 1,771), so what the settlement needs of a group is worked out once, at import.
# A group's KEY is its packed multiset (decks.PACK_WEIGHT): adding three weights needs no
# sorting, the order of the tiles does not change it, and the keys of a whole deal add up to
# the packed deal for the deck check.

#: Every accepted tile spelling -> its weight, so the quick reader goes from text to key at once.
_WEIGHT_BY_TEXT: dict[str, int] = {text: PACK_WEIGHT[t] for text, t in SPELLINGS.items()}


def group_key(group: Sequence[Tile]) -> int:
    return sum(PACK_WEIGHT[t] for t in group)


def _group_table() -> dict[int, tuple[frozenset[int], int, int]]:
    table = {}
    for size in GROUP_SIZES:
        for group in combinations_with_replacement(ALL_TILES, size):
            table[group_key(group)] = (residues(group), colour_pips(group, "red"), colour_pips(group, "black"))
    return table


#: group key -> (mod-10 values it can reach, red pips, black pips), from ``residues`` and
#: ``colour_pips`` themselves (a test checks every entry against them).
GROUPS: dict[int, tuple[frozenset[int], int, int]] = _group_table()


def _top(candidates: list[int], score: Sequence[int]) -> int | None:
    """The one candidate with the highest score, or None if there is none or a tie."""
    if not candidates:
        return None
    best = max(score[s] for s in candidates)
    leaders = [s for s in candidates if score[s] == best]
    return leaders[0] if len(leaders) == 1 else None


def settle(matched: Sequence[Sequence[bool]], pips: Sequence[Sequence[int]], stakes: Sequence[int],
           absolute_tie: str = "groups", casino_chip: bool = False) -> dict:
    """Decide the winners and the payments from per-seat, per-group matches and colour pips.

    Returns ``absolute_winner``, ``group_winners``, ``house`` and ``transfers`` (DL-6 … DL-12);
    what one seat pays another over several groups is one transfer.
    """
    n = len(matched)
    full = [s for s in range(n) if all(matched[s])]
    # DL-6, DL-7 (the hand's colour pips only matter when someone matches all three groups).
    absolute = _top(full, [sum(row) for row in pips]) if full else None
    pushed = absolute is None and len(full) > 1 and absolute_tie == "push"  # DL-8 variant
    group_winners: list[int | None] = [None] * len(GROUP_SIZES)
    if absolute is None and not pushed:
        for g in range(len(GROUP_SIZES)):  # DL-9, DL-10
            group_winners[g] = _top([s for s in range(n) if matched[s][g]], [row[g] for row in pips])
    return pay_winners(n, absolute, group_winners, stakes, casino_chip)


def pay_winners(n: int, absolute: int | None, group_winners: Sequence[int | None], stakes: Sequence[int],
                casino_chip: bool = False) -> dict:
    """The payments once the winners are known, from the groups (``settle``) or from the table's
    word (the ``winners`` level): an absolute winner takes every other seat's whole stake
    (DL-6) and gives the house its chip under ``casino_chip`` (DL-11); otherwise each group's
    winner takes that group's stake from every other seat (DL-9), and a group without one
    costs nobody anything (DL-10). Returns ``absolute_winner``, ``group_winners`` (all None
    beside an absolute winner), ``house`` and ``transfers``."""
    house = 0
    transfers: list[dict] = []
    if absolute is not None:
        group_winners = [None] * len(GROUP_SIZES)
        # Every other seat pays the whole stake once, so no payments need adding up.
        whole = sum(stakes)
        if whole > 0:
            transfers = [{"from": s, "to": absolute, "amount": whole} for s in range(n) if s != absolute]
        if casino_chip:  # DL-11
            transfers.append({"from": absolute, "to": None, "amount": CASINO_CHIP})
            house = CASINO_CHIP
    else:
        group_winners = list(group_winners)
        # (payer, receiver) -> amount, in order of first payment: what one seat pays another
        # over several groups is one transfer.
        owed: dict[tuple[int, int], int] = {}
        get = owed.get
        for winner, stake in zip(group_winners, stakes, strict=True):
            if winner is not None:
                for s in range(n):
                    if s != winner:
                        owed[s, winner] = get((s, winner), 0) + stake
        transfers = [{"from": a, "to": b, "amount": amt} for (a, b), amt in owed.items() if amt > 0]
    return {"absolute_winner": absolute, "group_winners": group_winners, "house": house,
            "transfers": transfers}


# ---------------------------------------------------------------------------------------
# Reading the record (ROUND_RECORD.md §4)

def _read_groups(record: dict, common: Common, n: int | None,
                 p: Problems) -> list[list[list[Tile] | None] | None] | None:
    raw = read_list(record["groups"], "groups", p, "The groups list", length=n)
    if raw is None:
        return None
    out: list[list[list[Tile] | None] | None] = []
    for seat, entry in enumerate(raw):
        name = common.seats[seat] if seat < common.n and common.seats[seat] else f"Seat {seat}"
        three = read_list(entry, f"groups[{seat}]", p, f"{name}'s groups", length=len(GROUP_SIZES))
        if three is None:
            out.append(None)
            continue
        out.append([read_tile_list(grp, f"groups[{seat}][{g}]", p, f"{name}'s {GROUP_NAMES[g]}",
                                   length=GROUP_SIZES[g])
                    for g, grp in enumerate(three)])
    return out


def _quick_read(record: dict, n: int) -> tuple[list[Tile], list[list[int]]] | None:
    """The common case in one pass: a table of two tiles and n seats of three groups of 1, 2
    and 3 tiles, all spelt right and within the deck. Returns the table and every group's key,
    or None at the first doubt: the careful reader then goes through the record again and
    words the errors. A valid record gives exactly what the careful path gives."""
    table = record.get("table")
    rows = record.get("groups")
    if type(table) is not list or len(table) != 2 or type(rows) is not list or len(rows) != n:
        return None
    tile0, tile1 = parse_tile(table[0]), parse_tile(table[1])
    if tile0 is None or tile1 is None:
        return None
    weight = _WEIGHT_BY_TEXT
    total = PACK_WEIGHT[tile0] + PACK_WEIGHT[tile1]
    keys = []
    for three in rows:
        # Written out for the one shape GROUP_SIZES allows, [[a], [b, c], [d, e, f]]: this
        # loop is most of the reading, and a loop over sizes and tiles costs twice as much.
        if type(three) is not list or len(three) != 3:
            return None
        g1, g2, g3 = three
        if not (type(g1) is type(g2) is type(g3) is list and len(g1) == 1 and len(g2) == 2 and len(g3) == 3):
            return None
        a, = g1
        b, c = g2
        d, e, f = g3
        # Plain strings only, as parse_tile (and so nothing unhashable reaches the dict).
        if not (type(a) is type(b) is type(c) is type(d) is type(e) is type(f) is str):
            return None
        try:
            k1 = weight[a]
            k2 = weight[b] + weight[c]
            k3 = weight[d] + weight[e] + weight[f]
        except KeyError:  # not a tile
            return None
        keys.append([k1, k2, k3])
        total += k1 + k2 + k3
    if not packed_fits(total, CHINESE_32):  # at most 2 + 5 × 6 = MAX_PACKED tiles
        return None
    return [tile0, tile1], keys


def _read_table(record: dict, p: Problems) -> list[Tile] | None:
    """The two table tiles, checked against the deck on their own; None (with an error) when
    they cannot be read, and when there are none."""
    if "table" not in record:
        return None
    table = read_tile_list(record["table"], "table", p, "The table", length=TABLE_TILES)
    if table is not None and not check_deck([(t, f"table[{k}]") for k, t in enumerate(table)], CHINESE_32, p):
        return None
    return table


def _read_carefully(record: dict, common: Common, n: int | None,
                    p: Problems) -> tuple[list[Tile], list[list[int]]] | None:
    """Read the table and the groups step by step, wording every error (ROUND_RECORD.md §4)."""
    if "table" in record:
        table = read_tile_list(record["table"], "table", p, "The table", length=TABLE_TILES)
    else:
        table = None
        p.error("table", "missing_field", gettext_noop("Give the two table tiles (table)."))
    groups = _read_groups(record, common, n, p)

    placed = [(t, f"table[{k}]") for k, t in enumerate(table or [])]
    for seat, three in enumerate(groups or []):
        for g, grp in enumerate(three or []):
            placed.extend((t, f"groups[{seat}][{g}][{k}]") for k, t in enumerate(grp or []))
    check_deck(placed, CHINESE_32, p)
    if p.errors or n is None or table is None or groups is None:
        return None
    return table, [[group_key(grp) for grp in three] for three in groups]  # type: ignore[union-attr]


def _read_level(record: dict, p: Problems) -> str | None:
    """Which of the two levels the record gives (§4, §4b): exactly one, as for the connecting
    games; None (with the error) for neither or both."""
    given = [level for level in LEVELS if level in record]
    if len(given) == 1:
        return given[0]
    if not given:
        p.error("", "missing_level",
                gettext_noop("Give the outcome of the deal: every player's groups (groups) or the winners "
                             "the table agreed (winners), exactly one."))
    else:
        p.error(LEVELS[1], "two_levels", gettext_noop("Give exactly one of groups or winners, not both."))
    return None


_WINNERS_KEYS = ("absolute", "groups")


def _seat_or_none(value: object, n: int | None) -> bool:
    """None, or a seat number (below ``n`` when the seats are known)."""
    return value is None or (is_int(value) and value >= 0 and (n is None or value < n))  # type: ignore[operator]


def _read_winners(record: dict, n: int | None, p: Problems) -> tuple[int | None, list[int | None]] | None:
    """§4b: ``{"absolute": seat or null, "groups": [three seats or nulls]}``; ``groups`` may be
    left out beside an absolute winner, and must then be all null if given."""
    raw = record["winners"]
    if not isinstance(raw, dict):
        p.error("winners", "bad_type",
                gettext_noop('winners must be an object: {"absolute": a seat or null, "groups": [three seats or nulls]}.'))
        return None
    errors = len(p.errors)
    for key in raw:
        if key not in _WINNERS_KEYS:
            p.error(f"winners.{str(key)[:40]}", "unknown_field", gettext_noop("winners has only absolute and groups."))
    top = f" from 0 to {n - 1}" if n else ""
    absolute = raw.get("absolute")
    if "absolute" not in raw:
        p.error("winners.absolute", "missing_field",
                gettext_noop("Say which seat is the absolute winner, or null for none (winners.absolute)."))
    elif not _seat_or_none(absolute, n):
        p.error("winners.absolute", "bad_seat", f"The absolute winner must be a seat number{top}, or null.")
        absolute = None
    group_winners: list[int | None] = [None] * len(GROUP_SIZES)
    if "groups" not in raw:
        if absolute is None and "absolute" in raw:
            p.error("winners.groups", "missing_field",
                    gettext_noop("Without an absolute winner, give the winner of each group, or null (winners.groups)."))
    else:
        raw_groups = read_list(raw["groups"], "winners.groups", p, "winners.groups", length=len(GROUP_SIZES))
        for g, seat in enumerate(raw_groups or []):
            path = f"winners.groups[{g}]"
            if not _seat_or_none(seat, n):
                p.error(path, "bad_seat", f"The winner of the {GROUP_NAMES[g]} must be a seat number{top}, or null.")
            elif seat is not None and absolute is not None:
                # DL-6: the absolute winner takes the whole stake; no group is settled alone.
                p.error(path, "unexpected_field",
                        f"With an absolute winner no group has a winner of its own: the {GROUP_NAMES[g]} must be null.")
            else:
                group_winners[g] = seat
    if len(p.errors) > errors:
        return None
    return absolute, group_winners


def _evaluate_winners(record: dict, common: Common, n: int | None, p: Problems) -> dict | None:
    """The quick level (§4b): settled on the winners the table agreed, exactly as DL-6 … DL-12
    settle the winners the groups give (``pay_winners``)."""
    table = _read_table(record, p)
    winners = _read_winners(record, n, p)
    if p.errors or n is None or winners is None:
        return None
    variant = common.variant
    result = pay_winners(n, *winners, variant["stakes"], variant["casino_chip"])
    # The engine cannot check what it cannot see: the table's word is taken (§4b).
    p.warn("winners", "unverified",
           gettext_noop("The winners are the table's word: without the groups the engine cannot check them."))
    nets = nets_from_transfers(n, result["transfers"])
    out: dict = {}
    if table is not None:
        out["target"], out["colour"] = target_and_colour(table)
    names = common.seats
    return {**out, "absolute_winner": result["absolute_winner"], "group_winners": result["group_winners"],
            "house": result["house"], "seats": [{"name": names[s], "net": nets[s]} for s in range(n)],
            "transfers": result["transfers"]}


def evaluate(record: dict, common: Common, p: Problems) -> dict | None:
    """Check and settle a Da Ling record (ROUND_RECORD.md §4, RULES.md §8)."""
    variant = common.variant
    n: int | None = None
    if seats_readable(record) and check_seat_count(common, PLAYERS, p):
        n = common.n
    level = _read_level(record, p)
    if level == "winners":
        return _evaluate_winners(record, common, n, p)
    if level is None:
        _read_table(record, p)  # its errors too: every error found is reported (§5)
        return None
    read = _quick_read(record, n) if n is not None else None
    if read is None:
        read = _read_carefully(record, common, n, p)
    if read is None or p.errors:
        return None
    table, keys = read

    target, colour = target_and_colour(table)
    i = 1 if colour == "red" else 2  # index of the colour's pips in a GROUPS entry
    matched = []
    pips = []
    shown = []  # per seat, the output's three group entries
    for k1, k2, k3 in keys:  # three groups a seat, written out: this runs for every seat
        g1, g2, g3 = GROUPS[k1], GROUPS[k2], GROUPS[k3]
        m1, m2, m3 = target in g1[0], target in g2[0], target in g3[0]
        c1, c2, c3 = g1[i], g2[i], g3[i]
        matched.append([m1, m2, m3])
        pips.append([c1, c2, c3])
        shown.append([{"matches": m1, "colour_pips": c1}, {"matches": m2, "colour_pips": c2},
                      {"matches": m3, "colour_pips": c3}])
    result = settle(matched, pips, variant["stakes"], variant["absolute_tie"], variant["casino_chip"])
    nets = nets_from_transfers(n, result["transfers"])
    names = common.seats
    seats = [{"name": names[s], "groups": shown[s], "colour_pips": sum(pips[s]), "net": nets[s]}
             for s in range(n)]
    return {"target": target, "colour": colour, "absolute_winner": result["absolute_winner"],
            "group_winners": result["group_winners"], "house": result["house"],
            "seats": seats, "transfers": result["transfers"]}
