"""What the database can store, checked before anything reaches it, and the shapes of input
that the API's fields (``scoring.api.fields``), the tournament document
(``scoring.domain.documents``) and the services all read the same way: each rule is written
here once. And the one reading of a whole number typed in a form, a query string, a header or a
URL (``parse_whole_number``), or set in the environment (``positive_setting``, ``number_setting``):
nothing else in scoring/ or gupai_site/ calls ``str.isdigit`` or ``int`` on such text
(tests/architecture/test_request_input.py).

Text: no NUL characters or lone surrogates (PostgreSQL refuses both, and UTF-8 cannot encode
the latter), no longer than its column. Whole numbers: JSON integers within the columns' range.
The patterns are written to mean the same in Python and in ECMA regular expressions (no ``\\s``,
``\\d``, ``\\w``), so that the OpenAPI schema can show them as they are."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

from django.utils.translation import gettext

import games
from scoring.domain.errors import problem

#: The largest value of a 32-bit integer column (PositiveIntegerField on PostgreSQL).
MAX_INT32 = 2**31 - 1
#: The largest id of a row (a 64-bit key).
MAX_ID = 2**63 - 1
#: The longest reason, dispute message or note (a few sentences from a referee): the services
#: refuse longer ones, the pages' inputs say so, exported documents are read with it.
MAX_NOTE = 2000

#: The largest whole number typed in a form's number field (seven digits: points, stakes, rule
#: options); the engine says which range each one takes.
MAX_TYPED = 9_999_999
#: How deep ``unstorable`` looks; the JSON parser refuses deeper bodies already.
_MAX_DEPTH = 200

#: The longest text of each kind, as its column holds it (``scoring.models``).
MAX_CLUB_NAME = 120
MAX_TOURNAMENT_NAME = 120
MAX_PLAYER_NAME = 100
MAX_TABLE_NAME = 60
MAX_SLUG = 80
#: A new club's slug (``new_club_slug``): letters and digits that cannot be misread for one another
#: (no 0/o, 1/l/i), ``CLUB_SLUG_LENGTH`` of them (some 49 bits: never guessed, a repeat all but
#: impossible). Random, so that it tells nothing of the club's name (``services.clubs.club_create``).
CLUB_SLUG_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
CLUB_SLUG_LENGTH = 10


def new_club_slug() -> str:
    return "".join(secrets.choice(CLUB_SLUG_ALPHABET) for _ in range(CLUB_SLUG_LENGTH))

MAX_CURRENCY = 3
#: An ``Idempotency-Key`` (a deal's, a seating's): the services refuse longer ones, the API's
#: schema says so, the stored key's column holds it.
MAX_IDEMPOTENCY_KEY = 255
#: Who did it, as the revisions and the action log keep it (``Actor.label``, cut to fit).
MAX_ACTOR_LABEL = 200
#: A director's username (Django's ``User.username``).
MAX_USERNAME = 150
MAX_ENGINE_VERSION = 40
#: Seats at a table: positions 0..5 (no game has more than six players, none fewer than two;
#: the table's game decides how many there are).
MAX_SEATS = max(max(g.player_counts) for g in games.CATALOG.values())
MIN_SEATS = min(min(g.player_counts) for g in games.CATALOG.values())
#: The longest session clock a director may start, in minutes (a whole day).
MAX_CLOCK_MINUTES = 24 * 60

_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")
#: The same characters in ``json.dumps(…, ensure_ascii=False)``'s text: NUL escaped, a lone
#: surrogate as it is (a backslash-u-0000 written as text matches too: then the walk decides).
_BAD_IN_JSON = re.compile(r"\\u0000|[\ud800-\udfff]")
#: A whole number as text: ASCII digits only. ``\d`` and ``str.isdigit`` also take "٣" and "１"
#: (which ``int`` reads) and "²" (which ``int`` refuses): a form sending them answered 500.
_WHOLE = re.compile(r"\A([+-]?)([0-9]+)\Z")
#: A decimal as text ("0.50", "2", ".5"), ASCII digits only; its range is the caller's to check.
DECIMAL_TEXT = re.compile(r"\A[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)\Z")

#: Whitespace as Python's str.strip() knows it (and so the services), spelled out so that a
#: pattern means the same in Python and in ECMA regular expressions (which have another \s).
WHITESPACE = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
#: Text with something in it besides whitespace (and no NUL).
NON_BLANK = rf"\A[^\x00]*[^\x00{WHITESPACE}][^\x00]*\Z"
#: Any text without NUL, not empty.
ANY_TEXT = r"\A[^\x00]+\Z"
#: A name as the services store it: not blank, no leading or trailing whitespace, no NUL.
NAME = rf"\A[^\x00{WHITESPACE}](?:[^\x00]*[^\x00{WHITESPACE}])?\Z"
#: A date and time with seconds and its UTC offset ("Z" too), as ``datetime.isoformat`` writes
#: an aware one (microseconds, when there are any). The calendar (30 February) is left to
#: ``datetime.fromisoformat``.
DATETIME = (r"\A[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
            r"(?:\.[0-9]{6})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])\Z")
#: An amount of money (a chip value) as text: digits with up to two decimals, from 0 to
#: 99999999.99 (the column: 10 digits, 2 of them decimals).
MONEY = r"\A[0-9]{1,8}(?:\.[0-9]{1,2})?\Z"


def is_int(value: Any, low: int | None = None, high: int | None = None) -> bool:
    """A JSON integer (an int that is not a bool, which Python counts as one), from ``low`` to
    ``high`` when they are given."""
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def blank(text: str) -> bool:
    """Nothing but whitespace (``WHITESPACE``), or nothing at all."""
    return not text.strip()


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
    ``{"path", "code", "message"}``; None when all is well.

    A whole document (12 MB, millions of values) is first written out as JSON text in C and
    searched once; only when that finds a suspect is it walked value by value for the path."""
    if depth > _MAX_DEPTH:
        return None
    if depth == 0 and isinstance(value, (dict, list)):
        try:
            written = json.dumps(value, ensure_ascii=False)
        except (RecursionError, TypeError, ValueError):
            written = None
        if written is not None and not _BAD_IN_JSON.search(written):
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
        if not is_int(value, 1, MAX_ID):
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


def positive_setting(text: str | None, default: int, *, high: int = MAX_INT32) -> int:
    """A count or a port set in the environment (``os.environ.get(…)``), read by
    ``parse_whole_number`` from 1 to ``high``; ``default`` when it is unset, 0 or no such number
    ("²" passed ``str.isdigit`` and then failed ``int``: the server did not start). Needs no
    Django settings: gunicorn.conf.py reads its own with it."""
    value = parse_whole_number(text, low=1, high=high)
    return default if value is None else value


def number_setting(name: str, text: str | None, default: int, *, low: int = 0) -> int:
    """A whole number from ``low`` set in the environment for Django's settings (``name``:
    ``text``): ``default`` when unset or blank, else ``parse_whole_number``'s reading; anything
    else ("²", "٣", "1e3") is a ValueError that stops the start, rather than read as another
    number or left to fail on a request."""
    if text is None or blank(text):
        return default
    value = parse_whole_number(text, low=low, high=MAX_INT32)
    if value is None:
        raise ValueError(f"{name} must be a whole number from {low} in digits 0-9, not {text!r}")
    return value


def whole_number_or_text(text: Any, *, low: int, high: int, signed: bool = False) -> Any:
    """``parse_whole_number``'s number, or else ``text`` as it came: for the service or the engine
    to refuse with its own message at its own path (a form's error under its field)."""
    value = parse_whole_number(text, low=low, high=high, signed=signed)
    return text if value is None else value


def ecma(pattern: str) -> str:
    """A Python pattern written to mean the same in ECMA regular expressions (no \\s, \\d, \\w;
    anchored with \\A and \\Z), as a schema shows it: drf-spectacular's spelling, and the
    tournament document's JSON Schema (``domain.document_schema``)."""
    pattern = pattern.encode("ascii", "backslashreplace").decode().replace(r"\x", r"\u00")
    return pattern.replace(r"\A", "^").replace(r"\Z", "$")
