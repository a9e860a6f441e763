"""The events stream's synchronous part, shared by the ASGI stream (``scoring.web.event_stream``)
and the plain Django view (``scoring.api.events``): who may read a tournament's stream, and the
stream's frames.

``GET /api/v1/tournaments/{id}/events/`` is readable as the tournament's standings are
(``selectors.access.require_tournament_readable``): by anyone when the tournament is public and
started, else by its club's directors — their session (the dashboard) or their API token
(``Authorization: Token …``); to anyone else it answers the API's 404, like an unknown id.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connections
from rest_framework import exceptions

from scoring.domain import row_scope
from scoring.domain.errors import DomainError, problem
from scoring.domain.inputs import MAX_ID, parse_whole_number
from scoring.selectors.access import require_tournament_readable
from scoring.selectors.events import events_after, snapshot
from scoring.selectors.tournaments import tournament_get
from scoring.web.auth import DirectorTokenAuthentication, actor_from_request
from scoring.web.http import status_of

#: The browser's wait before it reconnects a dropped stream (ms), sent first on every stream.
RETRY_MS = 3000


class Refused(Exception):
    """An answer other than the stream: ``status``, the API's error body and extra headers."""

    def __init__(self, status: int, body: dict, headers: dict | None = None) -> None:
        super().__init__(status)
        self.status, self.body, self.headers = status, body, headers or {}


def _refusal(error: DomainError) -> Refused:
    status = status_of(error)
    return Refused(status, {"errors": error.errors, "detail": error.message} if status != 400 else
                   {"errors": error.errors})


def authenticate(request) -> None:
    """``request.user`` as the API sees it: a director's token first (``Authorization: Token``),
    else the session's user (the session middleware's work, done here for the ASGI stream)."""
    if not hasattr(request, "session"):
        engine = import_module(settings.SESSION_ENGINE)
        request.session = engine.SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    try:
        found = DirectorTokenAuthentication().authenticate(request)
    except exceptions.APIException as e:  # a bad token: 401 as the API answers it (429 past the guessing limit)
        code = e.get_codes() if isinstance(e.get_codes(), str) else "error"
        headers = {"WWW-Authenticate": "Token"} if e.status_code == 401 else {}
        if getattr(e, "wait", None):
            headers["Retry-After"] = str(int(e.wait))
        raise Refused(e.status_code, {"errors": [problem("", code, str(e.detail))], "detail": str(e.detail)},
                      headers) from None
    if found is not None:
        request.user = found[0]
    elif not hasattr(request, "user") or not getattr(request.user, "is_authenticated", False):
        request.user = get_user(request)
    row_scope.admit_user(request.user)


def stream_tournament(request, tournament_id: Any) -> int:
    """The tournament's id when ``request`` may read its stream; else ``Refused`` (404 for a
    tournament it may not see, 401 for a bad token)."""
    authenticate(request)
    try:
        tournament = tournament_get(tournament_id)
        require_tournament_readable(actor_from_request(request), tournament)
    except DomainError as e:
        raise _refusal(e) from None
    return tournament.pk


def public_tournament(tournament_id: int) -> bool:
    """Whether anyone may read the tournament's stream (no login): the anonymous check, which
    the ASGI stream shares between the connections that arrive together."""
    try:
        return tournament_get(tournament_id).publicly_visible
    except DomainError:
        return False


def not_found() -> Refused:
    return Refused(404, {"errors": [problem("", "not_found", "No such tournament.")], "detail": "No such tournament."})


def parse_last_event_id(value: str | None) -> int | None:
    """``Last-Event-ID`` as a version (None when absent or not a whole number of ASCII digits, as
    "²" or "-0": a new client)."""
    return parse_whole_number(value, low=0, high=MAX_ID)


def frame(event_id: int, event: str, data: Any) -> bytes:
    """One server-sent event; ``data`` is JSON text or a value to write as JSON (one line)."""
    text = data if isinstance(data, str) else json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":"),
                                                         ensure_ascii=False)
    return f"id: {event_id}\nevent: {event}\ndata: {text}\n\n".encode()


def opening(last_sent: int, *, new_client: bool) -> bytes:
    """The stream's first bytes: the reconnection delay and, for a client without
    ``Last-Event-ID``, the current version as its last event id (so that its reconnection asks
    from there) without an event of its own."""
    return f"retry: {RETRY_MS}\n\n".encode() + (f"id: {last_sent}\n\n".encode() if new_client else b"")


def first_bytes(version: int, frames: list[tuple[int, bytes]], *, new_client: bool) -> tuple[int, bytes]:
    """``(last id sent, the stream's first bytes)`` from a ``backlog``: the opening, then its frames."""
    last_sent = frames[-1][0] if frames else version
    return last_sent, opening(last_sent, new_client=new_client) + b"".join(f for _, f in frames)


class SharedSnapshots:
    """The ``snapshot`` frame of each tournament at its latest version, drawn once and sent to
    every client too far behind at that version: a snapshot reads the standings, and 100
    anonymous clients resuming with an old ``Last-Event-ID`` each drew their own (the public
    page went from 0.03 s to 0.6 s). Per process, for the ``KEPT`` tournaments last asked; the
    threads asking for one not drawn yet wait for the first to draw it."""

    KEPT = 256

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frames: OrderedDict[int, tuple[int, bytes]] = OrderedDict()
        self._drawing: dict[int, threading.Lock] = {}

    def _kept(self, tournament_id: int, version: int) -> tuple[int, bytes] | None:
        with self._lock:
            kept = self._frames.get(tournament_id)
            if kept is None or kept[0] != version:
                return None
            self._frames.move_to_end(tournament_id)
            return kept

    def get(self, tournament_id: int, version: int) -> tuple[int, bytes]:
        """``(id, frame)``: the snapshot at ``version`` (the feed's latest, as just read), or a
        newer one when an event came between that read and the drawing."""
        kept = self._kept(tournament_id, version)
        if kept is not None:
            return kept
        with self._lock:
            drawing = self._drawing.setdefault(tournament_id, threading.Lock())
        with drawing:
            kept = self._kept(tournament_id, version)   # drawn while this thread waited
            if kept is not None:
                return kept
            snap = snapshot(tournament_id)
            drawn = (snap["id"], frame(snap["id"], "snapshot", snap["data"]))
            with self._lock:
                self._frames[tournament_id] = drawn
                self._frames.move_to_end(tournament_id)
                while len(self._frames) > self.KEPT:
                    gone, _ = self._frames.popitem(last=False)
                    self._drawing.pop(gone, None)
        return drawn

    def clear(self) -> None:
        with self._lock:
            self._frames.clear()
            self._drawing.clear()


snapshots = SharedSnapshots()


def backlog(tournament_id: int, after: int | None) -> tuple[int, list[tuple[int, bytes]]]:
    """What a client that has seen ``after`` is sent first: ``(version, [(id, frame)])`` —
    every kept event since, or one ``snapshot`` when it is too far behind (``snapshots``:
    shared by every such client at that version). Read in the system's row scope: shared by
    readers of every kind, it runs once each has been let in (``stream_tournament``)."""
    with row_scope.within(row_scope.system()):
        version, events = events_after(tournament_id, after)
        if events is None:
            snap_id, snap_frame = snapshots.get(tournament_id, version)
            return snap_id, [(snap_id, snap_frame)]
    return version, [(e["id"], frame(e["id"], e["event"], e["data"])) for e in events]


def in_thread(fn, *args):
    """``fn(*args)`` in a worker thread of the ASGI server, as a request would run: a database
    error closes the thread's connections, so that the next call connects afresh. Each call starts
    in the public row scope (a thread of the pool keeps its context from one call to the next)."""
    try:
        with row_scope.within(row_scope.public()):
            return fn(*args)
    except DatabaseError:
        for conn in connections.all(initialized_only=True):
            conn.close()
        raise
