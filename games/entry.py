"""The scorer's deal form of each game, as plain data (``Game.entry`` in the catalog).

``scoring/forms.py`` builds its inputs, reads them back into a body and places the engine's
errors from these descriptions alone; nothing here knows Django or HTML.

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
    level: str | None = None     # connecting games: shown only at this level of detail
    also: tuple[str, ...] = ()   # other fields whose errors belong at this input


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

    per_seat = True
    part = None

    def is_optional(self, variant: dict) -> bool:
        return self.optional or (bool(self.optional_under)
                                 and all(variant.get(k) == v for k, v in self.optional_under))


Input = Union[SeatChoice, Tiles, Numbers]


@dataclass(frozen=True)
class Entry:
    """The whole deal form of one game."""

    inputs: tuple[Input, ...]
    #: (level, label) the form offers, the first by default (connecting games; the level names
    #: are the record fields that hold them). Other levels, like the move log, are the API's.
    levels: tuple[tuple[str, str], ...] = ()


__all__ = ["Entry", "Input", "Numbers", "SeatChoice", "Tiles"]
