"""A refused tournament document's problem as a director reads it on a page: where (its path in
words, ``deal no. 4 › revision 2 › hash``, beside the path itself) and what (the message in the
page's language).

The document's checks (``scoring.domain.document_*``) write English sentences with particulars,
like the API's messages; in another language a page shows a general sentence per code
(``DOCUMENT_CODES``) unless the message itself is in the catalog. Codes that come from the rules
engine (a rule option, a table's size) are translated by ``rule_messages``, as everywhere.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

from scoring.web.rule_messages import translate_message

#: Each code of the document's checks (and of the upload) in a general sentence.
DOCUMENT_CODES = {
    "bad_format": gettext_noop("This is not a tournament document."),
    "bad_version": gettext_noop("This version of the document cannot be imported."),
    "bad_type": gettext_noop("This value has the wrong type."),
    "unknown_field": gettext_noop("This field does not belong in a tournament document."),
    "required": gettext_noop("This field is required."),
    "too_long": gettext_noop("This is too long."),
    "too_deep": gettext_noop("This is nested too deeply."),
    "bad_text": gettext_noop("This text cannot be stored."),
    "needed_for_status": gettext_noop("A date and time is needed here."),
    "bad_datetime": gettext_noop("This is not a date and time with its UTC offset."),
    "date_out_of_range": gettext_noop("This moment falls outside the years 1 to 9999 in UTC."),
    "date_order": gettext_noop("This date comes before one that must precede it."),
    "invalid_choice": gettext_noop("This value is not one of those allowed."),
    "draft_with_deals": gettext_noop("A tournament in draft has no deals yet."),
    "duplicate_id": gettext_noop("Another item of this list has this id."),
    "duplicate_number": gettext_noop("Another item of this list has this number."),
    "duplicate_name": gettext_noop("Another item of this list has this name."),
    "duplicate_entry": gettext_noop("This player is entered twice."),
    "not_found": gettext_noop("Nothing in the document has this id."),
    "already_seated": gettext_noop("This entry already sits at a table of this session."),
    "bad_seat": gettext_noop("This is not a seat of the table."),
    "same_seat": gettext_noop("The seat that entered the deal cannot confirm it."),
    "bad_number": gettext_noop("The revisions are not numbered 1, 2, … in order."),
    "broken_chain": gettext_noop("This is not the hash of the previous revision."),
    "hash_mismatch": gettext_noop("The revision does not match its hash."),
    "bad_body": gettext_noop("This is not a deal's body as stored."),
    "record_mismatch": gettext_noop("The record does not follow from the body and the table."),
    "bad_result": gettext_noop("This is not a stored deal's result."),
    "not_zero_sum": gettext_noop("The deal does not sum to zero."),
    "result_mismatch": gettext_noop("The engine does not give this result for this record."),
    "engine_result_differs": gettext_noop("Today's engine does not give this result for this record; an import "
                                          "never changes a result."),
    "bad_clock": gettext_noop("A session's clock has both its start and its end, or neither."),
    "withdrawn_mismatch": gettext_noop("withdrawn and withdrawn_at do not agree."),
    "same_entry": gettext_noop("This player already holds the seat."),
    "zero_amount": gettext_noop("An adjustment of 0 changes nothing."),
    "duplicate": gettext_noop("This is listed twice."),
    "not_json": gettext_noop("This file is not a JSON document."),
    "too_large": gettext_noop("This file is too large to import."),
    "not_queued": gettext_noop("The import could not be handed to a worker. Try again in a moment."),
    "import_failed": gettext_noop("The import stopped on an unexpected error; nothing was stored."),
}

#: A document's lists, an item each in words (numbered from 1, in the file's order).
ITEMS = {
    "players": gettext_noop("player no. %(n)s"),
    "entries": gettext_noop("entry no. %(n)s"),
    "sessions": gettext_noop("session no. %(n)s"),
    "tables": gettext_noop("table no. %(n)s"),
    "rounds": gettext_noop("deal no. %(n)s"),
    "revisions": gettext_noop("revision %(n)s"),
    "seats": gettext_noop("seat %(n)s"),
    "adjustments": gettext_noop("adjustment no. %(n)s"),
    "substitutions": gettext_noop("substitution no. %(n)s"),
}

_ITEM = re.compile(r"\A(\w+)\[(\d+)\]\Z")


def path_in_words(path: str) -> str:
    """``document.rounds[3].revisions[1].hash`` → ``deal no. 4 › revision 2 › hash``; ``""``
    for the document as a whole."""
    parts = [p for p in (path or "").split(".") if p]
    if parts and parts[0] == "document":
        parts = parts[1:]
    words = []
    for part in parts:
        item = _ITEM.match(part)
        if item and item.group(1) in ITEMS:
            words.append(gettext(ITEMS[item.group(1)]) % {"n": int(item.group(2)) + 1})
        elif part == "tournament":
            words.append(gettext("the tournament"))
        else:
            words.append(part)
    return " › ".join(words)


def problem_message(code: str, message: str) -> str:
    """The problem's message in the page's language (English: as written): a document's own codes
    by their sentences, the engine's as the engine's."""
    return translate_message(code, message, sentences=DOCUMENT_CODES if code in DOCUMENT_CODES else None)


def problem_in_words(found: dict | None, *, translated: bool = False) -> dict | None:
    """A stored or raised ``{path, code, message}`` for a page: with ``where`` (the path in
    words) and the message in the page's language (``translated``: it is already)."""
    if not isinstance(found, dict):
        return None
    code, path, message = str(found.get("code") or ""), str(found.get("path") or ""), str(found.get("message") or "")
    return {"path": path, "code": code, "where": path_in_words(path),
            "message": message if translated else problem_message(code, message)}
