"""Reading a round record: the common fields, tiles, the deck check, and the collector of
errors and warnings with their paths (ROUND_RECORD.md §1, §5, §6).

The reader never raises on bad input: every problem becomes an entry
``{"path", "code", "message"}``. Game modules read their own fields with the helpers here.

What the reader knows of each game (its fields, rule options and name) comes from
``games.catalog``, handed in by the engine: the catalog imports the game modules, which import
this one, so this module never imports the catalog.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Collection, Iterable, Mapping, Protocol

from .decks import deck_name
from .tiles import Tile, parse_tile, tile_str
from .words import gettext_noop


class Game(Protocol):
    """What the reader needs of a game's description (``games.catalog.Game``)."""

    name: str
    fields: tuple[str, ...]
    variants: Mapping[str, Any]

    def variant_defaults(self) -> dict: ...

FORMAT_VERSION = 1

#: Longest list the reader will look into; anything longer is refused unread.
MAX_LIST = 200
MAX_NAME = 100

COMMON_FIELDS = ("format", "game", "variant", "seats")

def is_int(value: object) -> bool:
    """A JSON integer (``True`` is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)


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
    name: str = ""    # the game's name, for messages

    @property
    def n(self) -> int:
        return len(self.seats)


def read_common(record: object, p: Problems, catalog: Mapping[str, Game]) -> Common | None:
    """Check `format`, `game`, `variant`, `seats` and unknown top-level fields.

    ``catalog``: the games known, by key (games.catalog.CATALOG).
    Returns None when the game itself cannot be known (nothing game-specific can be read);
    otherwise a Common, possibly with errors recorded in ``p``.
    """
    if not isinstance(record, dict):
        p.error("", "not_an_object", gettext_noop("A round record must be a JSON object."))
        return None
    fmt = record.get("format", FORMAT_VERSION)
    if not (is_int(fmt) and fmt == FORMAT_VERSION):
        p.error("format", "unknown_format", f"Record format must be {FORMAT_VERSION}.")
    game = record.get("game")
    spec = catalog.get(game) if isinstance(game, str) else None
    if spec is None:
        if "game" not in record:
            p.error("game", "missing_field", gettext_noop("Say which game was played (game)."))
        else:
            p.error("game", "unknown_game", "Unknown game; it must be one of: " + ", ".join(catalog) + ".")
        return None
    allowed = _ALLOWED_FIELDS.get(spec)
    if allowed is None:
        allowed = _ALLOWED_FIELDS[spec] = frozenset(COMMON_FIELDS) | frozenset(spec.fields)
    for key in record:
        if key not in allowed:
            shown = key if isinstance(key, str) and len(key) <= 40 else "this field"
            p.error(str(key)[:60], "unknown_field", f"{spec.name} records have no field '{shown}'.")
    variant = read_variant(spec, record.get("variant"), p)
    seats = _read_seats(record.get("seats"), p) if "seats" in record else None
    if seats is None:
        if "seats" not in record:
            p.error("seats", "missing_field", gettext_noop("List the players' names in playing order (seats)."))
        seats = []
    return Common(game=game, variant=variant, seats=seats, name=spec.name)


#: Game -> every top-level field its records may hold (the common ones and its own), built
#: on a game's first record rather than for every record.
_ALLOWED_FIELDS: dict[Game, frozenset[str]] = {}


def read_variant(game: Game, raw: object, p: Problems) -> dict[str, Any]:
    """The game's rule options: its defaults with the valid ones of ``raw`` (ROUND_RECORD.md §6).
    No ``variant`` (None) means the defaults."""
    values = game.variant_defaults()
    if raw is None:
        return values
    if not isinstance(raw, dict):
        p.error("variant", "bad_type", gettext_noop("variant must be an object of rule options."))
        return values
    known = game.variants
    for key, value in raw.items():
        option = known.get(key)
        path = f"variant.{key}"[:80]
        if option is None:
            options = ", ".join(known)
            p.error(path, "unknown_variant",
                    f"'{str(key)[:40]}' is not a rule option of {game.name}; the options are: {options}.")
        elif not option.check(value):
            p.error(path, "bad_variant", f"{key} must be {option.allowed}.")
        else:
            values[key] = value
    return values


def _read_seats(raw: object, p: Problems) -> list[str] | None:
    if not isinstance(raw, list):
        p.error("seats", "bad_type", gettext_noop("seats must be a list of player names."))
        return None
    if len(raw) > MAX_LIST:
        p.error("seats", "too_long", gettext_noop("Too many seats."))
        return None
    ok = True
    seen: set[str] = set()
    for i, name in enumerate(raw):
        if not isinstance(name, str) or not name.strip():
            p.error(f"seats[{i}]", "bad_name", gettext_noop("Each seat needs a player name."))
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
    p.error("seats", "wrong_player_count", player_count_message(common.name or common.game, allowed, common.n))
    return False


def player_count_message(name: str, allowed: Collection[int], n: int) -> str:
    """'Ding Niu is played by exactly 4 players, not 3.' (the counts allowed run without gaps)."""
    allowed = sorted(allowed)
    need = f"exactly {allowed[0]}" if len(allowed) == 1 else f"{allowed[0]} to {allowed[-1]}"
    return f"{name} is played by {need} players, not {n}."


def seats_readable(record: dict) -> bool:
    """True when `seats` is a list the reader took in, so its length is the player count.

    Games check the player count only then; a missing or unreadable `seats` already has its
    own error and would only add a confusing second one.
    """
    raw = record.get("seats")
    return isinstance(raw, list) and len(raw) <= MAX_LIST
