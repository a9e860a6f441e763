"""Plain lines for pages, in the page's language: who pays whom in a deal (from an engine
result); which session and table a page is about, a seat's name, where a player sits now, and
the time a session's clock has left. Each wording lives here once."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.domain.statuses import SESSION_OPEN
from scoring.selectors.sessions import Place

#: The names ``session_seat`` gives its tables ("Table 1", ...): shown translated; names a club
#: typed are shown as they are.
GENERATED_TABLE_NAME = re.compile(r"\ATable ([0-9]+)\Z")


def table_name(name: str) -> str:
    """A table's name as shown: a generated "Table N" in the page's language, others as stored."""
    m = GENERATED_TABLE_NAME.match(name or "")
    return _("Table %(n)s") % {"n": m.group(1)} if m else name


def session_table(session: int, name: str) -> str:
    """Which table, wherever a page names one: "Session 2 · Table 1" (第2輪 · 第1桌)."""
    return _("Session %(session)s · %(table)s") % {"session": session, "table": table_name(name)}


def rated_result(row: dict) -> str:
    """What one rated result of a player's history was (``selectors.ratings.player_history``'s
    row): a deal, "Session 2 · Table 1, deal 5"; a table's whole session (``unit``
    "table_session", Tau Ngau), "Session 2 · Table 1 (14 deals)". A row without ``unit`` is a
    deal."""
    deal = row["deal"]
    where = session_table(deal["session"], deal["table"])
    if row.get("unit", "deal") == "table_session":
        count = row.get("unit_deals") or 0
        return ngettext("%(where)s (%(count)s deal)", "%(where)s (%(count)s deals)", count) % {
            "where": where, "count": count}
    return _("%(where)s, deal %(number)s") % {"where": where, "number": deal["number"]}


def seat_name(position: int, seats: int) -> str:
    """A seat by its position: the four winds at a table of four (position 0 is East, then
    counter-clockwise = playing order), otherwise "seat N" counting from 1."""
    if seats == 4 and 0 <= position < 4:
        return (_("seat East"), _("seat South"), _("seat West"), _("seat North"))[position]
    return _("seat %(n)s") % {"n": position + 1}


def where_now(name: str, place: Place | None, session: int | None) -> str:
    """One player's line for the wall or a closed table's page: "Chen → Session 2 · Table 3,
    seat East", or that they sit the newest session out."""
    if place is None:
        return _("%(name)s → sits out session %(number)s") % {"name": name, "number": session}
    return _("%(name)s → %(table)s, %(seat)s") % {"name": name, "table": session_table(place.session, place.table_name),
                                                  "seat": seat_name(place.position, place.seats)}


def finish_leaves(counts: dict, sessions: list) -> list[str]:
    """What finishing a tournament leaves as it is, one line each: open disputes, deals not
    confirmed (counted only where they matter, ``selectors.tournaments.unconfirmed_filter``),
    and the open sessions the finish closes."""
    lines = []
    if counts.get("disputed"):
        lines.append(ngettext("%(count)s dispute stays open: a finished tournament cannot settle it.",
                              "%(count)s disputes stay open: a finished tournament cannot settle them.",
                              counts["disputed"]) % {"count": counts["disputed"]})
    if counts.get("unconfirmed"):
        lines.append(ngettext("%(count)s deal is not confirmed: it does not count, and cannot be confirmed after.",
                              "%(count)s deals are not confirmed: they do not count, and cannot be confirmed after.",
                              counts["unconfirmed"]) % {"count": counts["unconfirmed"]})
    numbers = [s.number for s in sessions if s.status == SESSION_OPEN]
    if numbers:
        lines.append(ngettext("Session %(numbers)s is open: finishing closes it.",
                              "Sessions %(numbers)s are open: finishing closes them.", len(numbers))
                     % {"numbers": ", ".join(str(n) for n in numbers)})
    return lines


def clock_time(seconds: int) -> str:
    """Seconds as a clock shows them: 4:05, or 1:02:03 from an hour (static/js/clock.js says the same)."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock_words() -> tuple[str, str]:
    """What a session's clock says, in the page's language: the time left (``%(time)s`` in it,
    for static/js/clock.js to fill too) and once time is up."""
    return _("Time left: %(time)s"), _("Time is up")


def clock_alert_words() -> str:
    """What a clock that warns says once ``WARN_SECONDS`` are left (``scoring.domain.clock``)."""
    return _("5 minutes left")


def clock_text(seconds: int) -> str:
    """What a session's clock says with ``seconds`` left."""
    left, over = clock_words()
    return left % {"time": clock_time(seconds)} if seconds > 0 else over


def describe_result(result: dict, names: list[str] | None = None) -> dict:
    """Seats with nets, and transfers as sentences ("Bob pays Anna 10")."""
    seats = result.get("seats", [])
    names = names or [s.get("name", _("Seat %(n)s") % {"n": i}) for i, s in enumerate(seats)]

    def who(i):
        return _("the house") if i is None else names[i]

    payments = [_pays(who(t["from"]), who(t["to"]), t["amount"]) for t in result.get("transfers", [])]
    return {"seats": seats, "payments": payments, "warnings": result.get("warnings", [])}


def _pays(payer, payee, amount) -> str:
    return _("%(payer)s pays %(payee)s %(amount)s") % {"payer": payer, "payee": payee, "amount": amount}


def payments_by_position(outcome: dict, names: list[str]) -> list[str]:
    """The transfers of a stored or previewed deal (seat indexes = table positions) as
    sentences; ``None`` is the house (Da Ling's casino chip)."""

    def who(i):
        if i is None:
            return _("the house")
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else _("seat %(n)s") % {"n": i}

    return [_pays(who(t.get("from")), who(t.get("to")), t.get("amount")) for t in outcome.get("transfers", [])]


def seat_summary(game: str, player: dict) -> str:
    """A short line about one seat's hand in a deal: points, tiles, bull, ...

    Read from the engine's seat result alone, so the game itself is not needed: only Tau Ngau
    seats have a ``value`` beside ``has_bull`` (the values level) or ``bull`` (the hands level:
    null for no bull, where ``value`` is 0)."""
    parts = []
    if "points" in player:
        parts.append(ngettext("%(points)s pt", "%(points)s pts", _count(player["points"])) % {"points": player["points"]})
    if player.get("unplayed") is not None and "points" in player:
        parts.append(_("%(count)s left") % {"count": player["unplayed"]})
    if player.get("status"):
        parts.append(_status_word(str(player["status"])))
    if "has_bull" in player or "bull" in player:
        has_bull = player["has_bull"] if "has_bull" in player else bool(player.get("bull"))
        parts.append(_("bull, %(value)s") % {"value": player.get("value")} if has_bull else _("no bull"))
    if player.get("place") == 1:
        parts.append(_("winner"))
    return _(", ").join(parts)


def describe_deal(game: str, players: list[dict], outcome: dict) -> dict:
    """Everything a page shows about one deal: per seat (by table position) the name, net and
    a summary; the payments as sentences; a headline (SuanZhang, target, ...)."""
    names = [p.get("name", _("Seat %(n)s") % {"n": p.get("position")}) for p in players]
    seats = [{"position": p.get("position"), "name": p.get("name"), "net": p.get("net", 0),
              "summary": seat_summary(game, p)} for p in players]
    notes = []
    sz = outcome.get("suanzhang")
    if isinstance(sz, dict) and isinstance(sz.get("seat"), int) and 0 <= sz["seat"] < len(names):
        by = {"name": names[sz["seat"]]}
        notes.append(_("SuanZhang by %(name)s") % by if sz.get("blamed", True)
                     else _("SuanZhang by %(name)s (not blamed)") % by)
    if outcome.get("blocked"):
        notes.append(_("The layout was blocked."))
    if "target" in outcome:
        notes.append(_("Target %(target)s (%(colour)s)") % {"target": outcome["target"],
                                                             "colour": _colour_word(outcome.get("colour", ""))})
    aw = outcome.get("absolute_winner")
    if isinstance(aw, int) and 0 <= aw < len(names):
        notes.append(_("%(name)s wins outright") % {"name": names[aw]})
    notes += _group_winners(outcome.get("group_winners"), names)
    for key, label in (("next_leader", _("Next to lead: %(name)s")), ("next_banker", _("Next banker: %(name)s"))):
        v = outcome.get(key)
        if isinstance(v, int) and 0 <= v < len(names):
            notes.append(label % {"name": names[v]})
    return {"seats": seats, "payments": payments_by_position(outcome, names), "notes": notes}


def _group_winners(winners, names: list[str]) -> list[str]:
    """Da Ling: who won each group (DL-9); a group nobody won is left unsaid (DL-10)."""
    if not isinstance(winners, list):
        return []
    said = (_("Winner of the 1-tile group: %(name)s"), _("Winner of the 2-tile group: %(name)s"),
            _("Winner of the 3-tile group: %(name)s"))
    return [line % {"name": names[w]} for line, w in zip(said, winners)
            if isinstance(w, int) and not isinstance(w, bool) and 0 <= w < len(names)]


def describe_rows(game: str, rows: list[dict]) -> list[dict]:
    """Add ``described`` (see ``describe_deal``) to deal dicts (``round_detail`` shape) and to
    their ``revisions`` if present, with the record and result as indented JSON for display."""
    for d in rows:
        d["described"] = describe_deal(game, d["players"], d["outcome"])
        describe_revisions(game, d.get("revisions", []))
    return rows


def describe_revisions(game: str, revisions: list[dict]) -> list[dict]:
    """Add ``described`` and the record and result as indented JSON to revisions
    (``revision_detail`` shape)."""
    import json

    for rev in revisions:
        rev["described"] = describe_deal(game, rev["players"], rev["outcome"])
        rev["record_json"] = json.dumps(rev["record"], ensure_ascii=False, indent=1)
        rev["result_json"] = json.dumps(rev["result"], ensure_ascii=False, indent=1)
    return revisions


def _count(value) -> int:
    """A figure from a stored result as the count that picks a plural form (0 for none)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _status_word(status: str) -> str:
    """A Ce Deng seat status (CD-4) in words; anything else as it is."""
    words = {"clean": _("clean"), "penalty": _("penalty"), "none": _("none")}
    return words.get(status, status)


def _colour_word(colour: str) -> str:
    """Da Ling's colour (DL-4) in words."""
    words = {"red": _("red"), "black": _("black")}
    return words.get(colour, colour)
