"""Every refusal under ``/api/`` in the API's error shape (``{"errors": [{"path", "code",
"message"}], "detail"}``, ``scoring.domain.errors``), wherever it is made. The API's views answer
so through their exception handler (``scoring.api.errors``); what Django answers around them
(a Host header not in ALLOWED_HOSTS, a CSRF failure, a 404 or 405 of a view that is not the API's,
a 500, a body too large for Django) is an HTML page, which ``ApiRefusalsMiddleware`` turns into
the same shape; an API view's refusal drawn otherwise than as JSON (the browsable API's page, the
schema's YAML) is answered as JSON, its codes kept. Only the CSV routes' refusals to a client
that asks for CSV stay CSV rows of the same fields, as their schema documents. Outside ``/api/`` pages keep their HTML. The refusals made before Django, by the
ASGI router, are shaped by ``gupai_site.asgi`` itself."""

from __future__ import annotations

from http import HTTPStatus

from django.http import JsonResponse
from django.utils.translation import gettext, gettext_noop

from scoring.domain.errors import problem

#: Status → (code, message) of a refusal made outside the API's views; the codes are the ones
#: the API's own refusals of the same status carry.
REFUSALS = {
    400: ("bad_request", gettext_noop("The request could not be read.")),
    403: ("permission_denied", gettext_noop("This request is not allowed (a missing CSRF token, or permission).")),
    404: ("not_found", gettext_noop("Not found.")),
    405: ("method_not_allowed", gettext_noop("This method is not allowed here.")),
    413: ("too_large", gettext_noop("The body is too large.")),
    500: ("server_error", gettext_noop("Something went wrong on the server.")),
}
#: Headers of the refused answer that do not describe its body, kept (Allow, Retry-After, …).
_BODY_HEADERS = {"content-type", "content-length", "content-encoding", "content-language"}


def is_api_path(path: str) -> bool:
    return path.startswith("/api/")


def refusal_body(status: int) -> dict:
    code, message = REFUSALS.get(status, ("error", ""))
    if message:
        text = gettext(message)
    else:
        try:
            text = HTTPStatus(status).phrase
        except ValueError:
            text = "Error"
    return {"errors": [problem("", code, text)], "detail": text}


class ApiRefusalsMiddleware:
    """Below the compression (whose answer it replaces) and above every middleware that refuses
    (CommonMiddleware's DisallowedHost, CsrfViewMiddleware) or turns an exception into a page."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code < 400 or not is_api_path(request.path_info) or response.streaming:
            return response
        content_type = response.get("Content-Type", "")
        # The API's own JSON is shaped already; a CSV route's refusal to a client asking for CSV is
        # CSV rows of the same fields, as its schema says (scoring.api.standings.CSV_ERRORS).
        if "json" in content_type or content_type.startswith("text/csv"):
            return response
        data = getattr(response, "data", None)   # an API view's refusal drawn for a browser, a CSV, the schema
        body = ({k: v for k, v in data.items() if k in ("errors", "detail")} if isinstance(data, dict) and "errors" in data
                else refusal_body(response.status_code))
        shaped = JsonResponse(body, status=response.status_code)
        for name, value in response.items():
            if name.lower() not in _BODY_HEADERS:
                shaped[name] = value
        shaped.cookies = response.cookies
        return shaped
