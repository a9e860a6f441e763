"""The live feed: each committed change the live pages show becomes one event of its tournament.

Every write service that changes what a live page shows (a deal recorded, corrected, confirmed,
voided, disputed or settled; a session seated, closed or reopened, its clock started or
stopped) calls ``event_publish`` at the
END of its transaction. It takes the tournament's next version (``UPDATE … RETURNING`` on its
feed row: the row lock, held till commit, makes versions commit in order, so a client that has
seen version N can never miss N-1 later), stores the event (the stream's backlog, the last
``KEEP`` per tournament) and, once the transaction commits — and only then — publishes it: on
Redis channel ``gupai:events:<tournament id>`` when ``REDIS_URL`` is set (the web processes'
hubs fan it out, ``scoring/web/events.py``), else to the listeners of this process (``make run``
and the tests without Redis). A publish that fails loses nothing: the event is stored, and the
streams fill gaps from the store.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from scoring.domain.records import outcomes_by_position
from scoring.models import Round, RoundRevision, Standing, Table, Tournament, TournamentEvent, TournamentFeed
from scoring.services.common import Resting
from scoring.services.round_rows import utc_of

log = logging.getLogger(__name__)

#: Events kept per tournament: a client further behind gets one ``snapshot`` instead.
KEEP = 1000
#: The older events go every PRUNE_EVERY versions (one DELETE then, none in between).
PRUNE_EVERY = 100
#: The Redis channels: one per tournament; the hubs subscribe to the pattern.
CHANNEL_PREFIX = "gupai:events:"

_FEED = TournamentFeed._meta.db_table
_EVENT = TournamentEvent._meta.db_table
_UPSERT = (f'INSERT INTO "{_FEED}" ("tournament_id", "version") VALUES (%s, 1) ON CONFLICT ("tournament_id") '
           f'DO UPDATE SET "version" = "{_FEED}"."version" + 1 RETURNING "version"')
_INTO_EVENT = f'INSERT INTO "{_EVENT}" ("tournament_id", "version", "kind", "data", "created_at")'
_INSERT = f"{_INTO_EVENT} VALUES (%s, %s, %s, %s, %s)"
#: Both in one statement on PostgreSQL (SQLite's WITH takes no INSERT): the version drawn and the
#: event stored in one round trip of every live change's transaction.
_UPSERT_AND_INSERT = (f'WITH next AS ({_UPSERT}) {_INTO_EVENT} VALUES (%s, (SELECT "version" FROM next), %s, %s, %s) '
                      'RETURNING "version"')


def event_publish(*, tournament: Tournament | int, kind: str, data: dict) -> int:
    """Store the change ``kind`` (``data``: what changed) as the tournament's next version, inside
    the caller's transaction, and publish it once that commits. Returns the version. One
    statement on PostgreSQL, two elsewhere (and one more every ``PRUNE_EVERY`` versions); call it
    last in the transaction."""
    tid = tournament if isinstance(tournament, int) else tournament.pk
    text = json.dumps(data, cls=DjangoJSONEncoder, separators=(",", ":"), ensure_ascii=False)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(_UPSERT_AND_INSERT, [tid, tid, kind, text, now])
            version = cursor.fetchone()[0]
        else:
            cursor.execute(_UPSERT, [tid])
            version = cursor.fetchone()[0]
            cursor.execute(_INSERT, [tid, version, kind, text, now])
        if version % PRUNE_EVERY == 0 and version > KEEP:
            cursor.execute(f'DELETE FROM "{_EVENT}" WHERE "tournament_id" = %s AND "version" <= %s',
                           [tid, version - KEEP])
    message = f'{{"tournament":{tid},"id":{version},"event":{json.dumps(kind)},"data":{text}}}'
    transaction.on_commit(lambda: _send(tid, message))
    return version


# ---------------------------------------------------------------------------------------------
# After commit: Redis, or this process's listeners

_listeners: list[Callable[[int, str], None]] = []
_lock = threading.Lock()
_redis: Any = None
#: A Redis that failed is not asked again for a while (a deal never waits on a dead Redis twice).
REDIS = Resting("events: publishing to Redis", consequence="the events are stored, the streams will catch up")


def listen(callback: Callable[[int, str], None]) -> None:
    """Call ``callback(tournament_id, message)`` for every event this process publishes, when
    there is no Redis (the hub of ``make run``'s single process). From the committing thread."""
    with _lock:
        _listeners.append(callback)


def unlisten(callback: Callable[[int, str], None]) -> None:
    with _lock:
        if callback in _listeners:
            _listeners.remove(callback)


def _send(tid: int, message: str) -> None:
    if not settings.REDIS_URL:
        for callback in list(_listeners):
            try:
                callback(tid, message)
            except Exception:  # a listener's trouble is no reason to fail the write's answer
                log.exception("event listener failed")
        return
    REDIS.call(_publish, tid, message)


def _publish(tid: int, message: str) -> None:
    global _redis
    if _redis is None or _redis[0] != settings.REDIS_URL:
        import redis

        _redis = (settings.REDIS_URL, redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=0.5,
                                                           socket_timeout=0.5))
    _redis[1].publish(f"{CHANNEL_PREFIX}{tid}", message)


# ---------------------------------------------------------------------------------------------
# What the events carry

def _when(value: Any) -> str | None:
    """A time as ISO text (SQLite's RETURNING hands back naive UTC text, PostgreSQL an aware time)."""
    value = utc_of(value)
    return None if value is None else value.isoformat()


#: The standing columns an event carries, in this order (``standing_row``).
STANDING_COLUMNS = ("entry_id", "total", "rounds_counted", "wins", *Standing.PLACES, "last_deal_at")


def standing_row(values: Iterable[Any], places: int) -> dict:
    """A standing row as events carry it, from ``STANDING_COLUMNS`` values: the entry's figures
    (not its rank: that is the whole table's, and the page fetches it)."""
    v = list(values)
    return {"entry": v[0], "net": v[1], "deals": v[2], "wins": v[3],
            "places": {str(i + 1): v[4 + i] for i in range(places)}, "last_deal_at": _when(v[-1])}


def deal_data(*, tournament: Tournament, round: Round, table: Table, entries: list[int],
              revision: RoundRevision | None, standings: list[dict]) -> dict:
    """A deal's event: the deal as the public pages show it (table, session, number, status, the
    nets by seat and entry) and the standing rows it moved."""
    nets = []
    if revision is not None:
        outcomes = outcomes_by_position(game=tournament.game, leader=revision.body.get("leader"),
                                        seats=revision.result.get("seats", []), n=len(entries))
        nets = [{"seat": pos, "entry": entry, "net": o.net} for pos, (entry, o) in enumerate(zip(entries, outcomes))]
    return {"round": round.pk, "table": table.pk, "table_name": table.name, "session": table.session.number,
            "number": round.number, "status": round.status, "disputed": round.disputed,
            "revision": revision.number if revision is not None else None, "nets": nets, "standings": standings}


def session_data(session: Any, **extra: Any) -> dict:
    return {"session": session.number, "status": session.status, **extra}
