"""The rules of input shared by the API's fields, the tournament document and the services
(``scoring.domain.inputs``): each pattern means what the Python check beside it means; and the
one reading of a whole number typed in a form, a query string or a URL (``parse_whole_number``)."""

from __future__ import annotations

import re
import sys

import pytest

from scoring.domain.inputs import (
    ANY_TEXT,
    DATETIME,
    DECIMAL_TEXT,
    MAX_ID,
    MAX_INT32,
    MONEY,
    NAME,
    NON_BLANK,
    WHITESPACE,
    blank,
    is_int,
    number_setting,
    parse_whole_number,
    positive_setting,
    whole_number_or_text,
)

TEXTS = ["a", " a", "a ", " a ", "\u3000x", "x\u3000", "\ufeff", "é", "a b", " ", "\t\n", "\u3000", "\x1c", "\x85",
         "\u00a0\u2000\u200a", "\u2028\u2029\u202f\u205f", "", "a\x00", "\x00", "a\nb", "\u200b"]


def test_whitespace_is_exactly_what_str_strip_removes():
    spelled = re.compile(f"[{WHITESPACE}]")
    said = {c for c in map(chr, range(sys.maxunicode + 1)) if spelled.match(c)}
    assert said == {c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace()}


@pytest.mark.parametrize("text", TEXTS)
def test_the_text_patterns_say_what_the_checks_do(text):
    storable = "\x00" not in text
    assert bool(re.match(NON_BLANK, text)) == (storable and not blank(text))
    assert bool(re.match(ANY_TEXT, text)) == (storable and text != "")
    # A name as stored: the services strip it, and it is not empty.
    assert bool(re.match(NAME, text)) == (storable and not blank(text) and text == text.strip())


@pytest.mark.parametrize("value, low, high, expected", [
    (1, None, None, True), (0, None, None, True), (-5, None, None, True), (True, None, None, False),
    (False, 0, 1, False), (1.0, None, None, False), ("1", None, None, False), (None, None, None, False),
    (1, 1, 3, True), (3, 1, 3, True), (0, 1, 3, False), (4, 1, 3, False), (2**31, 1, 2**31 - 1, False),
    (5, 1, None, True), (-1, None, 0, True)])
def test_is_int_takes_json_integers_in_range_only(value, low, high, expected):
    assert is_int(value, low, high) is expected


@pytest.mark.parametrize("text, ok", [
    ("0", True), ("0.5", True), ("0.50", True), ("99999999.99", True), ("100000000", False), ("1.234", False),
    ("-1", False), ("1e3", False), (" 1", False), ("1 ", False), ("\uff11", False), (".5", False), ("1.", False),
    ("", False)])
def test_money_is_digits_with_up_to_two_decimals_below_ten_to_the_eighth(text, ok):
    assert bool(re.match(MONEY, text)) is ok


@pytest.mark.parametrize("text, ok", [
    ("2024-05-01T10:00:00+00:00", True), ("2024-05-01T10:00:00.123456+08:00", True), ("2024-05-01T10:00:00Z", True),
    ("2024-05-01T10:00:00", False), ("2024-05-01T10:00+00:00", False), ("2024-05-01T10:00:00.123+00:00", False),
    ("2024-05-01 10:00:00+00:00", False), ("2024-13-01T10:00:00+00:00", False), ("2024-05-01T24:00:00+00:00", False),
    ("2024-05-01T10:00:00+0000", False), ("2024-05-01T10:00:00+00:00\n", False)])
def test_a_datetime_has_seconds_and_its_utc_offset(text, ok):
    assert bool(re.match(DATETIME, text)) is ok



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


def test_an_idempotency_key_is_at_most_255_characters():
    """Written once: the services' check, the API's schema and the stored key's column read it."""
    from scoring.domain.inputs import MAX_IDEMPOTENCY_KEY

    assert MAX_IDEMPOTENCY_KEY == 255


#: Issue 25's hostile texts, as a query string, a header or a form brings them: each has one
#: reading (0 to MAX_ID, unsigned) and none of them reaches ``int``.
@pytest.mark.parametrize("text, number", [
    ("²", None), ("٣", None), ("１", None), ("-0", None), ("1e9", None), ("9" * 10_000, None), ("\x00", None),
    ("7\x00", None), ("\ud800", None), ("7\ud800", None), ("", None), (" 7 ", 7), ("0", 0), (str(MAX_ID), MAX_ID),
    (str(MAX_ID + 1), None),
])
def test_each_hostile_text_has_one_reading(text, number):
    assert parse_whole_number(text, low=0, high=MAX_ID) == number


def test_minus_zero_is_zero_where_a_sign_is_allowed():
    assert parse_whole_number("-0", low=-5, high=5, signed=True) == 0


@pytest.mark.parametrize("text, number", [(None, 4), ("", 4), ("  ", 4), ("0", 4), ("²", 4), ("٣", 4), ("1e3", 4),
                                          ("9" * 10_000, 4), ("-2", 4), (" 3 ", 3), ("12", 12)])
def test_a_count_in_the_environment_is_a_positive_number_or_the_default(text, number):
    assert positive_setting(text, 4) == number


def test_a_django_setting_that_is_no_number_stops_the_start():
    assert number_setting("X", None, 30) == 30 and number_setting("X", " ", 30) == 30
    assert number_setting("X", "0", 30) == 0 and number_setting("X", "7", 30, low=1) == 7
    for text in ("²", "٣", "1e3", "-1", "0x10", "9" * 10_000):
        with pytest.raises(ValueError, match="X must be a whole number"):
            number_setting("X", text, 30)
    with pytest.raises(ValueError):
        number_setting("X", "0", 30, low=1)
