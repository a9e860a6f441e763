"""The live pages on the real ASGI application (``gupai_site.asgi`` under uvicorn, in a thread,
against the test database): a deal shows at once through the events stream, without waiting
for a poll; once the stream is cut (held streams ended, new ones answered 503, as while Redis
is away) the page falls back to polling and the next deal still shows."""

from __future__ import annotations

import asyncio
import re
import socket
import threading

import pytest
from django.contrib.staticfiles.handlers import StaticFilesHandler
from django.core.handlers.wsgi import WSGIHandler
from playwright.sync_api import expect

from gupai_site.asgi import build
from scoring.services.rounds import round_record
from scoring.web import event_stream

from ..scoring.bodies import JIE_LONG
from .test_director_pages import log_in

pytestmark = pytest.mark.django_db(transaction=True)


class AsgiSite:
    """uvicorn serving the site's ASGI router (static files as the live server serves them)."""

    def __init__(self) -> None:
        import uvicorn

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        app = build(StaticFilesHandler(WSGIHandler()), threads=4)
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    lifespan="off"))
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._serve()), daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            threading.Event().wait(0.05)

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        await self.server.serve()

    def cut(self) -> None:
        """End every held stream and refuse new ones (503)."""
        async def cut():
            hub = event_stream.get_hub()
            hub.cut = True
            hub.close_all()
        asyncio.run_coroutine_threadsafe(cut(), self.loop).result(5)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def asgi_site(settings, transactional_db):
    settings.REDIS_URL = ""     # the in-process hub: the deals are recorded in this process
    site = AsgiSite()
    yield site
    site.stop()


def anna(page):
    return page.locator("#standings tr", has_text="Anna").locator("td.net")


def test_a_deal_shows_at_once_by_the_stream_and_by_polling_once_it_is_cut(asgi_site, make_page, jie_long):
    page = make_page("phone")
    page.goto(f"{asgi_site.url}/t/{jie_long.tournament.slug}/")
    live = page.locator("[data-live-events]")
    expect(live).to_have_attribute("data-live-stream", "open")
    expect(anna(page)).to_have_text("0")
    page.wait_for_timeout(4500)   # the first poll is behind us: the next is 30 s away while the stream is open
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    expect(anna(page)).to_have_text("58", timeout=2000)

    asgi_site.cut()
    expect(live).to_have_attribute("data-live-stream", "down")
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    expect(anna(page)).to_have_text("116", timeout=15_000)   # polled: every 4 s
    expect(page.locator("[data-live-status]")).to_have_text(re.compile("Live"))


def test_the_directors_dashboard_listens_too(asgi_site, make_page, jie_long):
    page = make_page("desktop")
    log_in(page, asgi_site)
    page.goto(f"{asgi_site.url}/director/tournaments/{jie_long.tournament.pk}/")
    expect(page.locator("[data-live-events]")).to_have_attribute("data-live-stream", "open")
    page.wait_for_timeout(4500)
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    expect(page.locator("#director-standings tr", has_text="Anna").locator("td.num").nth(1)).to_have_text(
        "58", timeout=2000)
