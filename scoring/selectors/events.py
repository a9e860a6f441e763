"""The live feed's reads: the events a client missed, or a snapshot when it is too far behind."""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder

from scoring.models import Tournament, TournamentEvent, TournamentFeed
from scoring.selectors.standings import standings_for

#: Standing rows a snapshot carries (the API's first page).
SNAPSHOT_ROWS = 50


def feed_version(tournament_id: int) -> int:
    """The tournament's version: 0 before its first event (one query)."""
    return TournamentFeed.objects.filter(pk=tournament_id).values_list("version", flat=True).first() or 0


def events_after(tournament_id: int, after: int | None) -> tuple[int, list[dict] | None]:
    """What a client that has seen version ``after`` (None: nothing, a new client) needs:
    ``(version, events)``. ``events``: every kept event after ``after``, oldest first, each
    ``{"id", "event", "data"}``; ``[]`` for a new client (it starts from ``version``); None when
    the client is too far behind (its next event is no longer kept) or ahead of the feed (a
    restored database): it needs ``snapshot``. One or two queries."""
    if after is None:
        return feed_version(tournament_id), []
    rows = list(TournamentEvent.objects.filter(tournament_id=tournament_id, version__gt=after)
                .order_by("version").values_list("version", "kind", "data"))
    if rows and rows[0][0] != after + 1:
        return rows[-1][0], None
    if not rows:
        version = feed_version(tournament_id)
        return version, ([] if after == version else None)
    return rows[-1][0], [{"id": v, "event": kind, "data": data} for v, kind, data in rows]


def snapshot(tournament_id: int) -> dict:
    """One ``snapshot`` event: the current version and the standings' first rows (ranked, as the
    API's ``standings/`` answers them) — what a client too far behind starts again from."""
    version = feed_version(tournament_id)
    tournament = Tournament.objects.get(pk=tournament_id)
    rows = standings_for(tournament)[:SNAPSHOT_ROWS]
    for row in rows:
        row.pop("updated_at", None)
    # Plain JSON (money is a Decimal, times are datetimes), as the stored events are.
    data = json.loads(json.dumps({"version": version, "standings": rows}, cls=DjangoJSONEncoder))
    return {"id": version, "event": "snapshot", "data": data}
