"""Django's WSGI application under the ASGI router (``gupai_site.asgi``): a2wsgi's bridge, with the
thread's hand-offs to the event loop cut to what a response needs.

a2wsgi runs the WSGI application in its thread pool and hands every piece over to the event loop
one at a time, the thread waiting for each: reading the body (which ``gupai_site.body_deadline``
has already collected in the loop), the response's start, each chunk of its body, its end — four
or five waits on the loop for a deal, each a wake-up of the loop and of the thread, fought over
by two threads and the loop for the interpreter's lock. Here:

- the body collected by ``BodyDeadline`` (``scope[BODY]``) is the WSGI input as it is: no read
  goes back to the loop;
- the response's start and body are kept in the thread and given to the loop together once the
  application has returned (the same messages in the same order); a body past ``FLUSH_AT``
  bytes is handed over as it comes, as a2wsgi does (a large download is not held whole).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import Body, WSGIResponder, build_environ

#: The scope's key under which ``BodyDeadline`` leaves the body it collected.
BODY = "gupai.body"
#: Bytes of a response's body kept in the thread before it is handed over piece by piece.
FLUSH_AT = 256 * 1024


class _Responder(WSGIResponder):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.pending: list[dict] = []
        self.pending_size = 0

    async def __call__(self, scope, receive, send) -> None:
        body = Body(self.loop, receive)
        if scope.get(BODY) is not None:   # whole already: nothing more to receive
            body.buffer.extend(scope[BODY])
            body._has_more = False
        environ = build_environ(scope, body)
        sender = self.loop.create_task(self.sender(send))
        try:
            run = functools.partial(contextvars.copy_context().run, self.wsgi)
            await self.loop.run_in_executor(self.executor, run, environ, self.start_response)
            pending, self.pending = self.pending, []
            for message in pending:
                await self.send_queue.put(message)
            await self.send_queue.put(None)
            await sender
            if self.exc_info is not None:
                raise self.exc_info[0].with_traceback(self.exc_info[1], self.exc_info[2])
        finally:
            if not sender.done():
                sender.cancel()

    def send(self, message) -> None:
        """In the thread: kept until the application returns, unless the body grows large."""
        self.pending.append(message)
        if message["type"] != "http.response.body" or not message.get("more_body"):
            return
        self.pending_size += len(message.get("body", b""))
        if self.pending_size >= FLUSH_AT:
            pending, self.pending, self.pending_size = self.pending, [], 0
            asyncio.run_coroutine_threadsafe(self._hand_over(pending), loop=self.loop).result()

    async def _hand_over(self, messages: list[dict]) -> None:
        for message in messages:
            await self.send_queue.put(message)


class WSGIBridge(WSGIMiddleware):
    """``a2wsgi.WSGIMiddleware`` with the responder above (HTTP only, as the router uses it)."""

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            return await _Responder(self.app, self.executor, self.send_queue_size)(scope, receive, send)
        return await super().__call__(scope, receive, send)
