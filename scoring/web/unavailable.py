"""When the database does not answer (PostgreSQL down or restarting: connection refused, the
server closed the connection, an administrator's shutdown): 503 with ``Retry-After`` instead of
a 500, in the API's error shape under ``/api/`` and as a page everywhere else.

A lock waited for past its time (PostgreSQL's ``lock_timeout``, SQLSTATE 55P03; SQLite's write
lock past its timeout: "database is locked") is not an outage: the same 503, but code ``busy``,
saying that something else is changing the same rows, with a shorter ``Retry-After``.

The API's exception handler (``scoring.api.errors``) answers for its views;
``DatabaseUnavailableMiddleware`` answers for the pages, and for an API answer that fails
after its view (the browsable API rendering its page).
"""

from __future__ import annotations

import logging

from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext

from scoring.domain.errors import problem

#: What the database driver raises, through Django, when the server is gone (or going).
DATABASE_ERRORS = (OperationalError, InterfaceError)
#: Seconds: a restart takes a few, and a phone that retries sooner only adds load.
RETRY_AFTER = 5

#: Seconds before a retry when a lock was busy: the write that held it is usually done by then.
BUSY_RETRY_AFTER = 2
#: PostgreSQL's lock_not_available: a lock waited for past ``lock_timeout`` (settings).
LOCK_NOT_AVAILABLE = "55P03"

logger = logging.getLogger("scoring.database")


def is_busy(exc: Exception) -> bool:
    """Whether a database error is a lock that stayed taken, rather than an outage."""
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    return getattr(getattr(cause, "diag", None), "sqlstate", None) == LOCK_NOT_AVAILABLE \
        or getattr(cause, "sqlstate", None) == LOCK_NOT_AVAILABLE or "database is locked" in str(exc)


def retry_after(exc: Exception) -> int:
    return BUSY_RETRY_AFTER if is_busy(exc) else RETRY_AFTER


def busy_message() -> str:
    return gettext("Someone else is changing the same records just now. Try again in a moment.")


def unavailable_message() -> str:
    return gettext("The database is not answering just now. Try again in a few seconds.")


def unavailable_body(exc: Exception | None = None) -> dict:
    """The API's answer: ``{"errors": [...], "detail": ...}`` with code ``database_unavailable``,
    or ``busy`` for a lock that stayed taken (``exc``)."""
    if exc is not None and is_busy(exc):
        message = busy_message()
        return {"errors": [problem("", "busy", message)], "detail": message}
    message = unavailable_message()
    return {"errors": [problem("", "database_unavailable", message)], "detail": message}


def log_unavailable(request, exc: Exception) -> None:
    # One line, no traceback: an outage would otherwise flood the log with identical ones.
    logger.warning("Database %s (503) for %s %s: %s: %s", "busy" if is_busy(exc) else "unavailable",
                   request.method, request.path,
                   type(exc).__name__, str(exc).strip().splitlines()[0] if str(exc).strip() else "")


def is_api(request) -> bool:
    return request.path_info.startswith("/api/")


def unavailable_page(request, exc: Exception | None = None):
    """The friendly 503 page (saying busy for a lock that stayed taken). It reads nothing from
    the database: the user (whose session is stored there) and the messages (kept in the session
    too) are left out."""
    busy = exc is not None and is_busy(exc)
    wait = BUSY_RETRY_AFTER if busy else RETRY_AFTER
    response = render(request, "unavailable.html", {
        "message": busy_message() if busy else unavailable_message(), "retry_after": wait,
        "user": AnonymousUser(), "messages": ()}, status=503)
    response["Retry-After"] = str(wait)
    return response


class DatabaseUnavailableMiddleware:
    """Last in ``MIDDLEWARE`` (so the first to see a view's exception): a database error raised
    by a view, or while rendering its answer, becomes a 503."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        log_unavailable(request, exception)
        if is_api(request):
            response = JsonResponse(unavailable_body(exception), status=503)
            response["Retry-After"] = str(retry_after(exception))
            return response
        return unavailable_page(request, exception)
