"""The club ratings' reads: the deals they count (in their one order, the deals' ids), each
deal's players and places for the rules (``scoring.domain.ratings``), the ladder and a player's
history."""

from __future__ import annotations

from django.db import connections
from django.db.models import Q

from games import get_game
from scoring.domain.ratings import Deal, Rating, ladder
from scoring.models import Club, Player, PlayerRating, RatingChange, Round, Seat, Tournament
from scoring.selectors.standings import seat_numbers


def rated_rounds(club: Club):
    """The deals the club's ratings count: ``counted_rounds_filter`` of each rated tournament
    (confirmed ones where confirmation is required, else all but voided), oldest id first."""
    confirmed = Q(table__session__tournament__require_confirmation=True, status=Round.Status.CONFIRMED)
    unvoided = Q(table__session__tournament__require_confirmation=False) & ~Q(status=Round.Status.VOIDED)
    return (Round.objects.filter(table__session__tournament__club=club, table__session__tournament__rated=True,
                                 current_revision__isnull=False)
            .filter(confirmed | unvoided).order_by("id"))


def rated_keys(club: Club) -> list[tuple[int, int]]:
    """(round id, revision id) of every deal the ratings count, in their order: one query."""
    return list(rated_rounds(club).values_list("id", "current_revision_id"))


def rating_deals(club: Club, *, from_round: int) -> list[Deal]:
    """The counted deals from round id ``from_round`` on, as the rules read them: each seat's
    player and place (``Game.place_seats``: by net where the game has no places). Reads only the
    whole numbers it needs, straight from the cursor (as the standings' recomputation does)."""
    rounds = rated_rounds(club).filter(id__gte=from_round)
    tournaments = {t.pk: get_game(t.game) for t in Tournament.objects.filter(club=club, rated=True)}
    if not tournaments:
        return []
    width = max(max(g.player_counts) for g in tournaments.values())
    players: dict[int, list[int]] = {}
    for table_id, player_id in (Seat.objects.filter(table__session__tournament__in=list(tournaments))
                                .order_by("table_id", "position").values_list("table_id", "entry__player_id")):
        players.setdefault(table_id, []).append(player_id)

    picked = seat_numbers(width)
    query = rounds.annotate(**picked).values_list("id", "table_id", "table__session__tournament_id", *picked)
    sql, params = query.query.sql_with_params()
    out = []
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        for row in cursor:
            seated = players.get(row[1], [])
            n = len(seated)
            game = tournaments[row[2]]
            places = row[4:4 + n]
            nets = row[4 + width:4 + width + n]
            placed = game.place_seats(places, nets)
            # the result's seats start at the deal's leader (connecting games); the table's at seat 0
            shift = (row[3] or 0) if game.has_leader else 0
            out.append(Deal(row[0], [seated[(i + shift) % n] for i in range(n)], [p.place for p in placed]))
    return out


def club_ladder(club: Club) -> list[dict]:
    """The club's ladder: rank, player, displayed rating, uncertainty, deals, provisional."""
    rows = PlayerRating.objects.filter(club=club).values_list("player_id", "player__name", "mu", "sigma", "deals")
    names = {}
    ratings = {}
    for player_id, name, mu, sigma, deals in rows:
        names[player_id] = name
        ratings[player_id] = Rating(mu, sigma, deals)
    return [{"rank": rank, "player": {"id": player, "name": names[player]}, "rating": r.display,
             "uncertainty": r.uncertainty, "deals": r.deals, "provisional": r.provisional}
            for rank, player, r in ladder(ratings)]


def player_history(player: Player) -> list[dict]:
    """Every rated deal of the player, newest first: the deal, the place, the rating before and
    after, and the opponents' ratings before (their changes' ``before`` in the same deal) — why
    it moved. Three queries."""
    changes = list(RatingChange.objects.filter(player=player).order_by("-round_id")
                   .select_related("round__table__session__tournament"))
    opponents: dict[int, list[dict]] = {}
    for round_id, player_id, name, mu, sigma, deals in (
            RatingChange.objects.filter(round_id__in=[c.round_id for c in changes]).exclude(player=player)
            .order_by("round_id", "player_id")
            .values_list("round_id", "player_id", "player__name", "mu_before", "sigma_before", "deals")):
        opponents.setdefault(round_id, []).append(
            {"id": player_id, "name": name, "rating": Rating(mu, sigma, deals - 1).display})
    out = []
    for c in changes:
        before = Rating(c.mu_before, c.sigma_before, c.deals - 1)
        after = Rating(c.mu_after, c.sigma_after, c.deals)
        rnd = c.round
        out.append({
            "deal": {"id": rnd.pk, "number": rnd.number, "table": rnd.table.name,
                     "session": rnd.table.session.number, "tournament": rnd.table.session.tournament_id,
                     "tournament_name": rnd.table.session.tournament.name},
            "place": c.place,
            "before": before.display, "after": after.display, "change": after.display - before.display,
            "uncertainty": after.uncertainty, "deals": c.deals,
            "opponents": opponents.get(c.round_id, []),
        })
    return out
