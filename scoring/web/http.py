"""The HTTP edge shared by the API and the pages: domain errors as status codes, revisions as
ETag / If-Match."""

from __future__ import annotations

import re

from django.utils.translation import gettext

from scoring.domain.errors import (
    Conflict,
    DomainError,
    IdempotencyKeyReused,
    NotFound,
    PermissionDenied,
    PreconditionFailed,
    PreconditionRequired,
    ValidationFailed,
)
from scoring.domain.inputs import parse_whole_number

STATUS_OF_ERROR: dict[type[DomainError], int] = {
    ValidationFailed: 400,
    PermissionDenied: 403,
    NotFound: 404,
    Conflict: 409,
    PreconditionFailed: 412,
    IdempotencyKeyReused: 422,
    PreconditionRequired: 428,
}

#: What If-Match may hold: one revision number, quoted as an ETag ('"3"', weak 'W/"3"') or bare
#: (3), with optional spaces or tabs around it. The API schema shows this very pattern.
IF_MATCH = re.compile(r'\A[ \t]*(?:(?:W/)?"([0-9]{1,20})"|([0-9]{1,20}))[ \t]*\Z')


def status_of(error: DomainError) -> int:
    for cls in type(error).__mro__:
        if cls in STATUS_OF_ERROR:
            return STATUS_OF_ERROR[cls]
    return 400


def etag(revision: int) -> str:
    return f'"{revision}"'


def parse_if_match(value: str | None) -> int | None:
    """``'"3"'``, ``'W/"3"'`` or ``3`` → 3; missing or blank → None. Anything else is a
    ValidationFailed at the header."""
    if value is None or not str(value).strip():
        return None
    m = IF_MATCH.match(str(value))
    # Up to the pattern's 20 digits (the schema's): one past any revision is stale (412), as others.
    revision = parse_whole_number(m.group(1) or m.group(2), low=0, high=10**20 - 1) if m else None
    if revision is None:
        raise ValidationFailed(gettext('If-Match must be a revision number like "2".'), path="", code="bad_if_match")
    return revision
