"""JSON parsing that refuses pathological input with a 400 instead of crashing."""

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class SafeJSONParser(JSONParser):
    """DRF's JSONParser turns bad JSON into a 400 but lets a RecursionError (deeply nested
    arrays, a classic denial-of-service body) escape as a 500."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply.")
