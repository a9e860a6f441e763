"""uvicorn's HTTP protocol with a deadline on each request's head (``gupai_site.asgi_worker``
gives it to uvicorn as ``http``).

Why: uvicorn closes a connection idle between requests (``timeout_keep_alive``) but waits for a
head without end: a client that sends ``POST / HTTP/1.1`` and stops keeps its connection (and a
file descriptor) for good, and many of them exhaust the process's. Here:

- ``REQUEST_HEAD_TIMEOUT`` (seconds, default 10, at most 60): a head must be complete within it,
  counted from the connection's opening (or, on a kept-alive connection, from the head's first
  byte); else the connection answers **408** (plain text) and is closed. A connection that sent
  nothing at all is simply closed.
- ``SLOW_REQUESTS_PER_ADDRESS`` (default 8): at most that many unfinished heads at once from one
  address per worker process; one more connection is closed. Not behind a proxy
  (``BEHIND_PROXY``): there every connection comes from the proxy, which reads heads itself.

The body's deadline is the ASGI router's (``gupai_site.body_deadline``).
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from gupai_site.body_deadline import DEFAULT_PER_ADDRESS, PerAddress, env_count, env_seconds
from scoring.web.client_address import behind_proxy

DEFAULT_HEAD_TIMEOUT = 10.0
MAX_HEAD_TIMEOUT = 60.0
TIMEOUT_ANSWER = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                  b"content-length: 33\r\nconnection: close\r\n\r\nThe request head did not arrive.\n")


class HeadDeadlineProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` (uvicorn's default when httptools is installed, as
    ``uvicorn[standard]`` does) with the head's deadline and the per-address limit."""

    head_timeout = env_seconds("REQUEST_HEAD_TIMEOUT", DEFAULT_HEAD_TIMEOUT, MAX_HEAD_TIMEOUT)
    #: Unfinished heads per address, shared by the process's connections; None behind a proxy.
    heads: PerAddress | None = (None if behind_proxy() else
                                PerAddress(env_count("SLOW_REQUESTS_PER_ADDRESS", DEFAULT_PER_ADDRESS)))

    def connection_made(self, transport) -> None:
        self._head_timer = None
        self._in_head = False
        self._counted: str | None = None
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        # Counted while a head is unfinished after the bytes that came (a whole head is never).
        if self._in_head and self._counted is None and self.heads is not None and self.client:
            if not self.heads.take(self.client[0]):
                self._disarm()
                self.transport.close()
                return
            self._counted = self.client[0]
        elif not self._in_head:
            self._uncount()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        if self._head_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._disarm()
        super().on_headers_complete()

    def _arm(self) -> None:
        self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        self._uncount()

    def _uncount(self) -> None:
        if self._counted is not None:
            self.heads.give(self._counted)
            self._counted = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        self._uncount()
        if self.transport.is_closing():
            return
        # The answer only when no earlier request's answer is still being written (pipelining).
        if self._in_head and (self.cycle is None or self.cycle.response_complete):
            self.transport.write(TIMEOUT_ANSWER)
        self.transport.close()
