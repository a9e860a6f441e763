"""JSON parsing that refuses pathological input with a 400 instead of crashing."""

import json

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser, JSONParser

from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import parse_whole_number, unstorable


class SafeJSONParser(JSONParser):
    """DRF's JSONParser turns bad JSON into a 400 but lets a RecursionError (deeply nested
    arrays, a classic denial-of-service body) escape as a 500, and accepts text the database
    cannot store (``"\\u0000"``, a lone ``"\\ud800"``), which would fail later, deep inside a write
    or while rendering the answer. Both are refused here, with the path of the bad text."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply.")
        found = unstorable(data)
        if found:
            raise ValidationFailed(errors=[found])
        return data


class DocumentTooLarge(RequestDataTooBig):
    """A body over its route's own limit (answered 413 with ``limit``)."""

    def __init__(self, limit: int):
        super().__init__(f"The body exceeds {limit} bytes.")
        self.limit = limit


class DocumentJSONParser(BaseParser):
    """``SafeJSONParser`` for the import's documents, which are larger than any other body: up to
    ``settings.IMPORT_MAX_BYTES`` rather than Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``. DRF reads
    a ``JSONParser``'s body through ``request.body``, which holds every route to Django's limit;
    a parser of its own kind gets the stream, read here up to this route's limit. Text no
    database stores is refused here outside ``document`` (keys included), and inside it by the
    import's own check (``storable_problem``, with its path in the document), so the 12 MB are
    not walked twice on the request path."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.IMPORT_MAX_BYTES
        request = (parser_context or {}).get("request")
        # A Content-Length that is no number ("²") is not believed: the read below stops at the limit.
        declared = parse_whole_number(request.META.get("CONTENT_LENGTH"), low=0, high=limit + 1, clamp=True) \
            if request is not None else None
        if declared is not None and declared > limit:
            raise DocumentTooLarge(limit)
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise DocumentTooLarge(limit)
        try:
            data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply.")
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"JSON parse error - {exc}")
        # The rest of the body as any body: its keys too, or an unknown one ("\ud800") would be
        # named in the 400's path, which cannot be written out (a 500).
        rest = {k: v for k, v in data.items() if k != "document"} if isinstance(data, dict) else data
        found = unstorable(rest)
        if found:
            raise ValidationFailed(errors=[found])
        return data


def _no_constant(value: str):
    raise ValueError(f"{value} is not a JSON number")
