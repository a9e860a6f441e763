"""How a deal's rows are written, beneath the services of ``services.rounds``: the table locked
with what a deal is checked against, the deal inserted, a revision hashed and stored. These run
in every deal's transaction, so each is one statement, some written as SQL (the why is at each)."""

from __future__ import annotations

from datetime import datetime
from datetime import timezone as dt_timezone
from typing import Any

from django.db import connection
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

import games
from scoring.domain.actors import Actor
from scoring.domain.chain import revision_hash
from scoring.domain.errors import NotFound
from scoring.domain.inputs import MAX_ACTOR_LABEL
from scoring.domain.records import RoundPreview
from scoring.models import Entry, Player, Round, RoundRevision, Seat, Session, Table, Tournament

#: The table's row locked, with its tournament's status, its session's status, clock end and close
#: time, and
#: its seats (entry, player, name) — one statement, written as SQL because it runs in every
#: deal's transaction and Django's compiler cost more than the statement itself. Only the
#: table's row is locked for update (``OF``): tables record side by side; PostgreSQL also holds
#: the session's row in share mode, so that a session closed meanwhile (``session_close`` locks
#: it for update) waits for the deals being recorded, and the deals sent after it see it closed.
#: SQLite locks the whole database for a write transaction and knows no FOR UPDATE.
LOCK_TABLE_SQL = (
    'SELECT tn."status", ss."status", ss."clock_ends_at", ss."closed_at", st."id", st."position", st."entry_id", en."player_id", '
    'pl."name" '
    f'FROM "{Table._meta.db_table}" tb '
    f'JOIN "{Session._meta.db_table}" ss ON ss."id" = tb."session_id" '
    f'JOIN "{Tournament._meta.db_table}" tn ON tn."id" = ss."tournament_id" '
    f'LEFT JOIN "{Seat._meta.db_table}" st ON st."table_id" = tb."id" '
    f'LEFT JOIN "{Entry._meta.db_table}" en ON en."id" = st."entry_id" '
    f'LEFT JOIN "{Player._meta.db_table}" pl ON pl."id" = en."player_id" '
    'WHERE tb."id" = %s ORDER BY st."position"')


def lock_table(table: Table) -> list[Seat]:
    """Lock ``table`` against concurrent recording; its seats by position (entry and player
    attached). The tournament's status and the session's status and clock are read again under
    the lock (a finish or a close may have come between the request's first read and now) and
    set on ``table.session.tournament`` and ``table.session`` (its close time too: a late deal from
    a phone is judged by it)."""
    sql = LOCK_TABLE_SQL
    if connection.features.has_select_for_update_of:
        sql += ' FOR UPDATE OF tb' + (' FOR SHARE OF ss' if connection.vendor == "postgresql" else '')
    with connection.cursor() as cursor:
        cursor.execute(sql, [table.pk])
        rows = cursor.fetchall()
    if not rows:
        raise NotFound(gettext("No such table."))
    table.session.tournament.status = rows[0][0]
    table.session.status, table.session.clock_ends_at = rows[0][1], utc_of(rows[0][2])
    table.session.closed_at = utc_of(rows[0][3])
    seats = []
    for _status, _session_status, _ends_at, _closed_at, seat_id, position, entry_id, player_id, name in rows:
        if seat_id is None:
            continue  # a table without seats: nothing to join
        seat = Seat(id=seat_id, table=table, position=position, entry_id=entry_id)
        seat.entry = Entry(id=entry_id, tournament_id=table.session.tournament_id, player_id=player_id)
        seat.entry.player = Player(id=player_id, club_id=table.session.tournament.club_id, name=name)
        seats.append(seat)
    return seats


def utc_of(value: Any) -> datetime | None:
    """A time read by raw SQL as an aware UTC datetime: SQLite's driver hands back naive UTC
    (or text), PostgreSQL's an aware one (``services.events`` reads its RETURNING rows so too)."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, dt_timezone.utc)
    return value


def insert_round(rnd: Round) -> int | None:
    """Insert a new deal. On PostgreSQL its pointer to its first revision is set in the same
    INSERT, to the id that revision will take (drawn from the revisions' sequence and returned):
    the foreign key is checked at commit (Django's are ``DEFERRABLE INITIALLY DEFERRED``), by
    when the revision exists, so the deal needs no ``UPDATE`` of its pointer afterwards — one
    statement less in every deal's transaction. Returns that id (None elsewhere: the caller
    points the deal at its revision once it is stored)."""
    if connection.vendor != "postgresql":
        rnd.save(force_insert=True)
        return None
    meta = Round._meta
    rnd.current_revision_id = RawSQL("nextval(pg_get_serial_sequence(%s, 'id'))", [RoundRevision._meta.db_table])
    fields = [f for f in meta.local_concrete_fields if f is not meta.pk]
    # The model's own INSERT (every field's pre_save and conversion, auto_now_add included),
    # returning the pointer as well as the id.
    [(pk, revision_id)] = Round._base_manager._insert(
        [rnd], fields=fields, returning_fields=[meta.pk, meta.get_field("current_revision")], using=connection.alias)
    rnd.pk, rnd.current_revision_id = pk, revision_id
    rnd._state.adding, rnd._state.db = False, connection.alias
    return revision_id


def add_revision(*, round: Round, number: int, preview: RoundPreview, actor: Actor, reason: str,
                  prev_hash: str, id: int | None = None) -> RoundRevision:
    created_at = timezone.now()
    # Plain JSON already: the body was parsed from JSON (or built from form text), the record and
    # result are the engine's, which deals in JSON types only.
    body, record, result = preview.body, preview.record, preview.result
    rev = RoundRevision(id=id, round=round, number=number, body=body, record=record, result=result,
                        engine_version=games.ENGINE_VERSION, actor_user=actor.user_or_none,
                        actor_label=actor.label[:MAX_ACTOR_LABEL], reason=reason, created_at=created_at, prev_hash=prev_hash)
    rev.hash = revision_hash(prev_hash=prev_hash, round_id=round.pk, number=number, body=body, record=record,
                             result=result, engine_version=rev.engine_version, actor_label=rev.actor_label,
                             reason=reason, created_at=created_at)
    rev.save(force_insert=True)
    return rev
