"""Checks of what is stored: the hash chain of a deal's revisions, and the reads of replay
audits (what a chunk of deals and the kept standings say against a recomputation; an audit's
progress and findings). Nothing here writes: ``services.audits`` stores what these find."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count
from django.utils.translation import gettext

import games
from scoring.domain.chain import hash_of_revision
from scoring.domain.errors import NotFound
from scoring.models import Audit, AuditFinding, Entry, Round, RoundRevision, Standing, Table, Tournament
from scoring.selectors.standings import tournament_totals


@dataclass
class ChainReport:
    ok: bool
    checked: int
    first_broken: int | None = None    # revision number
    problem: str = ""

    def as_dict(self) -> dict:
        return {"ok": self.ok, "checked": self.checked, "first_broken": self.first_broken, "problem": self.problem}


def round_verify_chain(rnd: Round) -> ChainReport:
    """Recompute every revision's hash and link; report the first one that does not hold."""
    revs = list(RoundRevision.objects.filter(round=rnd).order_by("number"))
    current = Round.objects.filter(pk=rnd.pk).values_list("current_revision_id", flat=True).first()
    return verify_chain(revs, current)


def verify_chain(revs: list[RoundRevision], current_revision_id: int | None) -> ChainReport:
    """``round_verify_chain`` on revisions already read (oldest first)."""
    prev = ""
    for expected_number, rev in enumerate(revs, start=1):
        if rev.number != expected_number:
            return ChainReport(False, expected_number - 1, rev.number, f"revision {expected_number} is missing")
        if rev.prev_hash != prev:
            return ChainReport(False, expected_number - 1, rev.number, "the link to the previous revision is broken")
        if hash_of_revision(rev) != rev.hash:
            return ChainReport(False, expected_number - 1, rev.number, "the content does not match its hash")
        prev = rev.hash
    if revs and current_revision_id != revs[-1].pk:
        return ChainReport(False, len(revs), revs[-1].number, "the current revision is not the latest")
    return ChainReport(True, len(revs))


# ------------------------------------------------------------------------------------------------
# Replay audits: one chunk of deals

Kind = AuditFinding.Kind


@dataclass(slots=True)
class StoredRevision:
    """A revision as read for an audit: what ``hash_of_revision`` and ``verify_chain`` need,
    without building a model instance for each of thousands."""

    pk: int
    round_id: int
    number: int
    body: Any
    record: Any
    result: Any
    engine_version: str
    actor_label: str
    reason: str
    created_at: datetime
    prev_hash: str
    hash: str


_REVISION_COLUMNS = ("revisions__id", "revisions__number", "revisions__body", "revisions__record",
                     "revisions__result", "revisions__engine_version", "revisions__actor_label",
                     "revisions__reason", "revisions__created_at", "revisions__prev_hash", "revisions__hash")


def audit_chunk_findings(*, tournament_id: int, first_round: int, last_round: int) -> list[dict]:
    """What an audit finds in the tournament's deals with ids ``first_round``..``last_round``:
    every revision re-evaluated by today's engine and compared with its stored result (or, if
    another engine version stored it, an ``engine_version`` finding saying whether it still
    agrees), every deal's hash chain verified, every stored result's balance checked
    (``games.deal_balance``). One query, whatever the number of deals: the deals with their
    revisions, joined."""
    rows = (Round.objects.filter(table__session__tournament_id=tournament_id, id__gte=first_round, id__lte=last_round)
            .order_by("id", "revisions__number")
            .values_list("id", "table_id", "number", "current_revision_id", *_REVISION_COLUMNS))
    findings: list[dict] = []
    deal: tuple | None = None
    revs: list[StoredRevision] = []
    for row in rows:
        if deal is None or row[0] != deal[0]:
            if deal is not None:
                findings += _deal_findings(deal, revs)
            deal, revs = row[:4], []
        if row[4] is not None:  # a deal without any revision still gets its (LEFT JOIN) row
            revs.append(StoredRevision(row[4], row[0], *row[5:]))
    if deal is not None:
        findings += _deal_findings(deal, revs)
    return findings


def _finding(kind: str, deal: tuple, revision: int | None, detail: str, stored: Any = None, recomputed: Any = None,
             **extra: Any) -> dict:
    round_id, table_id, number, _ = deal
    return {"kind": kind, "round": round_id, "table": table_id, "number": number, "revision": revision,
            "detail": detail, "stored": stored, "recomputed": recomputed, **extra}


def _deal_findings(deal: tuple, revs: list[StoredRevision]) -> list[dict]:
    out = []
    if not revs:
        out.append(_finding(Kind.HASH_CHAIN, deal, None, "The deal has no stored revision."))
    else:
        chain = verify_chain(revs, deal[3])
        if not chain.ok:
            broken = next((r for r in revs if r.number == chain.first_broken), None)
            stored = recomputed = None
            if broken is not None and chain.problem == "the content does not match its hash":
                stored, recomputed = broken.hash, hash_of_revision(broken)
            out.append(_finding(Kind.HASH_CHAIN, deal, chain.first_broken, f"Hash chain: {chain.problem}.",
                                stored, recomputed))
    for rev in revs:
        out += _revision_findings(deal, rev)
    return out


def _plain(value: Any) -> Any:
    """As stored in a JSON column (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def _differences(stored: Any, recomputed: Any) -> tuple[list[str], Any, Any]:
    """The top-level fields of two results that differ, and each side's values of them."""
    if not isinstance(stored, dict) or not isinstance(recomputed, dict):
        return ["(the whole result)"], stored, recomputed
    keys = sorted(k for k in stored.keys() | recomputed.keys() if stored.get(k) != recomputed.get(k))
    return keys, {k: stored[k] for k in keys if k in stored}, {k: recomputed[k] for k in keys if k in recomputed}


def _revision_findings(deal: tuple, rev: StoredRevision) -> list[dict]:
    out = []
    recomputed = games.evaluate(rev.record)
    agrees = recomputed == rev.result
    if not agrees:  # perhaps only a tuple the stored JSON holds as a list
        recomputed = _plain(recomputed)
        agrees = recomputed == rev.result
    if rev.engine_version != games.ENGINE_VERSION:
        # Another engine's result may differ by design (the rules changed): a finding of its own,
        # saying whether it still agrees, rather than a mismatch.
        keys, old, new = _differences(rev.result, recomputed) if not agrees else ([], {}, {})
        out.append(_finding(
            Kind.ENGINE_VERSION, deal, rev.number,
            f"Stored by engine {rev.engine_version or '(none)'}, re-evaluated by {games.ENGINE_VERSION}: "
            + ("the result still agrees." if agrees else f"the result differs in {', '.join(keys)}."),
            {"engine_version": rev.engine_version, **old}, {"engine_version": games.ENGINE_VERSION, **new},
            agrees=agrees))
    elif not agrees:
        keys, old, new = _differences(rev.result, recomputed)
        out.append(_finding(Kind.RESULT_MISMATCH, deal, rev.number,
                            f"The engine gives another result: {', '.join(keys)} differ.", old, new))
    try:
        balance = games.deal_balance(rev.result)
    except ValueError as e:
        out.append(_finding(Kind.ZERO_SUM, deal, rev.number, f"The stored result cannot be balanced: {e}."))
    else:
        if balance != 0:
            nets = [s.get("net") for s in rev.result["seats"]]
            out.append(_finding(Kind.ZERO_SUM, deal, rev.number,
                                f"The nets{' and the house' if rev.result.get('house') else ''} sum to {balance}, "
                                "not 0.", {"nets": nets, "house": rev.result.get("house", 0), "balance": balance},
                                {"balance": 0}))
    return out


# ------------------------------------------------------------------------------------------------
# Replay audits: the kept standings

#: Zero of everything a standing keeps (an entry without a Standing row yet counts as this).
_NOTHING_KEPT = {"total": 0, "rounds_counted": 0}


def _kept(standing: Standing) -> dict:
    return {"total": standing.total, "rounds_counted": standing.rounds_counted}


def _recomputed(totals: tuple) -> dict:
    total, counted = totals
    return {"total": total, "rounds_counted": counted}


def standings_differences(tournament: Tournament) -> list[dict]:
    """Every entry whose kept standing differs from a from-scratch recomputation
    (``tournament_totals``): ``{"entry", "name", "kept", "recomputed"}`` (``kept`` None when the
    entry has no Standing row). The one place that says what a standing holds: ``_kept``,
    ``_recomputed`` and ``_NOTHING_KEPT`` grow with it. Run inside one snapshot, or a deal
    committed between the two reads would look like drift (``services.audits.audit_finish``)."""
    totals = tournament_totals(tournament)
    kept = {s.entry_id: s for s in Standing.objects.filter(tournament=tournament)}
    out = []
    for entry_id, name in Entry.objects.filter(tournament=tournament).order_by("id").values_list("id", "player__name"):
        st = kept.get(entry_id)
        stored = _kept(st) if st is not None else None
        recomputed = _recomputed(totals.get(entry_id, (0, 0)))
        if (stored or _NOTHING_KEPT) != recomputed:
            out.append({"entry": entry_id, "name": name, "kept": stored, "recomputed": recomputed})
    return out


def audit_standings_findings(tournament: Tournament) -> list[dict]:
    """``standings_differences`` as audit findings (``standings_mismatch``)."""
    out = []
    for d in standings_differences(tournament):
        fields = sorted(k for k in d["recomputed"] if (d["kept"] or _NOTHING_KEPT).get(k) != d["recomputed"][k])
        what = ", ".join(f"{k} {(d['kept'] or {}).get(k, 'missing')} kept, {d['recomputed'][k]} recomputed"
                         for k in fields)
        out.append({"kind": Kind.STANDINGS_MISMATCH, "round": None, "table": None, "number": None, "revision": None,
                    "detail": f"Standing of {d['name']} (entry {d['entry']}): {what}.",
                    "stored": None if d["kept"] is None else {"entry": d["entry"], **d["kept"]},
                    "recomputed": {"entry": d["entry"], **d["recomputed"]}})
    return out


# ------------------------------------------------------------------------------------------------
# Replay audits: what the API and the pages show

#: Findings sent with an audit at most (an engine upgrade may make one per revision).
MAX_FINDINGS_SHOWN = 1000


def audit_get(audit_id: Any) -> Audit:
    try:
        return Audit.objects.select_related("tournament__club").get(pk=audit_id)
    except (Audit.DoesNotExist, ValueError, TypeError):
        raise NotFound(gettext("No such audit.")) from None


def audit_latest(tournament: Tournament) -> Audit | None:
    """The tournament's most recent audit (the director's page shows it)."""
    return Audit.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()


def is_problem(kind: str, agrees: bool | None) -> bool:
    """Whether a finding fails the audit: all do, except a result stored by another engine
    version that today's engine still gives."""
    return not (kind == Kind.ENGINE_VERSION and agrees)


def audit_finding_counts(audit_id: int) -> dict[str, dict[str, int]]:
    """``{kind: {"count", "problems"}}`` for the kinds found (one query)."""
    out: dict[str, dict[str, int]] = {}
    for kind, agrees, n in (AuditFinding.objects.filter(audit_id=audit_id).values_list("kind", "agrees")
                            .annotate(n=Count("id")).order_by()):
        c = out.setdefault(kind, {"count": 0, "problems": 0})
        c["count"] += n
        c["problems"] += n if is_problem(kind, agrees) else 0
    return out


FINDING_FIELDS = ("kind", "round", "table", "number", "revision", "detail", "stored", "recomputed", "agrees")


def audit_detail(audit: Audit, *, limit: int = MAX_FINDINGS_SHOWN, table_names: bool = False) -> dict:
    """An audit as shown: ``id, tournament, status, progress {done, total}, engine_version,
    created_at, started_at, finished_at, error, findings (the first ``limit``, in the order
    found), findings_count, findings_by_kind``. Findings of other kinds than
    ``engine_version`` leave out ``agrees``. ``table_names``: each finding also gets
    ``table_name`` and ``session`` (its number) (one more query)."""
    counts = audit_finding_counts(audit.pk)
    findings = []
    if counts:
        for row in AuditFinding.objects.filter(audit=audit).order_by("id").values(*FINDING_FIELDS)[:limit]:
            if row["kind"] != Kind.ENGINE_VERSION:
                row.pop("agrees")
            findings.append(row)
    if table_names and findings:
        names = {pk: (name, session) for pk, name, session in
                 Table.objects.filter(pk__in={f["table"] for f in findings if f["table"]})
                 .values_list("id", "name", "session__number")}
        for f in findings:
            f["table_name"], f["session"] = names.get(f["table"], ("", None))
    return {
        "id": audit.pk, "tournament": audit.tournament_id, "status": audit.status,
        "progress": {"done": audit.done, "total": audit.total},
        "engine_version": audit.engine_version, "created_at": audit.created_at, "started_at": audit.started_at,
        "finished_at": audit.finished_at, "error": audit.error,
        "findings": findings, "findings_count": sum(c["count"] for c in counts.values()),
        "findings_by_kind": {k: c["count"] for k, c in sorted(counts.items())},
    }
