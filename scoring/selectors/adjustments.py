"""Adjustments read: a tournament's list, one by id, and what they add to each entry's net.

Only adjustments in force count (a deleted one keeps its row, ``deleted_at`` set: the list
shows it to directors, struck through; nothing counts it)."""

from __future__ import annotations

from django.db.models import QuerySet, Sum

from scoring.domain.errors import NotFound
from scoring.models import Adjustment, Tournament


def adjustment_list(tournament: Tournament, *, deleted: bool = False) -> QuerySet[Adjustment]:
    """The tournament's adjustments in force, oldest first, with their players; ``deleted``: the
    deleted ones too."""
    rows = Adjustment.objects.filter(tournament=tournament).select_related("entry__player")
    if not deleted:
        rows = rows.filter(deleted_at__isnull=True)
    return rows.order_by("created_at", "id")


def adjustment_get(pk: int) -> Adjustment:
    """The adjustment with its tournament, club and player; NotFound when there is none."""
    found = Adjustment.objects.select_related("tournament__club", "entry__player").filter(pk=pk).first()
    if found is None:
        raise NotFound("No such adjustment.")
    return found


def adjustment_totals(tournament: Tournament) -> dict[int, int]:
    """entry id → the sum of its adjustments in force (entries without one are left out). One query."""
    return dict(Adjustment.objects.filter(tournament=tournament, deleted_at__isnull=True).order_by()
                .values("entry_id").annotate(total=Sum("amount")).values_list("entry_id", "total"))


def adjustment_lines(tournament: Tournament) -> dict[int, list[dict]]:
    """entry id → its adjustments in force as the pages show them (``amount``, ``reason``), oldest
    first: the marker and the lines under a standings row. One query."""
    out: dict[int, list[dict]] = {}
    for entry_id, amount, reason in (Adjustment.objects.filter(tournament=tournament, deleted_at__isnull=True)
                                     .order_by("created_at", "id").values_list("entry_id", "amount", "reason")):
        out.setdefault(entry_id, []).append({"amount": amount, "reason": reason})
    return out


def with_adjustment_lines(rows: list[dict], tournament: Tournament) -> list[dict]:
    """Standings rows (``selectors.standings.standings_for``) each with ``adjustments``: its
    ``adjustment_lines`` (empty: none), what the pages show under a row. One query."""
    lines = adjustment_lines(tournament)
    for r in rows:
        r["adjustments"] = lines.get(r["entry"], [])
    return rows


def adjustments_panel(tournament: Tournament) -> dict:
    """The director's adjustments box: ``adjustments`` (all of them, deleted ones too, oldest
    first), an empty ``adjustment_form`` and no ``adjustment_errors``. One query."""
    return {"adjustments": list(adjustment_list(tournament, deleted=True)),
            "adjustment_form": {"entry": "", "amount": "", "reason": ""}, "adjustment_errors": {}}
