"""The rules of input shared by the API's fields, the tournament document and the services
(``scoring.domain.inputs``): each pattern means what the Python check beside it means."""

from __future__ import annotations

import re
import sys

import pytest

from scoring.domain.inputs import ANY_TEXT, DATETIME, MONEY, NAME, NON_BLANK, WHITESPACE, blank, is_int

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
