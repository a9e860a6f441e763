"""The table keeps scoring when the network doesn't (issue 28's proof), in Chromium at 390×844
with touch and a profile on disk: two tables' scorer pages opened once, the network cut, both
pages loaded again from the service worker, 25 deals entered at each, the browser closed and
opened again offline, 5 more deals, the network back: within 10 s all 55 deals are stored once
each, in order, their chains valid, the standings equal to the deals, and no deal was refused by
the link's allowance (it counts a queued deal by the minute it was drawn on the phone)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error, expect

from scoring.models import Round

from .test_scorer_offline_app import CONTROLLED, KEPT, eventually, open_profile
from .test_scorer_outbox import assert_stored_in_order, enter, jie_long_points

pytestmark = pytest.mark.django_db(transaction=True)


class Network:
    """The venue's wifi between the phone and the server: a TCP relay to the live server that
    the test cuts and brings back. ``set_offline`` alone cuts the pages only (Playwright's
    emulation leaves a service worker's own requests through, and a browser started again
    resumes its Background Sync before any route can be set): cut here, every request of the
    phone fails, as without a network. ``up``/``down`` also tell the pages (``navigator.onLine``,
    the ``online`` event) through ``set_offline``."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.cut = threading.Event()
        self.open: list[socket.socket] = []
        self.lock = threading.Lock()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        while True:
            try:
                phone, _ = self.server.accept()
            except OSError:
                return
            if self.cut.is_set():
                phone.close()
                continue
            server = socket.create_connection(self.target)
            with self.lock:
                self.open += [phone, server]
            for a, b in ((phone, server), (server, phone)):
                threading.Thread(target=self.pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def down(self, context=None) -> None:
        self.cut.set()
        with self.lock:
            for s in self.open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
            self.open.clear()
        if context is not None:
            context.set_offline(True)

    def up(self, context) -> None:
        self.cut.clear()
        context.set_offline(False)

    def close(self) -> None:
        self.down()
        self.server.close()


def waiting(page) -> int | None:
    """How many items wait in the phone's outbox; None while the page is loading again."""
    try:
        return page.evaluate("window.GupaiOutbox ? GupaiOutbox.count() : null")
    except Error:
        return None


def opened(page, url: str, *, online: bool) -> None:
    response = page.goto(url)
    if online:
        assert page.evaluate(CONTROLLED)
        eventually(lambda: page.evaluate(KEPT, urlsplit(url).path))  # the worker has kept the page
    else:
        assert response.from_service_worker
    page.wait_for_function("window.GupaiOutboxPage !== undefined")
    page.evaluate("GupaiOutboxPage.ready.then(() => true)")


def test_two_tables_score_offline_through_a_browser_restart(live_server, playwright, tmp_path, make_setup):
    tables = [make_setup("jie_long"), make_setup("jie_long", names=["Ed", "Fay", "Gus", "Hal"], table_name="Table 2")]
    served = urlsplit(live_server.url)
    wifi = Network((served.hostname, served.port))
    links = [f"http://localhost:{wifi.port}/s/{s.token}/" for s in tables]
    deals = [jie_long_points(30, seed=11), jie_long_points(25, seed=12)]
    statuses: list[int] = []

    def watch(context):
        context.on("response", lambda r: statuses.append(r.status) if r.request.method == "POST" else None)

    context = open_profile(playwright, tmp_path / "profile")
    try:
        watch(context)
        pages = [context.pages[0] if context.pages else context.new_page(), context.new_page()]
        for page, url in zip(pages, links):
            opened(page, url, online=True)
        wifi.down(context)
        for page, url in zip(pages, links):
            opened(page, url, online=False)  # reloaded: the worker's copy
            page.get_by_label("Entered by").select_option(index=1)
        for page, table_deals in zip(pages, deals):
            for n, points in enumerate(table_deals[:25], start=1):
                enter(page, points, n)
            expect(page.locator("#deals [data-outbox-item]")).to_have_count(25)
    finally:
        context.close()
    assert Round.objects.count() == 0

    wifi.down()  # the phone's browser starts again with no network
    context = open_profile(playwright, tmp_path / "profile", offline=True)
    try:
        watch(context)
        pages = [context.pages[0] if context.pages else context.new_page(), context.new_page()]
        for page, url in zip(pages, links):
            opened(page, url, online=False)
        # The worker's copy says "Deal 1": the page starts after the deals queued.
        expect(pages[0].locator("#new-deal-title")).to_have_text("Deal 26")
        for n, points in enumerate(deals[0][25:], start=26):
            enter(pages[0], points, n)
        expect(pages[0].locator("#deals [data-outbox-item]")).to_have_count(30)

        assert Round.objects.count() == 0  # nothing went out while offline
        back = time.monotonic()
        wifi.up(context)
        eventually(lambda: Round.objects.count() == 55, timeout=10)
        assert time.monotonic() - back <= 10
        for page, number in zip(pages, (31, 26)):
            # The last deal leaves the outbox once its answer is in; the page then loads anew.
            eventually(lambda: waiting(page) == 0)
            expect(page.locator("#new-deal-title")).to_have_text(f"Deal {number}")
            expect(page.locator("#deals article.deal")).not_to_have_count(0)
            expect(page.locator("#deals [data-outbox-item]")).to_have_count(0)
    finally:
        context.close()
        wifi.close()
    for setup, table_deals in zip(tables, deals):
        assert_stored_in_order(setup, table_deals)
    assert 429 not in statuses
