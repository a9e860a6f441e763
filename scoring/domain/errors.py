"""Domain exceptions raised by services (and a few selectors).

Every one carries ``errors``, a list of ``{"path", "code", "message"}`` (``path`` relative to
the request body, ``""`` for the whole request). The API and the pages turn them into HTTP
answers (``scoring.web.http.status_of``); the domain knows nothing of HTTP.
"""

from __future__ import annotations


def problem(path: str, code: str, message: str) -> dict:
    return {"path": path, "code": code, "message": message}


class DomainError(Exception):
    default_code = "error"

    def __init__(self, message: str = "", *, errors: list[dict] | None = None, code: str | None = None,
                 path: str = ""):
        if errors is None:
            errors = [problem(path, code or self.default_code, message)]
        self.errors = errors
        self.message = message or (errors[0]["message"] if errors else "")
        super().__init__(self.message)

    def __str__(self) -> str:
        return "; ".join(f"{e['path'] or '(body)'}: {e['message']}" for e in self.errors)


class ValidationFailed(DomainError):
    """Bad input (400). For rounds, ``errors`` are the engine's, with body-relative paths."""

    default_code = "invalid"

    def __init__(self, message: str = "", *, errors: list[dict] | None = None, code: str | None = None,
                 path: str = "", warnings: list[dict] | None = None):
        super().__init__(message, errors=errors, code=code, path=path)
        self.warnings = warnings or []


class PermissionDenied(DomainError):
    default_code = "permission_denied"


class NotFound(DomainError):
    default_code = "not_found"


class Conflict(DomainError):
    """The request is fine, but the state of the thing does not allow it (409)."""

    default_code = "conflict"


class PreconditionFailed(DomainError):
    """``If-Match`` names a revision that is no longer current (412)."""

    default_code = "stale_revision"


class PreconditionRequired(DomainError):
    """``If-Match`` is missing (428)."""

    default_code = "if_match_required"


class IdempotencyKeyReused(DomainError):
    """The same ``Idempotency-Key`` was sent with a different body (422). ``number``: the deal
    recorded under that key, when it is one (a phone drops its copy: "already recorded as deal N")."""

    default_code = "idempotency_key_reused"

    def __init__(self, message: str = "", *, number: int | None = None, **kwargs):
        super().__init__(message, **kwargs)
        self.number = number
