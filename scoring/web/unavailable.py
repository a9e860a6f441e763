"""When the database does not answer (PostgreSQL down or restarting: connection refused, the
server closed the connection, an administrator's shutdown): 503 with ``Retry-After`` instead of
a 500, in the API's error shape under ``/api/`` and as a page everywhere else.

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

logger = logging.getLogger("scoring.database")


def unavailable_message() -> str:
    return gettext("The database is not answering just now. Try again in a few seconds.")


def unavailable_body() -> dict:
    """The API's answer: ``{"errors": [...], "detail": ...}`` with code ``database_unavailable``."""
    message = unavailable_message()
    return {"errors": [problem("", "database_unavailable", message)], "detail": message}


def log_unavailable(request, exc: Exception) -> None:
    # One line, no traceback: an outage would otherwise flood the log with identical ones.
    logger.warning("Database unavailable (503) for %s %s: %s: %s", request.method, request.path,
                   type(exc).__name__, str(exc).strip().splitlines()[0] if str(exc).strip() else "")


def is_api(request) -> bool:
    return request.path_info.startswith("/api/")


def unavailable_page(request):
    """The friendly 503 page. It reads nothing from the database: the user (whose session is
    stored there) and the messages (kept in the session too) are left out."""
    response = render(request, "unavailable.html", {
        "message": unavailable_message(), "retry_after": RETRY_AFTER,
        "user": AnonymousUser(), "messages": ()}, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
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
            response = JsonResponse(unavailable_body(), status=503)
            response["Retry-After"] = str(RETRY_AFTER)
            return response
        return unavailable_page(request)
