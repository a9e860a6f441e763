"""A long list a page at a time: which page is shown for the page asked."""

from __future__ import annotations

import pytest

from scoring.domain.paging import Page, page_window


@pytest.mark.parametrize(("count", "asked", "expected"), [
    (0, None, (1, 1, 0)),          # an empty list has one, empty, page
    (45, None, (1, 3, 0)),
    (45, 2, (2, 3, 20)),
    (45, 3, (3, 3, 40)),
    (45, 4, (3, 3, 40)),           # beyond the last: the last
    (45, 10 ** 12, (3, 3, 40)),
    (45, 0, (1, 3, 0)),            # below the first: the first
    (45, -5, (1, 3, 0)),
    (40, 2, (2, 2, 20)),           # a full last page
    (41, 3, (3, 3, 40)),
])
def test_page_window(count, asked, expected):
    assert page_window(count, asked, 20) == expected


def test_a_page_is_its_rows_and_knows_its_neighbours():
    page = Page(list(range(40, 45)), 3, 3, 45, 20)
    assert list(page) == [40, 41, 42, 43, 44] and len(page) == 5 and page[0] == 40
    assert (page.previous, page.next, page.first_shown, page.last_shown) == (2, None, 41, 45)
    first = Page(list(range(20)), 1, 3, 45, 20)
    assert (first.previous, first.next, first.first_shown, first.last_shown) == (None, 2, 1, 20)
    empty = Page([], 1, 1, 0, 20)
    assert (empty.previous, empty.next, empty.first_shown, empty.last_shown) == (None, None, 0, 0)
