"""The scorer's deal form of each game, as plain data (``Game.entry`` in the catalog).

``scoring/web/deal_form.py`` builds its inputs and reads them back into a body, and
``scoring/web/deal_paths.py`` places the engine's errors, from these descriptions alone; nothing
here knows Django or HTML.

A top input appears once; a seat input once per seat, named ``{name}_{position}``. An entry
lists its inputs in the order their fields go into the body. Every input says which body
field it fills (``fills``): the record's field, or ``leader`` / ``banker``, which the service
turns into the record's seat order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


@dataclass(frozen=True)
class SeatChoice:
    """Pick one of the table's seats (a top input)."""

    name: str                 # the input, and the body field it fills
    label: str
    what: str                 # the form says "Choose {what}." when no seat can be read
    blank: str | None = None  # label of the "no seat" choice; None: a seat must be chosen (seat 0 at first)

    per_seat = False
    part = None
    level = None
    also = ()

    @property
    def fills(self) -> str:
        return self.name

    @property
    def required(self) -> bool:
        return self.blank is None


@dataclass(frozen=True)
class Tiles:
    """Tiles typed as text (``6:4 3:1``), for the table or for each seat."""

    name: str
    label: str
    fills: str
    placeholder: str = ""
    per_seat: bool = False
    part: int | None = None      # each seat fills a list of tile groups: this input is group ``part``
    level: str | None = None     # shown only at this level of detail
    also: tuple[str, ...] = ()   # other fields whose errors belong at this input
    count: int | None = None     # exactly this many tiles (a hand, a group); None: up to the deal size
    omit_empty: bool = False     # per seat: every seat empty leaves the field out (it is optional)


@dataclass(frozen=True)
class Numbers:
    """A whole number for each seat.

    Each seat gives its own number (``together`` false: an empty one is told ``missing``), or
    the seats give all of them or none (``together``: every seat without a readable number is
    told ``missing`` while others have one). With no number at all the list is left out when
    it is optional; otherwise every seat is told ``none_given`` (``missing`` if not set).
    """

    name: str
    label: str
    fills: str
    minimum: int
    missing: str
    level: str | None = None
    together: bool = False
    none_given: str = ""
    optional: bool = False
    #: The list may also be left out under these variant settings, e.g. (("settlement", "v1"),).
    optional_under: tuple[tuple[str, object], ...] = ()
    #: A seat choice naming the one seat that gives no number (its place in the list is null).
    not_for: str = ""
    also: tuple[str, ...] = ()
    #: Kept on the scorer's phone for the next deal at the table (a stake stays until changed).
    remember: bool = False
    #: Said at the seat the ``not_for`` seat has just left (``seats_needing``).
    left_behind: str = ""

    per_seat = True
    part = None

    def is_optional(self, variant: dict) -> bool:
        return self.optional or (bool(self.optional_under)
                                 and all(variant.get(k) == v for k, v in self.optional_under))

    def seats_needing(self, previous: int | None, chosen: int | None, variant: dict) -> tuple[int, ...]:
        """The seats whose number the form must ask for before sending, though the phone keeps
        the last deal's: the seat the ``not_for`` seat held last deal (``previous``) and has
        left this deal (``chosen``: the seat chosen now, None when unknown) gave none then, so
        none is kept for it (TN-3: the banker stakes nothing; the bank moves, TN-V2-5). None
        while the list may be left out under ``variant`` (a v1 single bet)."""
        if not (self.not_for and self.remember) or previous is None or previous == chosen:
            return ()
        return () if self.is_optional(variant) else (previous,)


@dataclass(frozen=True)
class Declared:
    """A tile set a seat declares among its own tiles (a Tau Ngau bull), for each seat.

    Typed as tiles (``6:4 3:1 5:5``) it fills ``{"bull": [...]}``; ``-`` declares none
    (``{"bull": null}``); left empty, the seat declares nothing (``null``)."""

    name: str
    label: str
    fills: str
    chosen_from: str          # the seat input whose tiles it is chosen among
    count: int
    placeholder: str = ""
    level: str | None = None  # shown only at this level of detail

    per_seat = True
    part = None
    also = ()


@dataclass(frozen=True)
class SeatValue:
    """For each seat, ``none`` (null) or a whole number from a range (Tau Ngau's values: no bull,
    or the bull's value). The range is ``low``–``high``, or another under a rule option:
    ``under`` holds ``(option, value, low, high)``, e.g. ``("settlement", "v1", 1, 10)``."""

    name: str
    label: str
    fills: str
    none: str                 # label of the null choice, e.g. "no bull"
    low: int
    high: int
    under: tuple[tuple[str, object, int, int], ...] = ()
    level: str | None = None

    per_seat = True
    part = None
    also = ()
    # Nothing here is typed as tiles, but a form that does not know this input yet shows it as
    # a text box of tiles and reads these.
    placeholder = ""
    count = None
    omit_empty = False

    def bounds(self, variant: dict) -> tuple[int, int]:
        """The range under ``variant`` (the game's options, defaults included)."""
        for option, value, low, high in self.under:
            if variant.get(option) == value:
                return low, high
        return self.low, self.high

    def choices(self, variant: dict) -> list[tuple[int | None, str]]:
        """(value, label) of every choice under ``variant``, null first."""
        low, high = self.bounds(variant)
        return [(None, self.none)] + [(v, str(v)) for v in range(low, high + 1)]


@dataclass(frozen=True)
class Winner:
    """One seat, or none (null), put into an object field (a top input): its ``key``, or entry
    ``part`` of the list at ``key`` (Da Ling's ``winners``: ``absolute``, ``groups[g]``)."""

    name: str
    label: str
    fills: str
    key: str
    blank: str                # label of the "no seat" choice
    part: int | None = None
    level: str | None = None
    #: Inputs that must stay at none while this one names a seat (a seat here leaves them none).
    excludes: tuple[str, ...] = ()

    per_seat = False
    also = ()
    # As for SeatValue: read by a form that does not know this input yet.
    placeholder = ""
    count = None
    omit_empty = False


@dataclass(frozen=True)
class Moves:
    """The full move log of a layout game, typed as one line (a top input).

    ``6:4`` plays a tile; ``6:4@6`` plays it to the open 6 (two arms), or on the lead leaves
    the 6 open (one arm); ``x3:1`` passes 3:1 face down. Moves go to the seats in turn."""

    name: str
    label: str
    fills: str
    level: str | None = None
    placeholder: str = ""

    per_seat = False
    part = None
    also = ()


@dataclass(frozen=True)
class Mark:
    """A field set to ``true`` whenever its level is chosen (Ce Deng's ``redeal``); no input."""

    name: str
    fills: str
    level: str

    per_seat = False
    part = None
    also = ()
    label = ""


Input = Union[SeatChoice, Tiles, Numbers, Declared, SeatValue, Winner, Moves, Mark]


@dataclass(frozen=True)
class Entry:
    """The whole deal form of one game."""

    inputs: tuple[Input, ...]
    #: (level, label) the form offers, the first by default (the level names are the record
    #: fields that hold them).
    levels: tuple[tuple[str, str], ...] = ()

    def quick_level(self) -> str | None:
        """The quickest level: the first whose inputs are all typed as numbers or seats, no
        tiles or moves (the connecting games' points, Tau Ngau's values, Da Ling's winners);
        what a paper score sheet asks for. None when every level needs tiles."""
        for level, _label in self.levels:
            if not any(isinstance(i, _BY_TILES) for i in self.inputs_at(level)):
                return level
        return None

    def ways_of_entering(self) -> tuple[tuple[str, str], ...]:
        """The (level, label) a phone may start a deal on: every level but one that records an
        event (a Mark's: Ce Deng's redeal); the first is the form's default."""
        events = {i.level for i in self.inputs if isinstance(i, Mark)}
        return tuple((level, label) for level, label in self.levels if level not in events)

    def inputs_at(self, level: str | None) -> tuple[Input, ...]:
        """The inputs shown at ``level`` (those of every level included), in form order."""
        return tuple(i for i in self.inputs if i.level is None or i.level == level)


#: Inputs that are tiles or moves (or mark a level that records them): not for a quick level.
_BY_TILES = (Tiles, Moves, Declared, Mark)


__all__ = ["Declared", "Entry", "Input", "Mark", "Moves", "Numbers", "SeatChoice", "SeatValue", "Tiles", "Winner"]
