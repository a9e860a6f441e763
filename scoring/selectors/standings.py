"""The standings read: the kept rows, ranked by the tournament's tie-breaks
(``scoring.domain.standings`` holds the rules), and their from-scratch recomputation.

Reading the standings costs a fixed number of queries, whatever the number of deals: the
figures are kept exact in every deal write (``services.standings``), so a reader gets the
kept rows, never a recomputation. Only head-to-head, when a tie is still left at that key,
reads deals (see ``head_to_head``).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import connections
from django.db.models import IntegerField, Max, Q
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.db.models.functions import Cast

from games import get_game
from games.seating import Seating
from games.standings import figures_row, head_to_head_nets, tallied, tally_deal, transfers_by_position, with_adjustments
from scoring.domain.standings import DEFAULT_TIE_BREAKS, Figures, counted_statuses, rank_rows
from scoring.models import Entry, Round, Seat, Standing, Substitution, Tournament
from scoring.selectors.adjustments import adjustment_totals
from scoring.selectors.substitutions import seatings


def counted_rounds_filter(tournament: Tournament | None = None) -> Q:
    """``scoring.domain.standings.counted_statuses`` as a query filter: the counted deals of
    ``tournament``, or, without one, of deals of many tournaments at once (each tournament says
    whether its deals count only once confirmed). The one query form of the rule."""
    has_content = Q(current_revision__isnull=False)
    if tournament is not None:
        return has_content & Q(status__in=counted_statuses(tournament.require_confirmation))
    return has_content & (
        Q(table__session__tournament__require_confirmation=True, status__in=counted_statuses(True))
        | Q(table__session__tournament__require_confirmation=False, status__in=counted_statuses(False)))


def seat_numbers(width: int) -> dict[str, Cast]:
    """The annotations that read, as whole numbers, a deal's leader (``body_leader``) and each of
    its first ``width`` seats' ``place_i`` and ``net_i`` from its current revision — all that
    ``Game.place_seats`` needs, so that reading 100,000 deals decodes no whole results."""
    def whole(expression):
        return Cast(expression, IntegerField())

    picked = {"body_leader": whole(KeyTextTransform("leader", "current_revision__body"))}
    for field in ("place", "net"):
        for i in range(width):
            seat = KeyTransform(str(i), KeyTransform("seats", "current_revision__result"))
            picked[f"{field}_{i}"] = whole(KeyTextTransform(field, seat))
    return picked


def _figures(tournament: Tournament, rounds: Any, seated: dict[int, Seating]) -> dict[int, Figures]:
    """Figures per entry id over ``rounds`` (a Round queryset, already the counted ones) at
    tables seated as ``seated`` (``selectors.substitutions.seatings``). Three queries, whatever
    the deals (a fourth where players were substituted).

    At 100,000 deals reading is the cost, so the database hands over only what counts, as
    whole numbers: each deal's leader and each seat's ``place`` and ``net`` (all that
    ``Game.place_seats`` reads) rather than whole results to decode, straight from the cursor;
    and the last deal time as one maximum per table. A table where players were substituted
    credits each deal to the players of that deal (``Seating.at``)."""
    seats_by_table = {t: list(s.current) for t, s in seated.items()}
    changed = {t: s for t, s in seated.items() if s.changes}
    info = get_game(tournament.game)
    width = max(info.player_counts)

    picked = seat_numbers(width)
    query = rounds.order_by().annotate(**picked).values_list("table_id", *picked, "number")
    sql, params = query.query.sql_with_params()
    acc: dict[int, list] = {}
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        for row in cursor:
            seating = changed.get(row[0])
            entries = seats_by_table.get(row[0], []) if seating is None else seating.at(row[-1])
            tally_deal(acc, info=info, entries=entries, leader=row[1], places=row[2:2 + width],
                       nets=row[2 + width:2 + 2 * width])
    last: dict[int, datetime] = {}

    def later(entry_id: int, at: datetime) -> None:
        if entry_id not in last or at > last[entry_id]:
            last[entry_id] = at

    for table_id, latest in (rounds.exclude(table_id__in=list(changed)).order_by().values("table_id")
                             .annotate(latest=Max("created_at")).values_list("table_id", "latest")):
        for entry_id in seats_by_table.get(table_id, []):
            later(entry_id, latest)
    if changed:
        for table_id, number, at in rounds.filter(table_id__in=list(changed)).values_list("table_id", "number",
                                                                                       "created_at"):
            for entry_id in changed[table_id].at(number):
                later(entry_id, at)
    return tallied(acc, last)


def tournament_figures(tournament: Tournament) -> dict[int, Figures]:
    """entry id → its figures over every counted deal of the tournament, its net plus its
    adjustments in force (``selectors.adjustments``), from scratch (what the kept standings must
    equal). An adjustment moves the net only: it is no deal played, won or placed."""
    rounds = Round.objects.filter(table__session__tournament=tournament).filter(counted_rounds_filter(tournament))
    figures = _figures(tournament, rounds, seatings(table__session__tournament=tournament))
    return with_adjustments(figures, adjustment_totals(tournament).items())


def session_figures(tournament: Tournament, session_number: int) -> dict[int, Figures]:
    """entry id → its figures over the counted deals of one session, from scratch. Entries
    seated in the session are all there (with no deal yet: zero). Adjustments belong to no
    session: they count in the whole tournament's figures only."""
    rounds = (Round.objects.filter(table__session__tournament=tournament, table__session__number=session_number)
              .filter(counted_rounds_filter(tournament)))
    seated = seatings(table__session__tournament=tournament, table__session__number=session_number)
    out = _figures(tournament, rounds, seated)
    for seating in seated.values():
        for entry_id in seating.entries():
            out.setdefault(entry_id, Figures.none())
    return out


def last_deals(tournament: Tournament, entries: list[int]) -> dict[int, datetime | None]:
    """entry id → when it last played a counted deal (None: never), for a few ``entries``,
    each deal credited to the players who played it: the deals of the tables where they sat."""
    tables = {*Seat.objects.filter(entry_id__in=entries).values_list("table_id", flat=True),
              *Substitution.objects.filter(Q(entry_in_id__in=entries) | Q(entry_out_id__in=entries))
              .values_list("table_id", flat=True)}
    seated = seatings(table_id__in=sorted(tables))
    out: dict[int, datetime | None] = dict.fromkeys(entries)
    wanted = set(entries)
    for table_id, number, at in (Round.objects.filter(table_id__in=sorted(tables)).filter(counted_rounds_filter(tournament))
                                 .order_by("-created_at").values_list("table_id", "number", "created_at")):
        for entry_id in wanted.intersection(seated[table_id].at(number)):
            out[entry_id] = at
            wanted.discard(entry_id)
        if not wanted:
            break
    return out


def tournament_totals(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """entry id → (net, deals counted) over every counted deal of the tournament (the net with
    its adjustments, as ``tournament_figures``)."""
    return {e: (f.net, f.deals) for e, f in tournament_figures(tournament).items()}


def place_count(tournament: Tournament) -> int:
    """How many places the tournament's deals can give: the most seats its game has."""
    return max(get_game(tournament.game).player_counts)


#: What a row is read from: the kept figures, as plain values (no model objects: a read of many
#: entries is mostly their making).
_KEPT = ("total", "rounds_counted", "wins", *Standing.PLACES, "last_deal_at", "updated_at")


def _row(entry_id: int, player_id: int, name: str, kept: dict | None, tournament: Tournament, width: int,
         withdrawn: bool = False) -> dict:
    """One entry's row (not yet ranked); ``kept``: its Standing's ``_KEPT`` values, None when it
    has no row yet (it counts zero). ``withdrawn``: the player has left (their row stays)."""
    if kept is None or kept["total"] is None:
        f, updated_at = Figures.none(), None
    else:
        f = Figures(kept["total"], kept["rounds_counted"], kept["wins"], tuple(kept[p] for p in Standing.PLACES),
                    kept["last_deal_at"])
        updated_at = kept["updated_at"]
    return {"entry": entry_id, "player": player_id, "name": name, "withdrawn": withdrawn, **figures_row(f, width),
            "money": Decimal(f.net) * tournament.chip_value, "updated_at": updated_at}


def head_to_head(tournament: Tournament, groups: list[list[int]]) -> dict[int, int]:
    """For each entry of each group (entry ids still tied), the net it won from the other
    members of its group: what they paid it minus what it paid them, by the engine's
    ``transfers``, over the counted deals where they sat at one table. Zero-sum in each group;
    payments to or from anyone else (and the house) do not count.

    Cost: three queries whatever the groups — the seats and the substitutions of the tables
    where a tied entry sat, then the counted deals (their leader and transfers only) of the tables where two entries of
    one group sat together — and a pass over those deals. So it reads the deals of the tied
    entries' shared tables only, and nothing when they never met."""
    group_of = {e: i for i, g in enumerate(groups) for e in g}
    members = list(group_of)
    member_tables = Seat.objects.filter(entry_id__in=members).values("table_id")
    # a table a tied entry was substituted out of counts too
    moved = Substitution.objects.filter(Q(entry_in_id__in=members) | Q(entry_out_id__in=members)).values("table_id")
    tables = seatings(Q(table_id__in=member_tables) | Q(table_id__in=moved))
    shared = []
    for table_id, seating in tables.items():
        met = [group_of[e] for e in seating.entries() if e in group_of]
        if len(met) != len(set(met)):
            shared.append(table_id)
    if not shared:
        return head_to_head_nets(groups, [])
    deals = (Round.objects.filter(table_id__in=shared).filter(counted_rounds_filter(tournament))
             .values_list("table_id", "number", "current_revision__body__leader",
                          "current_revision__result__transfers"))

    def seated(table_id: int, number: int, leader: Any, transfers: list) -> tuple[dict[int, int], list]:
        entries = tables[table_id].at(number)
        return dict(enumerate(entries)), transfers_by_position(game=tournament.game, leader=leader,
                                                               transfers=transfers, n=len(entries))
    return head_to_head_nets(groups, (seated(*deal) for deal in deals))


def standings_for(tournament: Tournament, *, entries: list[Entry] | None = None) -> list[dict]:
    """The ranked rows: ``rank, tied, entry, player, name, withdrawn, deals, net, wins, average_place,
    places`` (``{"1": n, …}``, one key per place the game can give), ``last_deal_at``,
    ``money`` (net × chip value, exact) and ``updated_at``; ``head_to_head`` too when that key
    was reached. Ordered by the tournament's ``tie_breaks``; rows still tied share a rank.

    One query (entries with their players and kept rows) or, given ``entries`` (the
    tournament's, with their players), one for the kept rows; plus ``head_to_head``'s two when
    a tie is left at that key."""
    width = place_count(tournament)
    if entries is None:
        read = Entry.objects.filter(tournament=tournament).values("pk", "player_id", "player__name", "withdrawn_at",
                                                                  *[f"standing__{f}" for f in _KEPT])
        rows = [_row(e["pk"], e["player_id"], e["player__name"], {f: e[f"standing__{f}"] for f in _KEPT},
                     tournament, width, e["withdrawn_at"] is not None) for e in read]
    else:
        kept = {k["entry_id"]: k for k in Standing.objects.filter(tournament=tournament).values("entry_id", *_KEPT)}
        rows = [_row(e.pk, e.player_id, e.player.name, kept.get(e.pk), tournament, width, e.withdrawn_at is not None)
                for e in entries]
    rank_rows(rows, tournament.tie_breaks or DEFAULT_TIE_BREAKS,
              head_to_head=lambda groups: head_to_head(tournament, groups))
    for r in rows:
        del r["_average_place"]
    return rows


def standings_table(tournament: Tournament) -> dict:
    """The standings as the API answers them: ``computed_at`` (the latest change applied to
    any row), ``stale``, ``tie_breaks``, ``chip_value``, ``currency`` and ``rows``
    (``standings_for``).

    ``stale`` is always false, and says so on purpose: the rows are changed in the very
    transaction that changes a deal, so whatever committed state a reader sees, its standings
    equal a recomputation of that state from scratch; no reader can see them behind."""
    rows = standings_for(tournament)
    stamps = [r["updated_at"] for r in rows if r["updated_at"] is not None]
    return {"computed_at": max(stamps) if stamps else None, "stale": False,
            "tie_breaks": list(tournament.tie_breaks or DEFAULT_TIE_BREAKS), "chip_value": tournament.chip_value,
            "currency": tournament.currency, "rows": rows}
