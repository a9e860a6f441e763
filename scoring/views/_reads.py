"""Page-specific reads of the scorer and director pages.

# move to selectors: these belong in scoring/selectors.py; they wait here while that file is
# being edited by someone else, and move there once it is free (see the report of issue 4).
"""

from __future__ import annotations

import json

import games

from .. import selectors
from ..errors import NotFound
from ..models import Club, Player, Round, Table, Tournament
from ..presentation import describe_deal


def round_of_table(table: Table, round_id) -> Round:  # move to selectors
    """A round of this table (NotFound for any other round: a scorer link sees one table)."""
    rnd = selectors.round_get(round_id)
    if rnd.table_id != table.pk:
        raise NotFound("No such deal at this table.")
    return rnd


def deal_rows(table: Table, *, newest_first: bool = True, limit: int | None = None) -> list[dict]:  # move to selectors
    """The table's deals as ``round_detail`` dicts plus ``described`` (names, nets, payments)
    and the names of who entered / confirmed it."""
    game = table.session.tournament.game
    rows = selectors.round_history(table)
    if newest_first:
        rows = rows[::-1]
    if limit is not None:
        rows = rows[:limit]
    for d in rows:
        names = [p["name"] for p in d["players"]]
        d["described"] = describe_deal(game, d["players"], d["outcome"])
        d["entered_by_name"] = names[d["entered_by"]] if isinstance(d.get("entered_by"), int) else None
        d["confirmed_by_name"] = names[d["confirmed_by"]] if isinstance(d.get("confirmed_by"), int) else None
        d["confirm_options"] = [(p["position"], p["name"]) for p in d["players"]
                                if p["position"] != d.get("entered_by")]
    return rows


def table_history(table: Table) -> list[dict]:  # move to selectors
    """Every deal of the table (oldest first) with every revision (described) and the hash
    chain check of the deal."""
    game = table.session.tournament.game
    out = []
    for d in deal_rows(table, newest_first=False):
        rnd = Round.objects.get(pk=d["id"])
        revisions = selectors.round_revisions(rnd)
        for rev in revisions:
            rev["described"] = describe_deal(game, rev["players"], rev["outcome"])
            rev["record_json"] = json.dumps(rev["record"], ensure_ascii=False, indent=1)
            rev["result_json"] = json.dumps(rev["result"], ensure_ascii=False, indent=1)
        d["revisions"] = revisions[::-1]
        d["chain"] = selectors.round_verify_chain(rnd)
        out.append(d)
    return out


def club_tournaments(club: Club):  # move to selectors
    return Tournament.objects.filter(club=club).order_by("-created_at")


def players_not_entered(tournament: Tournament):  # move to selectors
    return Player.objects.filter(club=tournament.club).exclude(entries__tournament=tournament).order_by("name")


def tournament_for_director_page(tournament_id) -> Tournament:  # move to selectors
    return selectors.tournament_get(tournament_id)


def home_tournaments(user) -> list[Tournament]:
    """The home page's list (``selectors.tournament_list_for_home``) with the game's name."""
    rows = selectors.tournament_list_for_home(user)
    for t in rows:
        t.game_name = games.GAME_NAMES.get(t.game, t.game)
    return rows


__all__ = ["round_of_table", "deal_rows", "table_history", "club_tournaments", "players_not_entered",
           "tournament_for_director_page", "home_tournaments"]
