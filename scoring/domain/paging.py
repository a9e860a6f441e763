"""A long list shown a page at a time (the director's console: disputes, unsettled deals, recent
actions). Pure: the count and the rows come in, nothing is read here.

A page asked beyond the last is the last page, and one below the first (or none, or no number)
the first: a bookmarked page of a list that shrank still shows something.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def page_window(count: int, asked: int | None, size: int) -> tuple[int, int, int]:
    """``(number, pages, offset)`` of the page ``asked`` (1-based) of ``count`` rows, ``size`` a
    page: ``number`` clamped to ``1..pages``; an empty list has one (empty) page."""
    pages = max(1, math.ceil(count / size))
    number = min(max(asked or 1, 1), pages)
    return number, pages, (number - 1) * size


@dataclass(frozen=True)
class Page(Sequence):
    """One page of a list: its rows (``items``; the page iterates, indexes and measures as
    them) and where it stands: ``number`` of ``pages``, ``count`` rows in the whole list."""

    items: list[Any] = field(default_factory=list)
    number: int = 1
    pages: int = 1
    count: int = 0
    size: int = 20

    def __getitem__(self, i):
        return self.items[i]

    def __len__(self) -> int:
        return len(self.items)

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.pages else None

    @property
    def first_shown(self) -> int:
        """The position (1-based) of the page's first row in the whole list; 0 when empty."""
        return (self.number - 1) * self.size + 1 if self.items else 0

    @property
    def last_shown(self) -> int:
        return (self.number - 1) * self.size + len(self.items)

    @classmethod
    def of(cls, rows: list, asked: int | None, size: int) -> Page:
        """The page ``asked`` (as ``page_window`` clamps it) of the whole list ``rows``."""
        number, pages, offset = page_window(len(rows), asked, size)
        return cls(items=rows[offset:offset + size], number=number, pages=pages, count=len(rows), size=size)
