"""JSON parsing that refuses pathological input with a 400 instead of crashing."""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from scoring.domain.errors import ValidationFailed
from scoring.domain.inputs import unstorable


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
