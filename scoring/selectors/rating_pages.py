"""The ratings as the pages show them: the ladder with each player's move since the club's
latest rated tournament began, a player's rating path (the chart) and rated results, and a
tournament's rating changes (the report). Reads only the stored changes (``RatingChange``),
never the rules: the numbers are the ones ``selectors.ratings`` shows."""

from __future__ import annotations

from django.db.models import Min, OuterRef, Subquery

from scoring.domain.ratings import Rating, displayed, ladder
from scoring.models import PUBLICLY_VISIBLE, Club, Player, PlayerRating, RatingChange, Tournament
from scoring.selectors.ratings import club_ladder, player_history


def _latest_rated_tournament(club: Club) -> tuple[Tournament | None, int | None]:
    """The tournament of the club's newest rated result and the round id of its first rated
    result: where "since the last tournament" starts. Two queries (none rated: one)."""
    newest = (RatingChange.objects.filter(club=club).order_by("-round_id")
              .values_list("round__table__session__tournament_id", flat=True).first())
    if newest is None:
        return None, None
    first = (RatingChange.objects.filter(club=club, round__table__session__tournament_id=newest)
             .aggregate(first=Min("round_id"))["first"])
    return Tournament.objects.filter(pk=newest).only("id", "name", "slug").first(), first


def ratings_before(club: Club, round_id: int) -> dict[int, Rating]:
    """Each player's rating just before round ``round_id``: their last change before it (players
    without one had no rating yet). One query: per rated player of the club (``PlayerRating``),
    their last change found through the (player, round) index — not a scan of the club's changes."""
    last = RatingChange.objects.filter(player_id=OuterRef("player_id"), round_id__lt=round_id).order_by("-round_id")
    rows = (PlayerRating.objects.filter(club=club)
            .annotate(mu_was=Subquery(last.values("mu_after")[:1]), sigma_was=Subquery(last.values("sigma_after")[:1]),
                      deals_was=Subquery(last.values("deals")[:1]))
            .filter(deals_was__isnull=False).values_list("player_id", "mu_was", "sigma_was", "deals_was"))
    return {p: Rating(mu, sigma, deals) for p, mu, sigma, deals in rows}


def ladder_with_moves(club: Club) -> dict:
    """``club_ladder``'s rows, each with ``rank_change`` (places gained since the ladder before the
    club's latest rated tournament: +1 up one, -1 down one, 0 same; None for a player who was not
    on it) and ``new`` (not on it); ``since``: that tournament (None: nothing rated). Five
    queries whatever the players."""
    rows = club_ladder(club)
    since, first = _latest_rated_tournament(club)
    earlier = {}
    if first is not None:
        earlier = {player: rank for rank, player, _ in ladder(ratings_before(club, first))}
    for row in rows:
        was = earlier.get(row["player"]["id"])
        row["new"] = was is None
        row["rank_change"] = None if was is None else was - row["rank"]
    return {"rows": rows, "since": since}


def rating_path(player: Player) -> list[dict]:
    """The player's rating after each rated result, oldest first: ``rating`` and ``uncertainty``
    (as the ladder shows them) and the result's ``tournament``. One query."""
    rows = (RatingChange.objects.filter(player=player).order_by("round_id")
            .values_list("mu_after", "sigma_after", "deals", "round__table__session__tournament_id"))
    out = []
    for mu, sigma, deals, tournament in rows:
        r = Rating(mu, sigma, deals)
        out.append({"rating": displayed(mu, sigma), "uncertainty": r.uncertainty, "tournament": tournament})
    return out


def public_tournaments(ids) -> dict[int, str]:
    """Of the tournaments ``ids``, those anyone may see (``PUBLICLY_VISIBLE``): id → slug. One
    query."""
    return dict(Tournament.objects.filter(PUBLICLY_VISIBLE, pk__in=set(ids)).values_list("pk", "slug"))


def visible_history(player: Player, *, public_only: bool) -> list[dict]:
    """``player_history`` (newest first), only its rows of public tournaments if ``public_only``
    (each then with its tournament's ``slug`` under ``deal``): a private tournament's results
    stay its club's directors'. Four queries."""
    rows = player_history(player)
    if not public_only:
        return rows
    shown = public_tournaments(r["deal"]["tournament"] for r in rows)
    out = [r for r in rows if r["deal"]["tournament"] in shown]
    for r in out:
        r["deal"]["slug"] = shown[r["deal"]["tournament"]]
    return out


def tournament_rating_changes(tournament: Tournament) -> list[dict]:
    """Per player of the tournament's rated results: ``player`` (id, name), the rating ``before``
    its first, ``after`` its last, the ``change`` and the ``results`` rated; biggest gain
    first. Empty when the tournament is not rated. One query (the tournament's changes)."""
    if not tournament.rated:
        return []
    rows = (RatingChange.objects.filter(round__table__session__tournament=tournament).order_by("round_id")
            .values_list("player_id", "player__name", "mu_before", "sigma_before", "mu_after", "sigma_after"))
    out: dict[int, dict] = {}
    for player, name, mu0, s0, mu1, s1 in rows:
        if player not in out:
            out[player] = {"player": {"id": player, "name": name}, "before": displayed(mu0, s0), "results": 0}
        out[player]["after"] = displayed(mu1, s1)
        out[player]["results"] += 1
    for r in out.values():
        r["change"] = r["after"] - r["before"]
    return sorted(out.values(), key=lambda r: (-r["change"], r["player"]["name"]))
