"""What the public pages read: a public tournament by its slug, a player's deals, a table's
deals, and the cheap "version" the live pages poll.

Only public tournaments that have started are shown; anything else (private, draft, unknown
slug, another tournament's player or table) is NotFound, the same answer for each, so that a
visitor cannot tell a private tournament from none. Nothing private is handed out: no scorer
token or its date, no actor, no dispute message, no void reason.
"""

from __future__ import annotations

from django.utils.translation import gettext
import hashlib
from typing import Any

from django.db.models import Case, Count, Max, OuterRef, Q, Subquery, Value, When
from django.utils import timezone

from games import get_game
from scoring.domain.errors import NotFound
from scoring.domain.inputs import MAX_ID, parse_whole_number
from scoring.models import PUBLICLY_VISIBLE, Entry, Round, Seat, Session, Table, Tournament
from scoring.domain.records import nets_by_position
from scoring.domain.replay import line_steps, seat_tiles
from scoring.selectors.rounds import round_detail, round_list
from scoring.selectors.standings import counted_rounds_filter
from scoring.selectors.tables import table_seats


def public_tournament(slug: Any) -> Tournament:
    """A tournament anyone may see (``PUBLICLY_VISIBLE``: public, running or finished; its slug
    is unique among those); NotFound for anything else."""
    try:
        return Tournament.objects.select_related("club").filter(PUBLICLY_VISIBLE).get(slug=str(slug))
    except Tournament.DoesNotExist:
        raise NotFound(gettext("No such tournament.")) from None


def _row_id(value: Any) -> int:
    """A row id as given (an int from the URL, or its text); 0, which no row has, for anything
    else, among them ids larger than the database holds (SQLite refuses to compare with them)."""
    return parse_whole_number(str(value), low=1, high=MAX_ID) or 0


def public_entry(tournament: Tournament, player_id: Any) -> Entry:
    """The tournament's entry of this player (by player id); NotFound otherwise."""
    try:
        return Entry.objects.select_related("player").get(tournament=tournament, player_id=_row_id(player_id))
    except Entry.DoesNotExist:
        raise NotFound(gettext("No such player in this tournament.")) from None


def public_table(tournament: Tournament, table_id: Any) -> Table:
    """A table of this tournament; NotFound otherwise."""
    try:
        return Table.objects.select_related("session").get(pk=_row_id(table_id), session__tournament=tournament)
    except Table.DoesNotExist:
        raise NotFound(gettext("No such table in this tournament.")) from None


def public_tables(tournament: Tournament) -> list[Table]:
    """The tournament's tables, by session then as made, with their session (one query)."""
    return list(Table.objects.filter(session__tournament=tournament).select_related("session")
                .order_by("session__number", "id"))


def _fingerprint(row) -> str:
    raw = "|".join(v.isoformat() if hasattr(v, "isoformat") else str(v) for v in row)
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


def _deals_version(rounds):
    """How many deals there are and the latest change to any of them (every deal write saves
    its Round, which stamps ``updated_at``): two subqueries over ``rounds`` (grouped by the
    outer row)."""
    return {"n": Subquery(rounds.annotate(c=Count("id")).values("c")),
            "latest": Subquery(rounds.annotate(m=Max("updated_at")).values("m"))}


def tournament_version(tournament: Tournament) -> str:
    """Changes whenever a deal of the tournament is recorded, corrected, confirmed, voided or
    disputed, a session of it changes (closed, reopened, its clock started or stopped:
    ``changed_at``) or its clock runs out, or the tournament changes status (one query)."""
    rounds = (Round.objects.filter(table__session__tournament=OuterRef("pk")).order_by()
              .values("table__session__tournament"))
    sessions = Session.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    row = (Tournament.objects.filter(pk=tournament.pk)
           .annotate(**_deals_version(rounds),
                     changed=Subquery(sessions.annotate(m=Max("changed_at")).values("m")),
                     ended=Subquery(sessions.annotate(c=Count("id", filter=Q(clock_ends_at__lte=timezone.now())))
                                    .values("c")))
           .values_list("n", "latest", "changed", "ended").first())
    return _fingerprint(row or ()) + tournament.status


def table_version(table: Table) -> str:
    """Changes whenever a deal of the table changes, or its session does (as above) (one query)."""
    rounds = Round.objects.filter(table=OuterRef("pk")).order_by().values("table")
    row = (Table.objects.filter(pk=table.pk)
           .annotate(**_deals_version(rounds),
                     ended=Case(When(session__clock_ends_at__lte=timezone.now(), then=Value(1)), default=Value(0)))
           .values_list("n", "latest", "session__changed_at", "ended").first())
    return _fingerprint(row or ())


def player_deals(tournament: Tournament, entry: Entry) -> dict:
    """Every counted deal the entry played, in the order they were recorded: ``deals`` (each
    ``table, table_name, session, number, created_at, net, total`` — ``total`` the running net
    after it) and ``total``. Three queries, whatever the deals."""
    seats = list(Seat.objects.filter(table__session__tournament=tournament, table__seats__entry=entry)
                 .select_related("table__session").order_by("table_id", "position"))
    by_table: dict[int, list[Seat]] = {}
    for s in seats:
        by_table.setdefault(s.table_id, []).append(s)
    position = {table_id: next(s.position for s in row if s.entry_id == entry.pk) for table_id, row in by_table.items()}
    rounds = (Round.objects.filter(table_id__in=list(by_table)).filter(counted_rounds_filter(tournament))
              .order_by("created_at", "id")
              .values_list("table_id", "number", "created_at", "current_revision__body", "current_revision__result"))
    deals, total = [], 0
    for table_id, number, created_at, body, result in rounds:
        row = by_table[table_id]
        net = nets_by_position(game=tournament.game, body=body, result=result, n=len(row))[position[table_id]]
        total += net
        table = row[0].table
        deals.append({"table": table_id, "table_name": table.name, "session": table.session.number,
                      "number": number, "created_at": created_at, "net": net, "total": total})
    return {"deals": deals, "total": total}


def public_table_deals(tournament: Tournament, table: Table) -> dict:
    """The table's deals for everyone: ``seats`` (position, player, name, total over the
    counted deals) and ``deals`` (newest first; voided ones left out), each ``number,
    counted, created_at, players`` (by table position: name, net, …), ``outcome``, ``tiles``
    (``replay.seat_tiles``) and ``replay`` (``replay.line_steps``, a full log only). Two
    queries, whatever the deals."""
    seats = table_seats(table)
    n = len(seats)
    info = get_game(tournament.game)
    fields = tuple(dict.fromkeys((*info.per_seat_fields, "left_in_hand")))
    totals = [0] * n
    deals = []
    for rnd in round_list(table, newest_first=True).exclude(status=Round.Status.VOIDED):
        d = round_detail(rnd, seats=seats, tournament=tournament)
        if d["counted"]:
            for p in d["players"]:
                totals[p["position"]] += p.get("net", 0)
        deals.append({"id": d["id"], "number": d["number"], "counted": d["counted"], "created_at": d["created_at"],
                      "late": d["late"],
                      "players": d["players"], "outcome": d["outcome"],
                      # The body holds the tiles by table position; the record the moves in playing order.
                      "tiles": seat_tiles(rnd.current_revision.body, fields, n),
                      "replay": line_steps(rnd.current_revision.record)})
    return {"seats": [{"position": s.position, "player": s.entry.player_id, "name": s.entry.player.name,
                       "total": totals[s.position]} for s in seats],
            "deals": deals}
