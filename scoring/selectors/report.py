"""The tournament report: what a director sends to the club afterwards — the final standings,
the payouts, the adjustments (fines, bonuses), the latest audit's verdict with the zero-sum
check, and how many deals were
corrected, disputed and voided, and (a rated tournament) each player's rating before and after.

A fixed number of queries whatever the deals: the standings and payouts read the kept rows,
the counts are two aggregates, the audit two small reads."""

from __future__ import annotations

from django.db.models import Count, IntegerField, Q, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from scoring.models import ActionLog, Round, RoundRevision, Tournament
from scoring.selectors.adjustments import adjustment_list
from scoring.selectors.audits import audit_finding_counts, audit_latest
from scoring.selectors.payouts import payouts_for
from scoring.selectors.rating_pages import tournament_rating_changes
from scoring.selectors.standings import counted_rounds_filter, standings_for


def _counts(tournament: Tournament) -> dict:
    """``deals`` (recorded, with content), ``counted``, ``voided``, ``disputes`` (ever raised,
    by the log: a resolved dispute clears the deal's flag), ``open_disputes``, ``corrections``
    (revisions beyond each deal's first) and ``house`` (what the counted deals gave the house).
    Three queries."""
    rounds = Round.objects.filter(table__session__tournament=tournament, current_revision__isnull=False)
    house = Cast(KeyTextTransform("house", "current_revision__result"), IntegerField())
    agg = rounds.aggregate(
        deals=Count("id"),
        counted=Count("id", filter=counted_rounds_filter(tournament)),
        voided=Count("id", filter=Q(status=Round.Status.VOIDED)),
        open_disputes=Count("id", filter=Q(disputed=True)),
        house=Sum(house, filter=counted_rounds_filter(tournament)),
    )
    agg["house"] = agg["house"] or 0
    agg["corrections"] = RoundRevision.objects.filter(round__table__session__tournament=tournament,
                                                      number__gt=1).count()
    agg["disputes"] = ActionLog.objects.filter(tournament=tournament,
                                               action=ActionLog.Action.ROUND_DISPUTE).count()
    return agg


def _audit(tournament: Tournament) -> dict | None:
    """The latest audit's verdict: ``id, status, finished_at, done, total, problems`` (findings
    that fail it), ``zero_sum_findings`` (deals it found out of balance); None: never audited."""
    audit = audit_latest(tournament)
    if audit is None:
        return None
    counts = audit_finding_counts(audit.pk)
    return {"id": audit.pk, "status": audit.status, "finished_at": audit.finished_at,
            "done": audit.done, "total": audit.total,
            "problems": sum(c["problems"] for c in counts.values()),
            "zero_sum_findings": counts.get("zero_sum", {}).get("count", 0)}


def tournament_report(tournament: Tournament) -> dict:
    """``tournament, standings`` (``standings_for``), ``payouts`` (``payouts_for``), ``audit``
    (``_audit``), ``counts`` (``_counts``), ``ratings`` (``tournament_rating_changes``: empty when
    the tournament is not rated), ``adjustments`` (those in force: ``name, amount, reason,
    created_at``) and ``zero_sum``: ``players`` (the entries' nets from the deals: the kept nets
    less the adjustments), ``house``, ``total`` and ``ok`` (the deals' nets plus the house come
    to 0), and ``adjustments`` (their total: outside the deals, not zero-sum).

    The zero-sum check adds the kept standings to the house's take read from the counted deals
    themselves, so a standing that drifted from its deals shows here as a total other than 0.
    (The payouts' house is 0 minus the nets by construction: it could not check anything.)"""
    standings = standings_for(tournament)
    counts = _counts(tournament)
    adjustments = [{"name": a.entry.player.name, "amount": a.amount, "reason": a.reason, "created_at": a.created_at}
                   for a in adjustment_list(tournament)]
    adjusted = sum(a["amount"] for a in adjustments)
    players = sum(r["net"] for r in standings) - adjusted
    return {
        "tournament": tournament,
        "standings": standings,
        "payouts": payouts_for(tournament),
        "audit": _audit(tournament),
        "counts": counts,
        "ratings": tournament_rating_changes(tournament),
        "adjustments": adjustments,
        "zero_sum": {"players": players, "house": counts["house"], "total": players + counts["house"],
                     "ok": players + counts["house"] == 0, "adjustments": adjusted},
    }
