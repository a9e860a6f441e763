"""The club ratings' reads: the deals they count, the results made of them (each deal, or a
table's session where the game rates sessions: ``Game.rating_unit``) in their one order (the
results' keys), each result's players and places for the rules (``scoring.domain.ratings``), the
ladder and a player's history."""

from __future__ import annotations

from django.db import connections
from django.db.models import Count, Q

from games import GAMES, get_game
from games.places import EACH_DEAL, TABLE_SESSION
from games.seating import Seating
from scoring.domain.ratings import Deal, Rating, ladder, session_result
from scoring.models import (
    Club,
    Entry,
    Player,
    PlayerRating,
    RatedDeal,
    RatingChange,
    Round,
    Seat,
    Substitution,
    Tournament,
)
from scoring.selectors.standings import counted_rounds_filter, seat_numbers
from scoring.selectors.substitutions import seatings

#: A counted (or taken) deal as the follow compares them: (round id, revision id, session) where
#: session is the deal's table id if its game rates table sessions, else None.
Key = tuple[int, int, "int | None"]


def substituted_tables(tournaments: list[int]) -> tuple[dict[int, Seating], dict[int, int]]:
    """The tables of ``tournaments`` where players were substituted (table id → ``Seating``)
    and the player of each entry that sat at them; nothing (one query) when there were none."""
    ids = list(Substitution.objects.filter(table__session__tournament__in=tournaments).values_list("table_id",
                                                                                                  flat=True))
    if not ids:
        return {}, {}
    changed = seatings(table_id__in=ids)
    entries = {e for seating in changed.values() for e in seating.entries()}
    return changed, dict(Entry.objects.filter(pk__in=entries).values_list("pk", "player_id"))


def rated_rounds(club: Club):
    """The deals the club's ratings count: the counted deals (``counted_rounds_filter``) of each rated
    tournament whose game the club does not leave out (``Club.unrated_games``), oldest id first."""
    rounds = (Round.objects.filter(table__session__tournament__club=club, table__session__tournament__rated=True)
              .filter(counted_rounds_filter()).order_by("id"))
    if club.unrated_games:
        rounds = rounds.exclude(table__session__tournament__game__in=list(club.unrated_games))
    return rounds


def _units() -> dict[str, bool]:
    """Game key → whether the game rates table sessions (``Game.rating_unit``)."""
    return {key: get_game(key).rating_unit == TABLE_SESSION for key in GAMES}


def rated_keys(club: Club) -> list[Key]:
    """Every deal the ratings count, in id order, as ``Key``: one query."""
    by_session = _units()
    return [(r, rev, table if by_session[game] else None) for r, rev, table, game in
            rated_rounds(club).values_list("id", "current_revision_id", "table_id", "table__session__tournament__game")]


def taken_keys(club: Club, counted: list[Key]) -> list[Key]:
    """Every deal the ratings have taken in (``RatedDeal``), in id order, as ``Key``: one query
    (more when some no longer count: their sessions are read — a deal's table never changes, so
    the others' are ``counted``'s)."""
    taken = list(RatedDeal.objects.filter(club=club).order_by("round_id").values_list("round_id", "revision_id"))
    session = {r: s for r, _, s in counted if s is not None}
    gone = {r for r, _ in taken}.difference(r for r, _, _ in counted)
    if gone:
        by_session = _units()
        gone_ids = sorted(gone)
        for i in range(0, len(gone_ids), 5000):   # a tournament left out: many
            for r, table, game in (Round.objects.filter(id__in=gone_ids[i:i + 5000])
                                   .values_list("id", "table_id", "table__session__tournament__game")):
                if by_session[game]:
                    session[r] = table
    return [(r, rev, session.get(r)) for r, rev in taken]


def rating_deals(club: Club, *, from_round: int, counted: list[Key] | None = None,
                 only: tuple[list[int], list[int]] | None = None) -> list[Deal]:
    """The rated results whose key is ``from_round`` or later, in key order, made only of the
    deals of ``counted`` (``rated_keys``; read now if None): each deal of a game rated deal by
    deal (its seats placed by ``Game.place_seats``: by net where the game has no places), and
    each table session of a game rated by session (its players ranked by their net summed over
    the session's counted deals, earlier ones included). ``only`` (deal ids, session tables):
    just those deals and sessions, the follow's re-reading (the others it has). Reads only the
    whole numbers it needs, straight from the cursor (as the standings' recomputation does).
    Three queries."""
    if counted is None:
        counted = rated_keys(club)
    member = {r for r, _, _ in counted}
    if only is not None:
        deal_ids, tables = only
        if not deal_ids and not tables:
            return []
        where = Q(id__in=deal_ids) | Q(table_id__in=tables)
    else:
        first: dict[int, int] = {}
        latest: dict[int, int] = {}
        for r, _, session in counted:
            if session is not None:
                first.setdefault(session, r)
                latest[session] = r
        # sessions whose result is at from_round or later but whose deals began before it
        early = [t for t, key in latest.items() if key >= from_round and first[t] < from_round]
        where = Q(id__gte=from_round) | Q(table_id__in=early) if early else Q(id__gte=from_round)
    tournaments = {t.pk: get_game(t.game) for t in Tournament.objects.filter(club=club, rated=True)}
    if not tournaments:
        return []
    rounds = rated_rounds(club).filter(where)
    width = max(max(g.player_counts) for g in tournaments.values())
    players: dict[int, list[int]] = {}
    for table_id, player_id in (Seat.objects.filter(table__session__tournament__in=list(tournaments))
                                .order_by("table_id", "position").values_list("table_id", "entry__player_id")):
        players.setdefault(table_id, []).append(player_id)
    # Tables where players were substituted: each deal's players are those who played it.
    changed, player_of = substituted_tables(list(tournaments))

    picked = seat_numbers(width)
    query = rounds.annotate(**picked).values_list("id", "table_id", "table__session__tournament_id", *picked,
                                                  "number")
    sql, params = query.query.sql_with_params()
    out = []
    sessions: dict[int, tuple[dict[int, int], list[int]]] = {}   # table → (player → net, [deal ids])
    with connections[query.db].cursor() as cursor:
        cursor.execute(sql, params)
        for row in cursor:
            if row[0] not in member:
                continue   # written since ``counted`` was read: the next follow takes it in
            seating = changed.get(row[1])
            seated = players.get(row[1], []) if seating is None else [player_of[e] for e in seating.at(row[-1])]
            n = len(seated)
            game = tournaments[row[2]]
            nets = row[4 + width:4 + width + n]
            if game.rating_unit == TABLE_SESSION:
                totals, ids = sessions.setdefault(row[1], ({}, []))
                for player, net in zip(seated, nets):
                    totals[player] = totals.get(player, 0) + int(net or 0)
                ids.append(row[0])
                continue
            placed = game.place_seats(row[4:4 + n], nets)
            # the result's seats start at the deal's leader (connecting games); the table's at seat 0
            shift = (row[3] or 0) if game.has_leader else 0
            out.append(Deal(row[0], [seated[(i + shift) % n] for i in range(n)], [p.place for p in placed],
                            EACH_DEAL))
    for table_id, (totals, ids) in sessions.items():
        # everyone who played at the table, by seat, those substituted out first
        seated = [*(p for p in totals if p not in players.get(table_id, [])), *players.get(table_id, [])]
        out.append(session_result(max(ids), seated, totals, len(ids)))
    out.sort(key=lambda d: d.key)
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
    """Every rated result of the player, newest first: the deal that keys it, what it is
    (``unit``: ``"deal"`` or ``"table_session"``, and ``unit_deals``: the counted deals it stands
    for, 1 for a deal), the place, the rating before and after, and the opponents' ratings before
    (their changes' ``before`` in the same result) — why it moved. Three queries; four when a
    table session is among them."""
    changes = list(RatingChange.objects.filter(player=player).order_by("-round_id")
                   .select_related("round__table__session__tournament"))
    opponents: dict[int, list[dict]] = {}
    for round_id, player_id, name, mu, sigma, deals in (
            RatingChange.objects.filter(round_id__in=[c.round_id for c in changes]).exclude(player=player)
            .order_by("round_id", "player_id")
            .values_list("round_id", "player_id", "player__name", "mu_before", "sigma_before", "deals")):
        opponents.setdefault(round_id, []).append(
            {"id": player_id, "name": name, "rating": Rating(mu, sigma, deals - 1).display})
    units = {c.round_id: get_game(c.round.table.session.tournament.game).rating_unit for c in changes}
    sessions = [c.round.table_id for c in changes if units[c.round_id] == TABLE_SESSION]
    session_deals = dict(RatedDeal.objects.filter(club_id=player.club_id, round__table_id__in=sessions)
                         .values("round__table_id").annotate(n=Count("id")).values_list("round__table_id", "n")
                         ) if sessions else {}
    out = []
    for c in changes:
        before = Rating(c.mu_before, c.sigma_before, c.deals - 1)
        after = Rating(c.mu_after, c.sigma_after, c.deals)
        rnd = c.round
        unit = units[c.round_id]
        out.append({
            "deal": {"id": rnd.pk, "number": rnd.number, "table": rnd.table.name,
                     "session": rnd.table.session.number, "tournament": rnd.table.session.tournament_id,
                     "tournament_name": rnd.table.session.tournament.name},
            "unit": unit,
            "unit_deals": session_deals.get(rnd.table_id, 1) if unit == TABLE_SESSION else 1,
            "place": c.place,
            "before": before.display, "after": after.display, "change": after.display - before.display,
            "uncertainty": after.uncertainty, "deals": c.deals,
            "opponents": opponents.get(c.round_id, []),
        })
    return out
