"""The values of a tournament document, each checked at its path (``document.rounds[3].created_at``):
objects with exactly their keys, lists, whole numbers, flags, text, names, dates and times, and
the free JSON of deals and rule options. Pure. Each check returns the value or raises
ValidationFailed with its path and a code; ``domain.document_reader`` walks a document with them.

Dates and times: ``DATETIME`` (seconds and a UTC offset), a real calendar day, and **in UTC
within years 1 to 9999** (``date_out_of_range``): ``0001-01-01T00:30:00+01:00`` is a valid
text whose moment falls in year 0, which no ``datetime`` holds, so the database would store
something that can never be read back (PostgreSQL), or the write itself would fail (SQLite)."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from scoring.domain.document_schema import KEYS, OPTIONAL
from scoring.domain.documents import MAX_JSON_DEPTH, MAX_JSON_ITEMS, MAX_JSON_TEXT
from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import DATETIME, MAX_INT32, NAME, blank, is_int, text_problem


def fail(path: str, code: str, message: str):
    raise ValidationFailed(message, path=path, code=code)


def an_object(value: Any, path: str, kind: str | None = None) -> dict:
    """An object; of ``kind`` (``KEYS``): with exactly that kind's keys (the ``OPTIONAL`` ones
    may be left out)."""
    if not isinstance(value, dict):
        fail(path, "bad_type", "An object is expected here.")
    if kind is not None:
        for key in value:
            if key not in KEYS[kind]:
                fail(f"{path}.{key}", "unknown_field", f"{key} is not a field of this document.")
        for key in KEYS[kind]:
            if key not in value and key not in OPTIONAL.get(kind, {}):
                fail(f"{path}.{key}", "required", "This field is required.")
    return value


def a_list(value: Any, path: str) -> list:
    if not isinstance(value, list):
        fail(path, "bad_type", "A list is expected here.")
    return value


def whole(value: Any, path: str, *, low: int = 1, high: int = MAX_INT32) -> int:
    if not is_int(value, low, high):
        fail(path, "bad_type", f"A whole number from {low} to {high} is expected here.")
    return value


def flag(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        fail(path, "bad_type", "true or false is expected here.")
    return value


def text(value: Any, path: str, *, max_length: int, required: bool = False) -> str:
    if not isinstance(value, str):
        fail(path, "bad_type", "Text is expected here.")
    if required and blank(value):
        fail(path, "required", "This may not be empty.")
    if len(value) > max_length:
        fail(path, "too_long", f"At most {max_length} characters.")
    why = text_problem(value)
    if why:
        fail(path, "bad_text", why)
    return value


def name(value: Any, path: str, *, max_length: int) -> str:
    """A name as the services store it: stripped, not empty."""
    value = text(value, path, max_length=max_length, required=True)
    if not re.match(NAME, value):   # not blank and storable already: so spaces at an end
        fail(path, "bad_text", "A name has no leading or trailing spaces.")
    return value


def when(value: Any, path: str, *, nullable: bool = False) -> datetime | None:
    """A date and time (``DATETIME``) whose moment lies in years 1 to 9999 in UTC; ``nullable``:
    or null (whether a status needs it is ``needed``'s to say)."""
    if value is None and nullable:
        return None
    if not isinstance(value, str) or not re.match(DATETIME, value):
        fail(path, "bad_type", "An ISO 8601 date and time with seconds and its UTC offset is expected here.")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        fail(path, "bad_datetime", "An ISO 8601 date and time with its UTC offset is expected here.")
    try:
        parsed.astimezone(timezone.utc)
    except OverflowError:
        fail(path, "date_out_of_range", "This moment falls outside the years 1 to 9999 in UTC.")
    return parsed


def moment(value: str | None) -> datetime | None:
    """A date and time that ``when`` has passed already, read (null: None)."""
    return None if value is None else datetime.fromisoformat(value)


def needed(value: Any, path: str, needed_by: str) -> None:
    """A date and time the format lets be null but something else needs (``needed_by``:
    "the tournament has started"): ``needed_for_status`` when it is null."""
    if value is None:
        fail(path, "needed_for_status", f"A date and time is needed here: {needed_by}.")


def one_of(value: Any, path: str, choices: tuple[str, ...], *, code: str = "invalid_choice") -> str:
    """One of ``choices`` (text)."""
    if not isinstance(value, str) or value not in choices:
        fail(path, code, f"{path.rsplit('.', 1)[-1]} is one of {', '.join(choices)}.")
    return value


def matching(value: Any, path: str, pattern: str, message: str) -> str:
    """Text matching ``pattern`` (anchored); ``bad_type`` with ``message`` when it does not."""
    if not isinstance(value, str) or not re.match(pattern, value):
        fail(path, "bad_type", message)
    return value


def not_before(later: datetime | None, earlier: datetime | None, path: str, what: str) -> None:
    """``later`` is not before ``earlier`` (either may be missing); ``date_order`` at ``path``."""
    if later is not None and earlier is not None and later < earlier:
        fail(path, "date_order", f"This is before {what}.")


def free_json(value: Any, path: str) -> Any:
    """Free JSON (a variant, a deal's body, record or result) within ``MAX_JSON_DEPTH`` levels,
    ``MAX_JSON_ITEMS`` items a list or object and ``MAX_JSON_TEXT`` characters a text or key:
    ``too_deep`` or ``too_long`` at the first place that is not."""
    if _bounded(value):   # the common case, walked without spelling out paths (a big import's shape)
        return value
    stack = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_JSON_TEXT:
                fail(where, "too_long", f"At most {MAX_JSON_TEXT} characters.")
            continue
        if not isinstance(item, (dict, list)):
            continue
        if depth >= MAX_JSON_DEPTH:
            fail(where, "too_deep", f"At most {MAX_JSON_DEPTH} levels of lists and objects.")
        if len(item) > MAX_JSON_ITEMS:
            fail(where, "too_long", f"At most {MAX_JSON_ITEMS} items.")
        if isinstance(item, dict):
            for key in item:
                if isinstance(key, str) and len(key) > MAX_JSON_TEXT:
                    fail(where, "too_long", f"A field name of at most {MAX_JSON_TEXT} characters.")
            children = [(v, f"{where}.{k}", depth + 1) for k, v in item.items()]
        else:
            children = [(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(item)]
        stack.extend(reversed(children))   # the first problem in document order is reported
    return value


def _bounded(value: Any) -> bool:
    """Whether ``value`` keeps ``free_json``'s bounds: the same walk, without paths."""
    if not isinstance(value, (dict, list)):
        return not (isinstance(value, str) and len(value) > MAX_JSON_TEXT)
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth >= MAX_JSON_DEPTH or len(item) > MAX_JSON_ITEMS:
            return False
        if isinstance(item, dict):
            try:
                if item and max(map(len, item)) > MAX_JSON_TEXT:
                    return False
            except TypeError:   # a key that is no text (never from JSON): the full walk decides
                return False
            item = item.values()
        for child in item:
            if isinstance(child, str):
                if len(child) > MAX_JSON_TEXT:
                    return False
            elif isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return True
