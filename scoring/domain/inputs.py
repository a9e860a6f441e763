"""What the database can store, checked before anything reaches it: text without NUL
characters or lone surrogates (PostgreSQL refuses both, and UTF-8 cannot encode the latter), and
whole numbers within the columns' range. Shared by the JSON parser and the services; and the one
reading of a whole number typed in a form, a query string or a URL (``parse_whole_number``)."""

from __future__ import annotations

import re
from typing import Any

from scoring.domain.errors import problem

#: The largest value of a 32-bit integer column (PositiveIntegerField on PostgreSQL).
MAX_INT32 = 2**31 - 1
#: The largest id of a row (a 64-bit key).
MAX_ID = 2**63 - 1
#: The largest whole number typed in a form's number field (seven digits: points, stakes, rule
#: options); the engine says which range each one takes.
MAX_TYPED = 9_999_999
#: How deep ``unstorable`` looks; the JSON parser refuses deeper bodies already.
_MAX_DEPTH = 200

_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")
#: A whole number as text: ASCII digits only. ``\d`` and ``str.isdigit`` also take "٣" and "１"
#: (which ``int`` reads) and "²" (which ``int`` refuses): a form sending them answered 500.
_WHOLE = re.compile(r"\A([+-]?)([0-9]+)\Z")
#: A decimal as text ("0.50", "2", ".5"), ASCII digits only; its range is the caller's to check.
DECIMAL_TEXT = re.compile(r"\A[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")


def text_problem(value: str) -> str | None:
    """Why this text cannot be stored, or None."""
    m = _BAD_CHARS.search(value)
    if m is None:
        return None
    if m.group() == "\x00":
        return "Text may not contain NUL characters."
    return "Text may not contain a lone surrogate (\\ud800–\\udfff); send valid Unicode."


def unstorable(value: Any, path: str = "", depth: int = 0) -> dict | None:
    """The first place in parsed JSON holding text that cannot be stored (keys included), as
    ``{"path", "code", "message"}``; None when all is well."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(value, str):
        why = text_problem(value)
        return problem(path, "bad_text", why) if why else None
    if isinstance(value, dict):
        for key, item in value.items():
            sub = f"{path}.{key}" if path else str(key)
            why = text_problem(key) if isinstance(key, str) else None
            if why:
                return problem(path, "bad_text", f"A field name: {why}")
            found = unstorable(item, sub, depth + 1)
            if found:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = unstorable(item, f"{path}[{i}]", depth + 1)
            if found:
                return found
    return None


def id_list_problems(ids: list, path: str, *, not_an_id: str, repeated: str) -> list[dict]:
    """``{"path", "code", "message"}`` for each item of ``ids`` that is no row id
    (``bad_type``) or repeats an earlier one (``duplicate_entry``); the messages are the caller's."""
    out = []
    for i, value in enumerate(ids):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_ID:
            out.append(problem(f"{path}[{i}]", "bad_type", not_an_id))
        elif value in ids[:i]:
            out.append(problem(f"{path}[{i}]", "duplicate_entry", repeated))
    return out


def parse_whole_number(text: Any, *, low: int, high: int, signed: bool = False, clamp: bool = False,
                       canonical: bool = False) -> int | None:
    """The whole number ``text`` spells, when it lies between ``low`` and ``high``; else None.

    Only ASCII digits count (``"²"``, ``"٣"``, ``"１"``, ``"1e3"``, ``"1_000"`` and ``""`` are no
    number), with a leading ``+`` or ``-`` only when ``signed``; spaces around are ignored and
    leading zeros are no error, unless ``canonical`` (the API's query parameters: the one
    spelling of the schema's integers, ``"7"`` and not ``"07"`` or ``" 7"``). With ``clamp``, a
    number above ``high`` reads as ``high`` (a page size asked too large). A number too long for
    the range is refused without being read (``int`` refuses more than 4300 digits)."""
    if not isinstance(text, str):
        return None
    m = _WHOLE.match(text if canonical else text.strip())
    if m is None or (m.group(1) and not signed):
        return None
    if canonical and (m.group(1) == "+" or (len(m.group(2)) > 1 and m.group(2)[0] == "0")):
        return None
    negative = m.group(1) == "-"
    digits = m.group(2).lstrip("0") or "0"
    if len(digits) > len(str(max(abs(low), abs(high)))):
        return high if clamp and not negative else None
    value = -int(digits) if negative else int(digits)
    if value > high and clamp:
        return high
    return value if low <= value <= high else None


def whole_number_or_text(text: Any, *, low: int, high: int, signed: bool = False) -> Any:
    """``parse_whole_number``'s number, or else ``text`` as it came: for the service or the engine
    to refuse with its own message at its own path (a form's error under its field)."""
    value = parse_whole_number(text, low=low, high=high, signed=signed)
    return text if value is None else value
