"""Web Push in a real browser (Debian's Chromium, headless): a proven player allows notifications
on the scorer page, a session is seated, and the service worker shows "Session 1: Table T, seat S".

What is real here and what is not. Headless Chromium cannot subscribe: ``pushManager.subscribe``
needs Google's push service (FCM), which a browser without Google's keys and without the internet
does not reach (found on this machine: a fresh context answers "AbortError: Registration failed -
permission denied"; a profile on disk waits without end). So the one thing replaced is
``PushManager.prototype.subscribe`` (and ``getSubscription``), in the page: it hands the page a
subscription whose endpoint is the test's own push service and whose keys the test made. Everything
else is the site's: the page's script (static/js/push.js) asks the permission, POSTs that
subscription to the server, which ties it to the proven player; seating the session enqueues the
task on commit, which encrypts and POSTs the message with pywebpush to the test's push service
(tests/scoring/push_service.py); the test decrypts what the push service got with the keys it made,
and hands the plain message to the page's service worker as a push service's message arrives
(the DevTools protocol's ``ServiceWorker.deliverPushMessage``: the browser's own "push" event); the
worker (templates/scorer/sw.js) shows the notification, read back with ``getNotifications()``.
Not tested here: the browser's own decryption of a push service's message, and a tap on the
notification (``notificationclick``)."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from scoring.domain.actors import Actor
from scoring.domain.push import new_key_pair
from scoring.models import PushSubscription, Seat
from scoring.services.seating import session_seat

from ..scoring.push_service import Browser, PushService
from .conftest import BROWSER_ARGS, CHROMIUM, PHONE_390

pytestmark = pytest.mark.django_db(transaction=True)

#: The browser's subscribe replaced (see the docstring): the subscription the test made, kept.
FAKE_SUBSCRIBE = """
(() => {
  const made = %s;
  let current = null;
  const subscription = {
    endpoint: made.endpoint,
    toJSON: () => made,
    unsubscribe: () => { current = null; return Promise.resolve(true); },
  };
  PushManager.prototype.subscribe = function (options) {
    if (!options || !options.userVisibleOnly || !options.applicationServerKey) return Promise.reject(new Error("bad options"));
    window.__subscribedWithKey = btoa(String.fromCharCode.apply(null, new Uint8Array(options.applicationServerKey)));
    current = subscription;
    return Promise.resolve(subscription);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
})();
"""


@pytest.fixture
def vapid(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_key_pair()
    return settings.VAPID_PUBLIC_KEY


@pytest.fixture
def push_service():
    service = PushService().start()
    yield service
    service.stop()


@pytest.fixture
def phone_context(playwright, tmp_path, live_server):
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=BROWSER_ARGS, viewport=PHONE_390,
        device_scale_factor=2, is_mobile=True, has_touch=True, service_workers="allow")
    context.set_default_timeout(15_000)
    context.grant_permissions(["notifications"], origin=live_server.url)
    yield context
    context.close()


def prove(page, seat_label: str) -> None:
    page.select_option("#who-seat", label=seat_label)
    page.fill("#who-code", "4821")
    page.fill("#who-code-again", "4821")
    page.click("#who button[type=submit]")
    expect(page.locator("#who.me")).to_be_visible()


def registration_id(page, cdp, scope: str) -> str:
    """The worker's registration id for ``scope``, as DevTools reports it (the page's waits let its events in)."""
    found = {}
    cdp.on("ServiceWorker.workerRegistrationUpdated",
           lambda event: found.update({r["scopeURL"]: r["registrationId"] for r in event["registrations"]
                                       if not r["isDeleted"]}))
    cdp.send("ServiceWorker.enable")
    end = time.monotonic() + 10
    while scope not in found and time.monotonic() < end:
        page.wait_for_timeout(100)
    return found[scope]


def shown_notifications(page, timeout: float):
    """The notifications the service worker shows (title, body, url), once there are any. Read
    again on each try: the scorer page may reload meanwhile (the seating it follows moved), which
    takes a handle to the page's last answer with it."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            shown = page.evaluate("""() => navigator.serviceWorker.ready.then(r => r.getNotifications())
                .then(list => list.map(n => [n.title, n.body, n.data.url]))""")
        except PlaywrightError:   # the page was between two documents
            shown = []
        if shown or time.monotonic() > deadline:
            return shown
        time.sleep(0.1)


def push_until_shown(context, page, origin: str, message: dict, tries: int = 4):
    """Hands ``message`` to the worker as a push service's message arrives, and returns what it
    shows. DevTools' ``deliverPushMessage`` drops a message now and then on a loaded machine
    (found here: with every core busy, one try in three showed nothing for 10 s, and the same
    message handed over again showed at once), as a push service may deliver twice: handed over
    again until something shows. The message's tag makes a second one replace the first, so what
    is shown is still one notification; the test's assertion says so."""
    for _ in range(tries):
        cdp = context.new_cdp_session(page)   # a fresh session reports the registrations anew
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": origin, "registrationId": registration_id(page, cdp, f"{origin}/s/"),
            "data": json.dumps(message)})
        shown = shown_notifications(page, timeout=5)
        cdp.detach()
        if shown:
            return shown
    return []


def test_a_proven_player_allows_notifications_and_is_told_the_seat(live_server, phone_context, make_setup, vapid,
                                                                    push_service, director):
    s = make_setup("jie_long", require_proof=True)
    browser = Browser(endpoint=push_service.url("anna"))
    phone_context.add_init_script(FAKE_SUBSCRIBE % json.dumps(browser.subscription()))
    page = phone_context.pages[0] if phone_context.pages else phone_context.new_page()
    page.goto(f"{live_server.url}/s/{s.token}/")
    prove(page, "1. Anna (new code)")

    section = page.locator("#notifications")
    expect(section).to_be_visible()
    expect(page.locator("#notifications-status")).to_have_text("Notifications are off for this phone.")
    page.click("#notifications-allow")
    expect(page.locator("#notifications-status")).to_have_text("Notifications are on for this phone.")
    expect(page.locator("#notifications-stop")).to_be_visible()
    assert page.evaluate("window.__subscribedWithKey").rstrip("=").replace("+", "-").replace("/", "_") == vapid
    sub = PushSubscription.objects.get()
    assert sub.player_id == s.entries[0].player_id and sub.endpoint == browser.endpoint

    # The director seats session 2 (the setup's table is session 1): the task sends on commit.
    seated = session_seat(actor=Actor(user=director), tournament=s.tournament, method="random", table_size=4,
                          leftovers="sit_out", seed="1")
    where = Seat.objects.select_related("table").get(table__session=seated.session, entry=s.entries[0])
    assert len(push_service.to("anna")) == 1
    message = browser.read(push_service.to("anna")[0])
    text = f"Session 2: {where.table.name}, seat {where.position + 1}"
    assert message["body"] == text

    # The push service's message, decrypted, handed to the worker as the browser hands one over.
    assert push_until_shown(phone_context, page, live_server.url, message) == [[s.tournament.name, text, f"/t/{s.tournament.slug}/tables/{where.table_id}/"]]

    # Stop: the server forgets this phone.
    page.click("#notifications-stop")
    expect(page.locator("#notifications-status")).to_have_text("Notifications are off for this phone.")
    assert not PushSubscription.objects.exists()


def test_without_push_support_there_is_no_button(live_server, phone_context, make_setup, vapid):
    s = make_setup("jie_long", require_proof=True)
    phone_context.add_init_script("delete window.PushManager;")
    page = phone_context.pages[0] if phone_context.pages else phone_context.new_page()
    page.goto(f"{live_server.url}/s/{s.token}/")
    prove(page, "1. Anna (new code)")
    page.wait_for_load_state("load")
    expect(page.locator("#notifications")).to_be_hidden()
    expect(page.locator("#notifications-allow")).to_be_hidden()
