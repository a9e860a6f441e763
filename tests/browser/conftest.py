"""A real headless browser: Debian's Chromium driven by Playwright (which cannot download its
own browsers here, so it is pointed at /usr/bin/chromium). Pages are served by pytest-django's
live server against the test database."""

from __future__ import annotations

import os
import shutil
import time

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")

# Playwright's sync API runs an event loop in the test thread; Django refuses ORM calls from a
# thread with a running loop unless told that this is intended (it is: the test is synchronous).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

#: The narrowest phone the pages must serve (issue 4: usable at 360 px).
PHONE = {"width": 360, "height": 740}
PHONE_390 = {"width": 390, "height": 844}


#: Chromium's switches for every browser the tests start.
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def playwright():
    """Playwright, started once: its sync API runs one instance a thread (a browser with a
    profile on disk, ``launch_persistent_context``, is started from it too)."""
    if not CHROMIUM:
        pytest.skip("no Chromium on this machine: `apt-get install chromium` (CI installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright):
    b = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=BROWSER_ARGS)
    yield b
    b.close()


#: The phones the pages are tried on: the narrowest, and the common one the issues name.
PHONES = {"phone": PHONE, "phone390": PHONE_390}

#: A director's laptop.
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def make_page(browser, request):
    """``make_page(kind="phone"|"phone390"|"desktop", **context_options)``: a page in a new
    browser context (its own cookies, like another device; ``locale="zh-CN"``, say, or
    ``device_scale_factor=1`` for small screenshots); all are closed after the test."""
    contexts = []

    def make(kind: str = "phone", **options):
        if kind in PHONES:
            defaults = {"viewport": PHONES[kind], "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
        else:
            defaults = {"viewport": DESKTOP}
        context = browser.new_context(**{**defaults, **options})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield make
    for context in contexts:
        context.close()
    if "live_server" in request.fixturenames:
        wait_for_the_live_server_to_finish()


def wait_for_the_live_server_to_finish(timeout: float = 10.0) -> None:
    """Closing a page does not stop a request the live server is still answering (a deal sent as
    the test ended, the reload after it): the test database's flush would then deadlock with it
    (PostgreSQL aborts one of the two: seen under load). Waits until no other connection to the
    test database is running a statement, twice in a row."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout
    quiet = 0
    while quiet < 2 and time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                           " AND pid <> pg_backend_pid() AND state = 'active'")
            quiet = quiet + 1 if cursor.fetchone()[0] == 0 else 0
        time.sleep(0.05)


@pytest.fixture
def phone(make_page):
    return make_page("phone")


@pytest.fixture
def desktop(make_page):
    return make_page("desktop")


def assert_no_horizontal_scroll(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"the page scrolls sideways by {overflow}px at {PHONE['width']}px wide"
