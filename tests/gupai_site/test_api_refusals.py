"""Every refusal under /api/ is JSON in the API's error shape, wherever it is made (issue 26):
Django's own (a Host not allowed, CSRF, 404, 405, a body too large, a 500: HTML pages before,
``scoring.web.api_refusals``) and the ASGI router's before Django (414, 431: plain text before,
``gupai_site.body_deadline.refusal_answer``). Outside /api/ the pages keep their HTML, the router its text."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import PermissionDenied, RequestDataTooBig, SuspiciousOperation
from django.http import Http404, HttpResponse
from django.test import Client
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET

from gupai_site.asgi import build
from tests.scoring.web.sse import in_a_thread_of_its_own


def _raises(exc):
    def view(request):
        raise exc
    return view


@csrf_protect
def _protected(request):
    return HttpResponse("done")


#: Views that are not the API's, under /api/ and outside it: each refusal as Django makes it.
_REFUSING = [
    ("not-found/", _raises(Http404("gone"))),
    ("forbidden/", _raises(PermissionDenied())),
    ("suspicious/", _raises(SuspiciousOperation("odd"))),
    ("too-big/", _raises(RequestDataTooBig("big"))),
    ("broken/", _raises(RuntimeError("a bug"))),
    ("get-only/", csrf_exempt(require_GET(lambda request: HttpResponse("ok")))),
    ("csrf/", _protected),
]
urlpatterns = [
    *[path(f"api/test/{route}", view) for route, view in _REFUSING],
    *[path(f"test/{route}", view) for route, view in _REFUSING],
    path("", include("gupai_site.urls")),
]

#: (method, path under the prefix, extra) → the status Django answers.
CASES = [
    ("get", "test/not-found/", {}, 404),
    ("get", "test/forbidden/", {}, 403),
    ("get", "test/suspicious/", {}, 400),
    ("get", "test/too-big/", {}, 400),      # Django answers a body over its limit with its 400 page
    ("get", "test/broken/", {}, 500),
    ("post", "test/get-only/", {}, 405),
    ("post", "test/csrf/", {}, 403),
]


def shaped(r) -> dict:
    assert r["Content-Type"] == "application/json", r["Content-Type"]
    body = json.loads(r.content)
    assert set(body) == {"errors", "detail"} and len(body["errors"]) == 1
    (error,) = body["errors"]
    assert set(error) == {"path", "code", "message"} and error["path"] == "" and error["code"]
    assert error["message"] == body["detail"] and body["detail"]
    return error


@pytest.mark.django_db
@pytest.mark.urls(__name__)
@pytest.mark.parametrize("method, route, extra, status", CASES)
def test_djangos_refusals_are_json_under_api_and_pages_elsewhere(method, route, extra, status):
    client = Client(raise_request_exception=False, enforce_csrf_checks=True)
    r = getattr(client, method)(f"/api/{route}", **extra)
    assert r.status_code == status
    shaped(r)
    page = getattr(client, method)(f"/{route}", **extra)
    assert page.status_code == status and not page["Content-Type"].startswith("application/json")


@pytest.mark.django_db
def test_the_sites_own_refusals_under_api_are_json():
    client = Client(raise_request_exception=False)
    r = client.get("/api/v1/clubs/", HTTP_HOST="evil.example")            # DisallowedHost
    assert r.status_code == 400 and shaped(r)["code"] == "bad_request"
    assert client.get("/", HTTP_HOST="evil.example")["Content-Type"].startswith("text/html")
    for url in ("/api/docs/", "/api/schema/"):                             # 405 of views of their own
        r = client.post(url)
        assert r.status_code == 405 and shaped(r)["code"] == "method_not_allowed" and "GET" in r["Allow"]
    assert shaped(client.get("/api/v1/nothing/"))["code"] == "not_found"   # as before
    # An API view's refusal asked for as a page: JSON, its own code kept (a CSV route's, asked for
    # as CSV, stays CSV rows of the same fields, as its schema says: tests/scoring/api/test_standings.py).
    assert shaped(client.get("/api/v1/clubs/", HTTP_ACCEPT="text/html"))["code"] == "not_authenticated"
    r = client.post("/api/v1/evaluate/", "x" * (3 * 1024 * 1024), content_type="application/json")
    assert r.status_code == 413 and shaped(r)["code"] == "too_large"       # as before


def _call(app, path: str, headers: list[tuple[bytes, bytes]] | None = None) -> tuple[int, dict, bytes]:
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": headers or [], "http_version": "1.1", "client": ("127.0.0.1", 1)}
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    in_a_thread_of_its_own(app(scope, receive, send))
    return sent[0]["status"], dict(sent[0]["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


@pytest.mark.parametrize("status, path, headers", [
    (414, "/{}" + "a" * 8200 + "/", None),
    (431, "/{}no/", [(f"x-field-{i}".encode(), b"1") for i in range(120)]),
    (431, "/{}no/", [(b"x-long", b"b" * 9000)]),
])
def test_the_routers_refusals_before_django(status, path, headers):
    app = build(lambda environ, start_response: [], threads=1)   # never reached: refused before
    got, sent_headers, body = _call(app, path.format("api/v1/"), headers)
    assert got == status and sent_headers[b"content-type"] == b"application/json"
    error = json.loads(body)["errors"][0]
    assert error["code"] in ("uri_too_long", "headers_too_large") and error["path"] == ""
    got, sent_headers, body = _call(app, path.format(""), headers)
    assert got == status and sent_headers[b"content-type"].startswith(b"text/plain") and body.startswith(b"Req")
