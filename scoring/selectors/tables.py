"""Tables, their seats, and what the next deal at a table starts from."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db import connection
from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext

from games import get_game
from scoring.domain import row_scope
from scoring.domain.errors import NotFound
from scoring.domain.records import nets_by_position
from scoring.models import Club, Round, Seat, Session, Table, Tournament
from scoring.selectors.common import table_order
from scoring.selectors.standings import counted_rounds_filter


def table_get(table_id: Any) -> Table:
    try:
        return Table.objects.select_related("session__tournament__club").get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise NotFound(gettext("No such table.")) from None


#: The table of a scorer link with its session, tournament and club, every column of each (what
#: ``select_related("session__tournament__club")`` reads), written once as SQL: every scorer
#: request starts with this look-up, and Django's compiler cost more than the statement.
_BY_TOKEN_MODELS = (Table, Session, Tournament, Club)
_BY_TOKEN_FIELDS = [[f.attname for f in m._meta.concrete_fields] for m in _BY_TOKEN_MODELS]
_BY_TOKEN_SQL = (
    "SELECT " + ", ".join(f'{alias}."{f.column}"' for alias, m in zip(("tb", "ss", "tn", "cl"), _BY_TOKEN_MODELS)
                         for f in m._meta.concrete_fields)
    + f' FROM "{Table._meta.db_table}" tb JOIN "{Session._meta.db_table}" ss ON ss."id" = tb."session_id"'
    f' JOIN "{Tournament._meta.db_table}" tn ON tn."id" = ss."tournament_id"'
    f' JOIN "{Club._meta.db_table}" cl ON cl."id" = tn."club_id" WHERE tb."scorer_token_hash" = %s')


def table_by_scorer_token(token: str | None) -> Table | None:
    """The table whose scorer link holds ``token`` (None if no table does: unknown or rotated),
    with its session, tournament and club attached; its club joins the current row scope."""
    if not token or not isinstance(token, str) or len(token) > 200:
        return None
    digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
    # The link is the credential: its table is found whatever the request's scope, which then
    # admits the table's club (row-level security, ``domain.row_scope``).
    with row_scope.within(row_scope.system()), connection.cursor() as cursor:
        cursor.execute(_BY_TOKEN_SQL, [digest])
        row = cursor.fetchone()
    if row is None:
        return None
    objects, at = [], 0
    for model, names in zip(_BY_TOKEN_MODELS, _BY_TOKEN_FIELDS):
        values = list(row[at:at + len(names)])
        for i, col, converters in _converters(model, names):   # as a query reads them (JSON, dates)
            for convert in converters:
                values[i] = convert(values[i], col, connection)
        objects.append(model.from_db(connection.alias, names, values))
        at += len(names)
    table, session, tournament, club = objects
    tournament.club, session.tournament, table.session = club, tournament, session
    row_scope.admit_club(club.pk)
    return table


_CONVERTERS: dict = {}


def _converters(model, names: list[str]) -> list:
    """The columns of ``model`` that the database's values go through converters for (JSON
    decoded; on SQLite dates, decimals and booleans read), as the ORM's compiler applies them."""
    key = (connection.vendor, model)
    if key not in _CONVERTERS:
        cols = [(i, model._meta.get_field(name).get_col(model._meta.db_table)) for i, name in enumerate(names)]
        _CONVERTERS[key] = [(i, col, c) for i, col in cols
                            if (c := [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)])]
    return _CONVERTERS[key]


def table_list(tournament: Tournament) -> QuerySet[Table]:
    return (Table.objects.filter(session__tournament=tournament).select_related("session")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("entry__player")))
            .order_by("session__number", *table_order()))


def table_seats(table: Table) -> list[Seat]:
    """The table's seats by position, with entry and player."""
    return list(Seat.objects.filter(table=table).select_related("entry__player").order_by("position"))


#: The table's last deal and its last deal not voided (where a leader or banker carries over
#: from): one statement on the write path, as SQL (Django's compiler cost more than the query).
_LAST_DEALS_SQL = (
    'SELECT * FROM (SELECT "number", "status", "leader", "next_leader", "banker", "next_banker" '
    f'FROM "{Round._meta.db_table}" WHERE "table_id" = %s ORDER BY "number" DESC LIMIT 1) AS last_deal '
    'UNION ALL '
    'SELECT * FROM (SELECT "number", "status", "leader", "next_leader", "banker", "next_banker" '
    f'FROM "{Round._meta.db_table}" WHERE "table_id" = %s AND "status" <> %s ORDER BY "number" DESC LIMIT 1) '
    'AS last_counted')


def round_defaults(table: Table) -> dict:
    """Defaults for the next deal at this table: ``leader`` (games with a leader: the last
    deal not voided's ``next_leader``, else 0), ``banker`` (games with a banker: its
    ``next_banker``, else 0), ``entered_by`` (None), the next round ``number`` and ``last``: the
    seat of each of those at the last deal not voided (None without one)."""
    info = get_game(table.session.tournament.game)
    with connection.cursor() as cursor:
        cursor.execute(_LAST_DEALS_SQL, [table.pk, table.pk, Round.Status.VOIDED.value])
        rows = cursor.fetchall()
    out: dict[str, Any] = {"entered_by": None, "number": rows[0][0] + 1 if rows else 1}
    # rows[0]: the last deal; the last one not voided is rows[0] again, or rows[1], or none.
    last = next((r for r in rows if r[1] != Round.Status.VOIDED), None)
    for key, applies, at in (("leader", info.has_leader, 2), ("banker", info.has_banker, 4)):
        if applies:
            nxt = last and last[at + 1]
            out[key] = nxt if nxt is not None else (last[at] if last and last[at] is not None else 0)
            out.setdefault("last", {})[key] = last[at] if last else None
    return out


def table_running_totals(table: Table, *, seats: list[Seat] | None = None) -> list[dict]:
    """Per seat position: ``position, entry, player, name, total, rounds`` — the sum of the
    nets of the table's counted deals."""
    tournament = table.session.tournament
    seats = seats if seats is not None else table_seats(table)
    n = len(seats)
    totals = [0] * n
    rounds = (Round.objects.filter(table=table).filter(counted_rounds_filter(tournament))
              .values_list("current_revision__body", "current_revision__result"))
    count = 0
    for body, result in rounds:
        for pos, net in enumerate(nets_by_position(game=tournament.game, body=body, result=result, n=n)):
            totals[pos] += net
        count += 1
    return [{"position": s.position, "entry": s.entry_id, "player": s.entry.player_id, "name": s.entry.player.name,
             "total": totals[s.position], "rounds": count} for s in seats]


def table_detail(table: Table) -> dict:
    """The API's table: ``id, tournament, session`` (its number), ``name, game, seats``
    (``table_running_totals``), ``next_round`` (``round_defaults``), ``scorer_token_created_at``."""
    return {"id": table.pk, "tournament": table.session.tournament_id, "session": table.session.number,
            "name": table.name, "game": table.session.tournament.game, "seats": table_running_totals(table),
            "next_round": round_defaults(table), "scorer_token_created_at": table.scorer_token_created_at}
