"""Post-processing of the OpenAPI schema (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``)."""

from __future__ import annotations

from typing import Any

COMPONENT = "#/components/schemas/"
#: Schema keywords whose values are schemas (or lists of them).
SUBSCHEMAS = ("items", "additionalProperties", "allOf", "oneOf", "anyOf", "not")


def close_response_objects(result: dict, generator: Any, request: Any, public: bool) -> dict:
    """Give every object schema that a response uses ``additionalProperties: false`` unless it
    says otherwise (an ``OpenSerializer``'s engine fields). The output serializers declare every
    field the API sends, so an undeclared one is a bug that validating clients, and
    tests/scoring/test_api_schema.py, then catch. Request bodies stay open: DRF ignores unknown
    fields there."""
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
    return result
