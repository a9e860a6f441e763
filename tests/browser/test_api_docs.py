"""The API's documentation pages work without internet: Swagger UI (/api/docs/) and ReDoc
(/api/redoc/) come from the project's static files (drf-spectacular-sidecar), not from a CDN.
The page may talk to the live server only: every other request is aborted and recorded."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

#: Not network requests: the browser answers them itself.
LOCAL_SCHEMES = ("data", "blob", "about")
HTTP_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def offline(page, live_server):
    """Cut the page's browser context off from everything but the live server, as at a venue
    without internet. Returns a function listing every request the page attempted elsewhere."""
    here = urlsplit(live_server.url).netloc
    routed: list[str] = []  # reached the network layer: aborted
    seen = []  # every request the browser reported, including those its CSP stopped

    def elsewhere(url: str) -> bool:
        parts = urlsplit(url)
        return parts.scheme not in LOCAL_SCHEMES and parts.netloc != here

    def route(route):
        if elsewhere(route.request.url):
            routed.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.context.route("**/*", route)
    page.context.on("request", lambda request: seen.append(request) if elsewhere(request.url) else None)

    def attempted() -> list[str]:
        # A request the page's own Content-Security-Policy refused never left the browser
        # (ReDoc's sidebar asks for Redocly's logo on cdn.redoc.ly: templates/api/redoc.html).
        # Any other is an attempt, even one that a route did not see.
        return routed + [r.url for r in seen if r.failure != "csp" and r.url not in routed]

    return attempted


def operation_count() -> int:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sum(1 for ops in schema["paths"].values() for method in ops if method in HTTP_METHODS)


def test_the_page_cannot_reach_the_internet(live_server, desktop):
    """The harness itself: a request for another host fails and is counted. On the site's pages
    the Content-Security-Policy (connect-src 'self') refuses it before it leaves the browser: not
    an attempt. From a page without that policy it is one."""
    attempted = offline(desktop, live_server)
    fetch = "fetch('https://example.com/gupai').then(() => 'answered', () => 'failed')"
    desktop.goto(live_server.url + reverse("home"))
    assert desktop.evaluate(fetch) == "failed"
    assert attempted() == []
    desktop.goto("about:blank")
    assert desktop.evaluate(fetch) == "failed"
    assert attempted() == ["https://example.com/gupai"]


def test_swagger_ui_lists_the_operations_without_internet(live_server, desktop):
    attempted = offline(desktop, live_server)
    errors: list[str] = []
    desktop.on("pageerror", lambda error: errors.append(str(error)))

    desktop.goto(live_server.url + reverse("api-docs"))
    ui = desktop.locator("#swagger-ui")
    expect(ui.locator(".info .title")).to_contain_text("Gupai Club API")
    expect(ui.locator(".opblock-tag", has_text="engine")).to_be_visible()
    evaluate = ui.locator("#operations-engine-evaluate")  # tag "engine", operation id "evaluate"
    expect(evaluate).to_be_visible()
    expect(evaluate.locator(".opblock-summary-path")).to_have_text("/api/v1/evaluate/")
    expect(ui.locator(".opblock")).to_have_count(operation_count())  # every operation is listed
    # Its stylesheet applied: the POST block is styled by swagger-ui.css, not plain HTML.
    assert evaluate.evaluate("el => getComputedStyle(el).borderTopStyle") == "solid"

    assert attempted() == [], f"the page tried to reach the internet: {attempted()}"
    assert errors == []


def test_redoc_renders_without_internet(live_server, desktop):
    attempted = offline(desktop, live_server)
    errors: list[str] = []
    desktop.on("pageerror", lambda error: errors.append(str(error)))

    desktop.goto(live_server.url + reverse("api-redoc"))
    # ReDoc lays the whole schema out in the browser: on a busy machine, seconds.
    expect(desktop.get_by_role("heading", level=1)).to_contain_text("Gupai Club API", timeout=30_000)
    expect(desktop.locator("redoc")).to_contain_text("/api/v1/evaluate/")
    expect(desktop.locator("[role=menuitem]", has_text="engine").first).to_be_visible()

    assert attempted() == [], f"the page tried to reach the internet: {attempted()}"
    assert errors == []


def test_the_site_header_links_to_the_api_docs(live_server, phone):
    attempted = offline(phone, live_server)
    phone.goto(live_server.url + "/")
    with phone.expect_navigation():
        phone.locator("header.site").get_by_role("link", name="API", exact=True).click()
    expect(phone.locator("#operations-engine-evaluate")).to_be_visible()
    assert attempted() == []
