"""Turning an engine result into plain lines for pages: who pays whom."""

from __future__ import annotations


def describe_result(result: dict, names: list[str] | None = None) -> dict:
    """Seats with nets, and transfers as sentences ("Bob pays Anna 10")."""
    seats = result.get("seats", [])
    names = names or [s.get("name", f"Seat {i}") for i, s in enumerate(seats)]

    def who(i):
        return "the house" if i is None else names[i]

    payments = [f"{who(t['from'])} pays {who(t['to'])} {t['amount']}" for t in result.get("transfers", [])]
    return {"seats": seats, "payments": payments, "warnings": result.get("warnings", [])}


def payments_by_position(outcome: dict, names: list[str]) -> list[str]:
    """The transfers of a stored or previewed deal (seat indexes = table positions) as
    sentences; ``None`` is the house (Da Ling's casino chip)."""

    def who(i):
        if i is None:
            return "the house"
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else f"seat {i}"

    return [f"{who(t.get('from'))} pays {who(t.get('to'))} {t.get('amount')}" for t in outcome.get("transfers", [])]


def seat_summary(game: str, player: dict) -> str:
    """A short line about one seat's hand in a deal: points, tiles, bull, ...

    Read from the engine's seat result alone: only Tau Ngau seats have a ``bull`` (null for
    no bull), so the game itself is not needed."""
    parts = []
    if "points" in player:
        parts.append(f"{player['points']} pts")
    if player.get("unplayed") is not None and "points" in player:
        parts.append(f"{player['unplayed']} left")
    if player.get("status"):
        parts.append(str(player["status"]))
    if "bull" in player:
        value = player.get("value")
        parts.append("no bull" if not player.get("bull") else f"bull, {value}")
    if player.get("place") == 1:
        parts.append("winner")
    return ", ".join(parts)


def describe_deal(game: str, players: list[dict], outcome: dict) -> dict:
    """Everything a page shows about one deal: per seat (by table position) the name, net and
    a summary; the payments as sentences; a headline (SuanZhang, target, ...)."""
    names = [p.get("name", f"Seat {p.get('position')}") for p in players]
    seats = [{"position": p.get("position"), "name": p.get("name"), "net": p.get("net", 0),
              "summary": seat_summary(game, p)} for p in players]
    notes = []
    sz = outcome.get("suanzhang")
    if isinstance(sz, dict) and isinstance(sz.get("seat"), int) and 0 <= sz["seat"] < len(names):
        notes.append(f"SuanZhang by {names[sz['seat']]}" + ("" if sz.get("blamed", True) else " (not blamed)"))
    if outcome.get("blocked"):
        notes.append("The layout was blocked.")
    if "target" in outcome:
        notes.append(f"Target {outcome['target']} ({outcome.get('colour', '')})")
    aw = outcome.get("absolute_winner")
    if isinstance(aw, int) and 0 <= aw < len(names):
        notes.append(f"{names[aw]} wins outright")
    for key, label in (("next_leader", "Next to lead"), ("next_banker", "Next banker")):
        v = outcome.get(key)
        if isinstance(v, int) and 0 <= v < len(names):
            notes.append(f"{label}: {names[v]}")
    return {"seats": seats, "payments": payments_by_position(outcome, names), "notes": notes}


def describe_rows(game: str, rows: list[dict]) -> list[dict]:
    """Add ``described`` (see ``describe_deal``) to deal dicts (``round_detail`` shape) and to
    their ``revisions`` if present, with the record and result as indented JSON for display."""
    import json

    for d in rows:
        d["described"] = describe_deal(game, d["players"], d["outcome"])
        for rev in d.get("revisions", []):
            rev["described"] = describe_deal(game, rev["players"], rev["outcome"])
            rev["record_json"] = json.dumps(rev["record"], ensure_ascii=False, indent=1)
            rev["result_json"] = json.dumps(rev["result"], ensure_ascii=False, indent=1)
    return rows
