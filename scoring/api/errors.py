"""The API's one exception handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``): every error of
every endpoint answers ``{"errors": [{"path", "code", "message"}]}`` (paths relative to the
request body), plus ``detail`` for answers other than 400."""

from __future__ import annotations

import json

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scoring.domain.errors import DomainError, problem
from scoring.web.http import status_of
from scoring.web.rule_messages import translate_problems
from scoring.web.unavailable import DATABASE_ERRORS, log_unavailable, retry_after, unavailable_body


def _flatten(detail, path: str = "") -> list[dict]:
    """DRF's nested validation errors as a flat list with dotted / indexed paths."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            if key == "non_field_errors":
                sub = path
            elif isinstance(key, int):   # a list field's errors come keyed by the item's index
                sub = f"{path}[{key}]"
            else:
                sub = f"{path}.{key}" if path else str(key)
            out += _flatten(value, sub)
        return out
    if isinstance(detail, list):
        if all(isinstance(x, exceptions.ErrorDetail) or isinstance(x, str) for x in detail):
            return [problem(path, getattr(x, "code", "invalid") or "invalid", str(x)) for x in detail]
        out = []
        for i, value in enumerate(detail):
            out += _flatten(value, f"{path}[{i}]")
        return out
    return [problem(path, getattr(detail, "code", "invalid") or "invalid", str(detail))]


def api_exception_handler(exc, context):
    if isinstance(exc, DomainError):
        status = status_of(exc)
        # The engine's messages in the request's language (codes unchanged).
        data = {"errors": translate_problems(exc.errors)}
        if status != 400:
            same = exc.errors and exc.message == exc.errors[0].get("message")
            data["detail"] = data["errors"][0]["message"] if same else exc.message
        return Response(data, status=status)
    if isinstance(exc, RequestDataTooBig):
        message = gettext("The body is too large: at most %(size)s bytes.") % {
            "size": getattr(exc, "limit", settings.DATA_UPLOAD_MAX_MEMORY_SIZE)}
        return Response({"errors": [problem("", "too_large", message)], "detail": message}, status=413)
    if isinstance(exc, DATABASE_ERRORS):
        # The database is down or restarting, or a lock stayed taken: worth a retry in a moment, not a 500.
        log_unavailable(context["request"], exc)
        return Response(unavailable_body(exc), status=503, headers={"Retry-After": str(retry_after(exc))})
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {"errors": _flatten(exc.detail)}
    else:
        message = str(exc.detail) if not isinstance(exc.detail, (dict, list)) else json.dumps(exc.detail)
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else "error"
        response.data = {"errors": [problem("", code, message)], "detail": message}
    return response
