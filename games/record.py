"""Reading a round record: the common fields, tiles, the deck check, and the collector of
errors and warnings with their paths (ROUND_RECORD.md §1, §5, §6).

The reader never raises on bad input: every problem becomes an entry
``{"path", "code", "message"}``. Game modules read their own fields with the helpers here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Iterable

from .decks import deck_name
from .tiles import Tile, parse_tile, tile_str

FORMAT_VERSION = 1

GAMES = ("jie_long", "ce_deng", "kko_li_but_i_gi", "ding_niu", "tau_ngau", "da_ling")
CONNECTING_GAMES = ("jie_long", "ce_deng", "kko_li_but_i_gi", "ding_niu")

GAME_NAMES = {
    "jie_long": "Jie Long",
    "ce_deng": "Ce Deng",
    "kko_li_but_i_gi": "Kko-li-but-i-gi",
    "ding_niu": "Ding Niu",
    "tau_ngau": "Tau Ngau",
    "da_ling": "Da Ling",
}

#: Longest list the reader will look into; anything longer is refused unread.
MAX_LIST = 200
MAX_NAME = 100

COMMON_FIELDS = ("format", "game", "variant", "seats")
_CONNECTING_FIELDS = ("points", "unplayed", "unplayed_tiles", "moves", "left_in_hand")
#: Top-level fields each game defines besides the common ones (§1: others are `unknown_field`).
GAME_FIELDS: dict[str, tuple[str, ...]] = {
    "jie_long": _CONNECTING_FIELDS,
    "kko_li_but_i_gi": _CONNECTING_FIELDS,
    "ce_deng": _CONNECTING_FIELDS + ("redeal", "hands"),
    "ding_niu": _CONNECTING_FIELDS + ("suanzhang",),
    "tau_ngau": ("banker", "stakes", "bet", "hands", "declared"),
    "da_ling": ("table", "groups"),
}


#: game -> every top-level field its records may hold, built once rather than per record.
_ALLOWED_FIELDS: dict[str, frozenset[str]] = {
    game: frozenset(COMMON_FIELDS) | frozenset(fields) for game, fields in GAME_FIELDS.items()}


def is_int(value: object) -> bool:
    """A JSON integer (``True`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------------------------------
# Variants (ROUND_RECORD.md §6): key -> (default, check, description of allowed values)

def _one_of(*values: object) -> Callable[[object], bool]:
    def check(v: object) -> bool:
        return any(type(v) is type(x) and v == x for x in values)
    return check


def _stakes(v: object) -> bool:
    return isinstance(v, list) and len(v) == 3 and all(is_int(x) and 0 < x <= 1_000_000 for x in v)


def _redeal(v: object) -> bool:
    return is_int(v) and 5 <= v <= 8


_BOOL = (False, _one_of(False, True), "true or false")
VARIANTS: dict[str, dict[str, tuple[Any, Callable[[object], bool], str]]] = {
    "jie_long": {
        "voluntary_pass": _BOOL,
        "arms": (1, _one_of(1, 2), "1 or 2"),
        "settlement": ("difference", _one_of("difference", "chip"), '"difference" or "chip"'),
    },
    "ce_deng": {
        "voluntary_pass": _BOOL,
        "head_tail": ("7/8", _one_of("7/8", "6/7"), '"7/8" or "6/7"'),
        "multiplier": ("pair", _one_of("pair", "payer"), '"pair" or "payer"'),
        "redeal_doubles": (7, _redeal, "a whole number from 5 to 8"),
    },
    "kko_li_but_i_gi": {
        "voluntary_pass": _BOOL,
        "settlement": ("highest_over_30", _one_of("highest_over_30", "chip", "points"),
                       '"highest_over_30", "chip" or "points"'),
        "over_30_only_with_four": _BOOL,
    },
    "ding_niu": {
        "voluntary_pass": _BOOL,
        "blame_needs_choice": (True, _one_of(True, False), "true or false"),
    },
    "tau_ngau": {
        "settlement": ("v2", _one_of("v2", "v1"), '"v2" or "v1"'),
        "v1_no_bull_pays": ("four", _one_of("four", "banker_value"), '"four" or "banker_value"'),
        "bank_rotation": ("on_banker_bull", _one_of("on_banker_bull", "every_round", "fixed"),
                          '"on_banker_bull", "every_round" or "fixed"'),
        "may_decline_bull": _BOOL,
    },
    "da_ling": {
        "stakes": ([3, 7, 15], _stakes, "three positive whole numbers, like [3, 7, 15]"),
        "absolute_tie": ("groups", _one_of("groups", "push"), '"groups" or "push"'),
        "casino_chip": _BOOL,
    },
}


def variant_defaults(game: str) -> dict[str, Any]:
    return {k: (list(d) if isinstance(d, list) else d) for k, (d, _, _) in VARIANTS[game].items()}


# ---------------------------------------------------------------------------------------

@dataclass
class Problems:
    """Collects errors and warnings, each ``{"path", "code", "message"}``."""

    errors: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)

    def error(self, path: str, code: str, message: str) -> None:
        self.errors.append({"path": path, "code": code, "message": message})

    def warn(self, path: str, code: str, message: str) -> None:
        self.warnings.append({"path": path, "code": code, "message": message})

    def __bool__(self) -> bool:  # "are there errors?"
        return bool(self.errors)


@dataclass
class Common:
    """The common part of a valid record."""

    game: str
    variant: dict[str, Any]
    seats: list[str]

    @property
    def n(self) -> int:
        return len(self.seats)


def read_common(record: object, p: Problems) -> Common | None:
    """Check `format`, `game`, `variant`, `seats` and unknown top-level fields.

    Returns None when the game itself cannot be known (nothing game-specific can be read);
    otherwise a Common, possibly with errors recorded in ``p``.
    """
    if not isinstance(record, dict):
        p.error("", "not_an_object", "A round record must be a JSON object.")
        return None
    fmt = record.get("format", FORMAT_VERSION)
    if not (is_int(fmt) and fmt == FORMAT_VERSION):
        p.error("format", "unknown_format", f"Record format must be {FORMAT_VERSION}.")
    game = record.get("game")
    if game not in GAMES:
        if "game" not in record:
            p.error("game", "missing_field", "Say which game was played (game).")
        else:
            p.error("game", "unknown_game", "Unknown game; it must be one of: " + ", ".join(GAMES) + ".")
        return None
    allowed = _ALLOWED_FIELDS[game]
    for key in record:
        if key not in allowed:
            shown = key if isinstance(key, str) and len(key) <= 40 else "this field"
            p.error(str(key)[:60], "unknown_field", f"{GAME_NAMES[game]} records have no field '{shown}'.")
    variant = _read_variant(game, record.get("variant"), p)
    seats = _read_seats(record.get("seats"), p) if "seats" in record else None
    if seats is None:
        if "seats" not in record:
            p.error("seats", "missing_field", "List the players' names in playing order (seats).")
        seats = []
    return Common(game=game, variant=variant, seats=seats)


def _read_variant(game: str, raw: object, p: Problems) -> dict[str, Any]:
    values = variant_defaults(game)
    if raw is None:
        return values
    if not isinstance(raw, dict):
        p.error("variant", "bad_type", "variant must be an object of rule options.")
        return values
    known = VARIANTS[game]
    for key, value in raw.items():
        spec = known.get(key)
        path = f"variant.{key}"[:80]
        if spec is None:
            options = ", ".join(known)
            p.error(path, "unknown_variant",
                    f"'{str(key)[:40]}' is not a rule option of {GAME_NAMES[game]}; the options are: {options}.")
            continue
        _, check, allowed = spec
        if not check(value):
            p.error(path, "bad_variant", f"{key} must be {allowed}.")
        else:
            values[key] = value
    return values


def _read_seats(raw: object, p: Problems) -> list[str] | None:
    if not isinstance(raw, list):
        p.error("seats", "bad_type", "seats must be a list of player names.")
        return None
    if len(raw) > MAX_LIST:
        p.error("seats", "too_long", "Too many seats.")
        return None
    ok = True
    seen: set[str] = set()
    for i, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip():
            p.error(f"seats[{i}]", "bad_name", "Each seat needs a player name.")
            ok = False
        elif len(name) > MAX_NAME:
            p.error(f"seats[{i}]", "bad_name", f"A name has at most {MAX_NAME} characters.")
            ok = False
        elif name in seen:
            p.error(f"seats[{i}]", "duplicate_name", f"'{name}' sits at two seats; names must be distinct.")
            ok = False
        else:
            seen.add(name)
    return list(raw) if ok else [str(x) if isinstance(x, str) else "" for x in raw]


# ---------------------------------------------------------------------------------------
# Tiles and lists

def read_tile(value: object, path: str, p: Problems) -> Tile | None:
    tile = parse_tile(value)
    if tile is None:
        shown = f"'{value}'" if isinstance(value, str) and len(value) <= 12 else "This"
        p.error(path, "bad_tile", f"{shown} is not a tile: write two pips from 1 to 6, like 6:4.")
    return tile


_SINGULAR = {"entries": "entry", "tiles": "tile"}


def read_list(value: object, path: str, p: Problems, what: str, *, length: int | None = None,
              max_len: int = MAX_LIST, noun: str = "entries") -> list | None:
    """A list (of the given length, if any), else an error and None. ``noun`` (plural) names
    what the list holds in the message, e.g. "must have 5 tiles, not 4"."""
    if not isinstance(value, list):
        p.error(path, "bad_type", f"{what} must be a list.")
        return None
    if length is not None and len(value) != length:
        unit = _SINGULAR.get(noun, noun) if length == 1 else noun
        p.error(path, "wrong_count", f"{what} must have {length} {unit}, not {len(value)}.")
        return None
    if len(value) > max_len:
        p.error(path, "too_long", f"{what} has too many entries.")
        return None
    return value


def read_tile_list(value: object, path: str, p: Problems, what: str, *, length: int | None = None,
                   max_len: int = 32) -> list[Tile] | None:
    """A list of tiles; None if it is not a list of the right length or any tile is bad."""
    items = read_list(value, path, p, what, length=length, max_len=max_len, noun="tiles")
    if items is None:
        return None
    tiles = [read_tile(v, f"{path}[{i}]", p) for i, v in enumerate(items)]
    if any(t is None for t in tiles):
        return None
    return tiles  # type: ignore[return-value]


def check_deck(placed: Iterable[tuple[Tile, str]], deck: Counter, p: Problems) -> bool:
    """Every tile at most as often as the deck holds it, in record order (§1).

    The error's path names the first copy beyond the deck.
    """
    seen: Counter = Counter()
    ok = True
    for tile, path in placed:
        seen[tile] += 1
        have = deck.get(tile, 0)
        if seen[tile] > have:
            ok = False
            if have == 0:
                p.error(path, "not_in_deck", f"[{tile_str(tile)}] is not in {deck_name(deck)}.")
            else:
                copies = "once" if have == 1 else f"{have} times"
                p.error(path, "too_many_copies",
                        f"[{tile_str(tile)}] appears more often than {deck_name(deck)} holds it ({copies}).")
    return ok


def check_seat_count(common: Common, allowed: Collection[int], p: Problems) -> bool:
    if common.n in allowed:  # the usual case: no sorting, no message
        return True
    allowed = sorted(allowed)
    if len(allowed) == 1:
        need = f"exactly {allowed[0]}"
    else:
        need = f"{allowed[0]} to {allowed[-1]}"
    p.error("seats", "wrong_player_count",
            f"{GAME_NAMES[common.game]} is played by {need} players, not {common.n}.")
    return False


def seats_readable(record: dict) -> bool:
    """True when `seats` is a list the reader took in, so its length is the player count.

    Games check the player count only then; a missing or unreadable `seats` already has its
    own error and would only add a confusing second one.
    """
    raw = record.get("seats")
    return isinstance(raw, list) and len(raw) <= MAX_LIST
