"""The API's schema class, and post-processing of the OpenAPI schema
(``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema

#: The security scheme of scorer links (``scoring.web.auth.ScorerAuthenticationScheme``).
SCORER_SCHEME = "scorerAuth"


class ApiAutoSchema(AutoSchema):
    """Shows the scorer link's scheme only on endpoints a scorer link can use
    (``ApiView.scorer_auth``: all of a view's methods, or the ones it names): on the others a scorer link is refused (403, or 404 for another
    table's objects), so it is no way in."""

    def _get_request_body(self, direction="request"):
        """A body the view cannot do without (``body_required``) is documented as required, also
        when its schema is an open object, which drf-spectacular would leave optional."""
        body = super()._get_request_body(direction)
        if body is not None and getattr(self.view, "body_required", False):
            body["required"] = True
        return body

    def get_auth(self):
        auths = super().get_auth()
        allowed = getattr(self.view, "scorer_auth", True)
        if allowed is True or (not isinstance(allowed, bool) and self.method.upper() in allowed):
            return auths
        return [auth for auth in auths if SCORER_SCHEME not in auth]

COMPONENT = "#/components/schemas/"
#: Schema keywords whose values are schemas (or lists of them).
SUBSCHEMAS = ("items", "additionalProperties", "allOf", "oneOf", "anyOf", "not")


def close_response_objects(result: dict, generator: Any, request: Any, public: bool) -> dict:
    """Give every object schema that a response uses ``additionalProperties: false`` unless it
    says otherwise (an ``OpenSerializer``'s engine fields). The output serializers declare every
    field the API sends, so an undeclared one is a bug that validating clients, and
    tests/scoring/api/test_schema.py, then catch.

    Request bodies are closed the same way: the API reads the declared fields only. (It ignores
    others, except text it could not store, NUL, which the JSON parser refuses anywhere in a
    body; an open object would promise that any extra field is fine.) Bodies that are open say
    so: a deal (the record's fields for the table's game), rule options."""
    components = result.get("components", {}).get("schemas", {})
    visited: set[str] = set()

    def close(schema: Any) -> None:
        if isinstance(schema, list):
            for item in schema:
                close(item)
            return
        if not isinstance(schema, dict):
            return
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith(COMPONENT):
            name = ref[len(COMPONENT):]
            if name not in visited:
                visited.add(name)
                close(components.get(name))
            return
        if "properties" in schema:
            schema.setdefault("additionalProperties", False)
            for prop in schema["properties"].values():
                close(prop)
        for key in SUBSCHEMAS:
            close(schema.get(key))

    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict):
                continue
            for response in operation.get("responses", {}).values():
                for media in response.get("content", {}).values():
                    close(media.get("schema"))
            for media in operation.get("requestBody", {}).get("content", {}).values():
                close(media.get("schema"))
    return result
