"""The one reading of a whole number typed in a form, a query string or a URL
(scoring.domain.inputs.parse_whole_number)."""

from __future__ import annotations

import pytest

from scoring.domain.inputs import DECIMAL_TEXT, MAX_ID, MAX_INT32, parse_whole_number, whole_number_or_text


@pytest.mark.parametrize("text, number", [
    ("0", 0), ("7", 7), (" 7 ", 7), ("007", 7), (str(MAX_INT32), MAX_INT32),
])
def test_ascii_digits_are_a_number(text, number):
    assert parse_whole_number(text, low=0, high=MAX_INT32) == number


@pytest.mark.parametrize("text", [
    "", " ", "²", "٣", "１", "1e3", "1_000", "1.0", "0x10", "+7", "-7", "7 7", "9" * 30, "9" * 5000,
    str(MAX_INT32 + 1), None, 7, "\u200b7",
])
def test_anything_else_is_none(text):
    """Not even what ``str.isdigit`` (²), ``\\d`` (٣, １) or ``int`` (" 1_000", "٣") would take;
    nor a number beyond the range (never read: ``int`` refuses over 4300 digits)."""
    assert parse_whole_number(text, low=0, high=MAX_INT32) is None


def test_a_sign_only_where_allowed_and_the_range_both_ways():
    assert parse_whole_number("-7", low=-10, high=10, signed=True) == -7
    assert parse_whole_number("+7", low=-10, high=10, signed=True) == 7
    assert parse_whole_number("-11", low=-10, high=10, signed=True) is None
    assert parse_whole_number("-" + "9" * 30, low=-10, high=10, signed=True) is None
    assert parse_whole_number("0", low=1, high=10) is None
    assert parse_whole_number(str(MAX_ID), low=1, high=MAX_ID) == MAX_ID


def test_clamp_reads_a_number_too_large_as_the_largest():
    assert parse_whole_number("9" * 40, low=1, high=200, clamp=True) == 200
    assert parse_whole_number("201", low=1, high=200, clamp=True) == 200
    assert parse_whole_number("0", low=1, high=200, clamp=True) is None
    assert parse_whole_number("²", low=1, high=200, clamp=True) is None


@pytest.mark.parametrize("text, number", [("7", 7), ("0", 0), ("07", None), (" 7", None), ("7 ", None), ("+7", None),
                                          ("-0", None)])
def test_canonical_is_the_one_spelling(text, number):
    assert parse_whole_number(text, low=0, high=10, canonical=True) == number


def test_whole_number_or_text():
    assert whole_number_or_text("5", low=0, high=9) == 5
    assert whole_number_or_text("٥", low=0, high=9) == "٥"     # the service refuses it at its path
    assert whole_number_or_text("10", low=0, high=9) == "10"


@pytest.mark.parametrize("text, ok", [("0.50", True), ("2", True), (".5", True), ("5.", True), ("-1", True),
                                      ("1e3", False), ("٣", False), ("１", False), ("1,5", False), ("", False),
                                      ("NaN", False), ("Infinity", False), ("1_0", False)])
def test_decimal_text(text, ok):
    assert bool(DECIMAL_TEXT.match(text)) is ok
