"""A player's statistics across the club's tournaments, from the stored results of their counted
deals (``scoring.domain.player_stats`` holds the counting).

Three queries whatever the number of deals: the player's entries (with their tournaments), their
seats (with each table's size and session), and the counted deals of those tables (only the
current revision's body and result); a few more where they were substituted in or out (each
deal counts where they played it).
"""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, Q, Subquery

from games import get_game
from scoring.domain.player_stats import DealRow, player_stats_from_rows
from scoring.models import Entry, Player, Round, Seat, Substitution, Table, Tournament
from scoring.models.tournaments import PUBLICLY_VISIBLE
from scoring.selectors.standings import counted_rounds_filter
from scoring.selectors.substitutions import seatings


def player_has_public_tournament(player: Player) -> bool:
    """Whether the player has an entry in a tournament anyone may see (what lets the public see
    their page)."""
    return Entry.objects.filter(player=player, tournament__in=_visible()).exists()


def _visible():
    return Tournament.objects.filter(PUBLICLY_VISIBLE).values("pk")


def player_stats(player: Player, *, public_only: bool) -> dict:
    """The player's figures per game and over all, and their tournaments (newest first) with
    each one's counted deals and net. ``public_only``: only tournaments anyone may see
    (``models.PUBLICLY_VISIBLE``), for the public and anonymous readers."""
    entries = Entry.objects.filter(player=player).select_related("tournament").order_by(
        "-tournament__created_at", "-tournament_id")
    if public_only:
        entries = entries.filter(tournament__in=_visible())
    entries = list(entries)
    tournaments = {e.tournament_id: e.tournament for e in entries}
    size = (Seat.objects.filter(table_id=OuterRef("table_id")).order_by().values("table_id")
            .annotate(c=Count("pk")).values("c"))
    seats = {}
    for table_id, position, tournament_id, session_id, number, n in (
            Seat.objects.filter(entry__in=[e.pk for e in entries])
            .annotate(n=Subquery(size, output_field=IntegerField()))
            .values_list("table_id", "position", "table__session__tournament_id", "table__session_id",
                         "table__session__number", "n")):
        seats[table_id] = (position, tournament_id, session_id, number, n)
    # Tables where the player was substituted in or out: each deal counts where they played it.
    mine = {e.pk for e in entries}
    moved = Substitution.objects.filter(Q(entry_in__in=mine) | Q(entry_out__in=mine))
    changed = seatings(table_id__in=moved.values("table_id")) if moved.exists() else {}
    for table_id, tournament_id, session_id, number in (
            Table.objects.filter(pk__in=[t for t in changed if t not in seats])
            .values_list("pk", "session__tournament_id", "session_id", "session__number")):
        seats[table_id] = (None, tournament_id, session_id, number, len(changed[table_id].current))
    rows = []
    if seats:
        deals = (Round.objects.filter(table_id__in=list(seats)).filter(counted_rounds_filter())
                 .order_by("table__session__tournament_id", "table__session__number", "table_id", "number")
                 .values_list("table_id", "number", "current_revision__body", "current_revision__result"))
        for table_id, deal, body, result in deals:
            position, tournament_id, session_id, number, n = seats[table_id]
            if table_id in changed:
                position = next((p for p, e in enumerate(changed[table_id].at(deal)) if e in mine), None)
                if position is None:
                    continue  # someone else sat in their seat for this deal
            rows.append(DealRow(game=tournaments[tournament_id].game, tournament=tournament_id, session=session_id,
                                session_number=number, position=position, n=n,
                                leader=(body or {}).get("leader"), result=result or {}))
    stats = player_stats_from_rows(rows)

    def figures(f) -> dict:
        out = f.as_dict()
        best = out["best_session"]
        if best is not None:
            t = tournaments[best["tournament"]]
            out["best_session"] = {"tournament": t.pk, "tournament_name": t.name, "slug": t.slug,
                                   "session": best["number"], "net": best["net"], "deals": best["deals"]}
        return out

    return {
        "player": {"id": player.pk, "name": player.name},
        "public_only": public_only,
        "overall": figures(stats.overall),
        "games": [{"game": key, "game_name": get_game(key).name, **figures(f)} for key, f in stats.games.items()],
        "tournaments": [
            {"id": t.pk, "name": t.name, "slug": t.slug, "game": t.game, "status": t.status,
             "publicly_visible": t.publicly_visible, "started_at": t.started_at,
             "deals": stats.tournaments.get(t.pk, (0, 0))[0], "net": stats.tournaments.get(t.pk, (0, 0))[1]}
            for t in tournaments.values()],
    }
