"""What the room display shows (``/t/<slug>/room/``, a projector in the playing room): the
tournament (seen as its public pages are, or by a director of its club), the newest session
with tables — its clock and where every player sits, by name — the standings' top rows and the
latest deals."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import NotFound
from scoring.domain.records import nets_by_position
from scoring.models import Round, Seat, Session, Tournament
from scoring.selectors.standings import standings_for
from scoring.selectors.substitutions import seatings

#: Standings rows the display shows (the top of the table; the full one is on the public page).
TOP_ROWS = 8
#: Deals the display shows, newest first.
LATEST_DEALS = 4


def directed_tournament(slug: Any, actor: Actor) -> Tournament:
    """For a director of its club, that club's tournament with this slug, private or not started
    (one query; none for anyone else). NotFound otherwise: the same answer as for no tournament.
    The room display asks ``public.public_tournament`` first."""
    if not (actor.is_system or actor.is_director):
        raise NotFound(gettext("No such tournament."))
    found = Tournament.objects.select_related("club").filter(slug=str(slug))
    if not (actor.is_system or actor.user.is_superuser):
        found = found.filter(club__directors=actor.user)
    tournament = found.order_by("-pk").first()
    if tournament is None:
        raise NotFound(gettext("No such tournament."))
    return tournament


def room_session(tournament: Tournament) -> Session | None:
    """The newest session that has tables (None before any is seated): the one being played."""
    return (Session.objects.filter(tournament=tournament, tables__isnull=False).distinct()
            .order_by("-number").first())


def room_seats(session: Session | None) -> list[dict]:
    """Every player seated in ``session``: ``name, table, seat`` (1, 2, … round the table),
    by name (any case), one query."""
    if session is None:
        return []
    rows = (Seat.objects.filter(table__session=session)
            .values_list("entry__player__name", "table__name", "position"))
    return sorted(({"name": name, "table": table, "seat": position + 1} for name, table, position in rows),
                  key=lambda r: (r["name"].casefold(), r["name"], r["table"], r["seat"]))


def room_deals(tournament: Tournament, names: dict[int, str], limit: int = LATEST_DEALS) -> list[dict]:
    """The latest deals of the tournament, newest first, voided ones left out: ``table, number,
    session, players`` (``name, net`` by table position, named as who played the deal). Three
    queries: the deals, their tables' seats and substitutions."""
    rounds = list(Round.objects.filter(table__session__tournament=tournament)
                  .exclude(status=Round.Status.VOIDED).exclude(current_revision=None)
                  .order_by("-created_at", "-pk")
                  .values_list("table_id", "table__name", "table__session__number", "number",
                               "current_revision__body__leader", "current_revision__result__seats")[:limit])
    if not rounds:
        return []
    seated = seatings(table_id__in={r[0] for r in rounds})
    out = []
    for table_id, table_name, session, number, leader, result_seats in rounds:
        entries = seated[table_id].at(number) if table_id in seated else []
        body = {} if leader is None else {"leader": leader}
        nets = nets_by_position(game=tournament.game, body=body, result={"seats": result_seats or []},
                                n=len(entries))
        out.append({"table": table_name, "session": session, "number": number,
                    "players": [{"name": names.get(e, "?"), "net": net} for e, net in zip(entries, nets)]})
    return out


def room_display(tournament: Tournament) -> dict:
    """Everything the display shows: ``session`` (the newest with tables, or None), ``seats``
    (``room_seats``), ``standings`` (the top ``TOP_ROWS`` ranked rows) and ``deals``
    (``room_deals``). Some seven queries, whatever the tournament's size."""
    session = room_session(tournament)
    rows = standings_for(tournament)
    return {"session": session, "seats": room_seats(session), "standings": rows[:TOP_ROWS],
            "deals": room_deals(tournament, {r["entry"]: r["name"] for r in rows})}
