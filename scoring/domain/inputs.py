"""What the database can store, checked before anything reaches it: text without NUL
characters or lone surrogates (PostgreSQL refuses both, and UTF-8 cannot encode the latter), and
whole numbers within the columns' range. Shared by the JSON parser and the services."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext

from scoring.domain.errors import problem

#: The largest value of a 32-bit integer column (PositiveIntegerField on PostgreSQL).
MAX_INT32 = 2**31 - 1
#: The largest id of a row (a 64-bit key).
MAX_ID = 2**63 - 1
#: How deep ``unstorable`` looks; the JSON parser refuses deeper bodies already.
_MAX_DEPTH = 200

_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")


def text_problem(value: str) -> str | None:
    """Why this text cannot be stored, or None."""
    m = _BAD_CHARS.search(value)
    if m is None:
        return None
    if m.group() == "\x00":
        return gettext("Text may not contain NUL characters.")
    return gettext("Text may not contain a lone surrogate (\\ud800–\\udfff); send valid Unicode.")


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
