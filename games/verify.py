"""A tournament export checked without the site: ``python -m games verify FILE``.

No database, no Django, no app code: only the engine and the rules the site itself runs
(``chain``, ``standings``, ``seating``, ``settle``). For a document the site exported (format 1
or 2, ``scoring.domain.documents``) it

1. walks every deal's revisions in order: today's engine re-evaluates each record and must
   give exactly the stored result (the nets named first when they differ), each result must
   balance to zero with the house (``deal_balance``), each ``prev_hash`` must be the previous
   revision's hash and each ``hash`` the hash of its content (``chain.revision_hash``, over the
   document's round id);
2. recomputes the standings from the counted deals (``standings``: which deals count, the
   figures, the tournament's tie-breaks; format 2's adjustments move a net, its substitutions
   change who held a seat from a deal on) and, when the document carries standing rows,
   compares them;
3. settles up (``settle.payouts_of``) and checks that the transfers even out every balance,
   the money sums to zero and the deals' nets with the house sum to zero.

The first disagreement is named (``session 1, Table 2, deal 5: stored nets [..] but the engine
gives [..]``) and ends the check: ``Disagreement``. A file that is no tournament document at
all: ``Unreadable``. Flags that change no count (withdrawn entries, late or after-time deals,
session clocks) are read past.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from . import ENGINE_VERSION
from .catalog import GAMES, get_game
from .chain import revision_hash
from .engine import evaluate
from .seating import Seating, seating_from_start
from .settle import minor_unit_decimals, payouts_of
from .settlement import deal_balance
from .standings import (
    DEFAULT_TIE_BREAKS,
    Figures,
    deal_counts,
    figures_row,
    head_to_head_nets,
    rank_rows,
    tallied,
    tally_deal,
    transfers_by_position,
    with_adjustments,
)

FORMAT = "gupai-club.tournament"
VERSIONS = (1, 2)

#: What a stored standing row is compared on, when the document carries rows.
ROW_FIGURES = ("rank", "net", "deals", "wins")


class Unreadable(ValueError):
    """The file is no tournament document this verifier knows."""


class Disagreement(Exception):
    """The first thing in the document that the engine and the rules do not give."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where


@dataclass
class Report:
    """What was checked, and what the rules make of it."""

    version: int
    name: str
    game: str
    sessions: int = 0
    tables: int = 0
    deals: int = 0
    counted: int = 0
    voided: int = 0
    revisions: int = 0
    hash_links: int = 0
    adjustments: int = 0
    substitutions: int = 0
    tie_breaks: list[str] = field(default_factory=list)
    standings: list[dict] = field(default_factory=list)
    compared_rows: int = 0
    payouts: dict = field(default_factory=dict)
    deal_total: int = 0          # the counted deals' nets, all players
    house_total: int = 0         # what the counted deals gave the house

    def lines(self) -> list[str]:
        p = self.payouts
        return [
            f"format {self.version}: {self.name!r} ({self.game})",
            f"{_count(self.sessions, 'session')}, {_count(self.tables, 'table')}, {_count(self.deals, 'deal')} "
            f"({self.counted} counted, "
            f"{self.voided} voided), {self.revisions} revisions re-evaluated by engine {ENGINE_VERSION}: "
            "every result and balance agrees",
            f"{self.hash_links} hash links verified",
            f"{len(self.standings)} standings rows ranked by {', '.join(k.replace('_', ' ') for k in self.tie_breaks)}"
            + (f" ({self.compared_rows} stored rows agree)" if self.compared_rows else "")
            + (f"; {self.adjustments} adjustments, {self.substitutions} substitutions"
               if self.adjustments or self.substitutions else ""),
            f"{len(p['transfers'])} payouts settle every balance; zero-sum: the deals' nets {self.deal_total:+d}, "
            f"the house {self.house_total:+d}, in all 0",
        ]


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _get(obj: Any, key: str, path: str, kind: type | tuple = object) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise Unreadable(f"{path}.{key} is missing")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Unreadable(f"{path}.{key} is not what a tournament document holds there")
    return value


def _moment(value: Any, path: str) -> datetime:
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise Unreadable(f"{path} is not a date and time") from None


def _nets(result: Any) -> list:
    seats = result.get("seats") if isinstance(result, dict) else None
    return [s.get("net") if isinstance(s, dict) else None for s in seats] if isinstance(seats, list) else []


def _first_difference(stored: Any, fresh: Any, path: str = "result") -> str:
    """The first path at which two JSON values differ."""
    if isinstance(stored, dict) and isinstance(fresh, dict):
        for key in sorted(set(stored) | set(fresh)):
            if stored.get(key, ...) != fresh.get(key, ...):
                return _first_difference(stored.get(key), fresh.get(key), f"{path}.{key}")
    if isinstance(stored, list) and isinstance(fresh, list) and len(stored) == len(fresh):
        for i, (a, b) in enumerate(zip(stored, fresh, strict=True)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
    return path


def check_revisions(rnd: dict, where: str, path: str) -> int:
    """Every revision of one deal, in order (see the module); returns how many."""
    prev = ""
    revisions = _get(rnd, "revisions", path, list)
    if not revisions:
        raise Disagreement(where, "the deal has no revision")
    for k, rev in enumerate(revisions):
        at = f"{path}.revisions[{k}]"
        here = f"{where}, revision {k + 1}"
        if _get(rev, "number", at, int) != k + 1:
            raise Disagreement(here, f"numbered {rev['number']}, not {k + 1} ({at}.number)")
        record, result = _get(rev, "record", at), _get(rev, "result", at)
        fresh = json.loads(json.dumps(evaluate(record)))   # as a JSON column holds it
        if fresh != result:
            stored_nets, nets = _nets(result), _nets(fresh)
            if stored_nets != nets:
                raise Disagreement(here, f"stored nets {stored_nets} but the engine gives {nets} ({at}.result)")
            raise Disagreement(here, f"the stored result differs from the engine's at {_first_difference(result, fresh)}"
                                     f" ({at}.result)")
        if result.get("ok") is not True:
            raise Disagreement(here, f"the stored result is not ok ({at}.result)")
        balance = deal_balance(result)
        if balance != 0:
            raise Disagreement(here, f"the nets and the house sum to {balance}, not 0 ({at}.result)")
        if _get(rev, "prev_hash", at, str) != prev:
            raise Disagreement(here, f"broken hash link: prev_hash {rev['prev_hash'][:12]!r} is not the previous "
                                     f"revision's hash {prev[:12]!r} ({at}.prev_hash)")
        expected = revision_hash(prev_hash=prev, round_id=_get(rnd, "id", path, int), number=rev["number"],
                                 body=_get(rev, "body", at), record=record, result=result,
                                 engine_version=_get(rev, "engine_version", at, str),
                                 actor_label=_get(rev, "actor", at, str), reason=_get(rev, "reason", at, str),
                                 created_at=_moment(_get(rev, "created_at", at), f"{at}.created_at"))
        if _get(rev, "hash", at, str) != expected:
            raise Disagreement(here, f"broken hash link: stored hash {rev['hash'][:12]!r} but its content hashes to "
                                     f"{expected[:12]!r} ({at}.hash)")
        prev = rev["hash"]
    return len(revisions)


def _entry_of_player(doc: dict) -> dict[int, int]:
    return {_get(e, "player", "entries[]", int): _get(e, "id", "entries[]", int)
            for e in _get(doc, "entries", "document", list)}


def _party(item: dict, entry_of_player: dict[int, int], path: str) -> int:
    """The entry an adjustment or a substitution names (by ``player``, or by ``entry``)."""
    if "entry" in item:
        return _get(item, "entry", path, int)
    player = _get(item, "player", path, int)
    if player not in entry_of_player:
        raise Unreadable(f"{path}.player names no entry")
    return entry_of_player[player]


def table_seatings(doc: dict, tables: dict[int, dict], entry_of_player: dict[int, int]) -> dict[int, Seating]:
    """Format 2's substitutions, in the order made, over each table's first seating (its
    ``seats``): table id → its ``Seating`` (``seating.seating_from_start``, the site's rule)."""
    subs: dict[int, list[tuple[int, int, int]]] = {}
    for i, sub in enumerate(doc.get("substitutions") or []):
        path = f"substitutions[{i}]"
        table = _get(sub, "table", path, int)
        if table not in tables:
            raise Unreadable(f"{path}.table names no table")
        subs.setdefault(table, []).append((_get(sub, "seat", path, int), _party(sub, entry_of_player, path),
                                           _get(sub, "from_deal", path, int)))
    out = {}
    for table_id, table in tables.items():
        try:
            out[table_id] = seating_from_start(_get(table, "seats", "tables[]", list), subs.get(table_id, ()))
        except ValueError as e:
            raise Unreadable(f"the substitutions of table {table_id}: {e}") from None
    return out


def verify_document(doc: Any) -> Report:
    """The whole check (see the module): the report, or ``Disagreement`` at the first thing that
    disagrees, or ``Unreadable``."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise Unreadable(f"not a tournament document (format {FORMAT!r})")
    version = doc.get("version")
    if version not in VERSIONS:
        raise Unreadable(f"version {version!r} is not one this verifier reads ({', '.join(map(str, VERSIONS))})")
    t = _get(doc, "tournament", "document", dict)
    game = _get(t, "game", "tournament", str)
    if game not in GAMES:
        raise Unreadable(f"tournament.game {game!r} is no game the engine knows")
    info = get_game(game)
    require_confirmation = _get(t, "require_confirmation", "tournament", bool)
    tie_breaks = list(t.get("tie_breaks") or DEFAULT_TIE_BREAKS)
    report = Report(version=version, name=_get(t, "name", "tournament", str), game=game, tie_breaks=tie_breaks)

    names = {_get(p, "id", "players[]", int): _get(p, "name", "players[]", str)
             for p in _get(doc, "players", "document", list)}
    entry_of_player = _entry_of_player(doc)
    entries = {e["id"]: e for e in doc["entries"]}
    sessions = _get(doc, "sessions", "document", list)
    tables = {_get(tb, "id", "tables[]", int): tb for tb in _get(doc, "tables", "document", list)}
    seatings = table_seatings(doc, tables, entry_of_player)
    report.sessions, report.tables = len(sessions), len(tables)
    report.substitutions = sum(len(s.changes) for s in seatings.values())

    acc: dict[int, list] = {}
    last: dict[int, datetime] = {}
    played: list[tuple[dict[int, int], list[tuple[int, int | None, int]]]] = []
    for i, rnd in enumerate(_get(doc, "rounds", "document", list)):
        path = f"rounds[{i}]"
        table = tables.get(_get(rnd, "table", path, int))
        if table is None:
            raise Unreadable(f"{path}.table names no table")
        number = _get(rnd, "number", path, int)
        where = f"session {table.get('session')}, {table.get('name') or 'table ' + str(table['id'])}, deal {number}"
        report.revisions += check_revisions(rnd, where, path)
        report.hash_links = report.revisions
        report.deals += 1
        status = _get(rnd, "status", path, str)
        report.voided += status == "voided"
        if not deal_counts(status=status, has_revision=True, require_confirmation=require_confirmation):
            continue
        report.counted += 1
        current = rnd["revisions"][-1]
        seated = seatings[table["id"]].at(number)
        n = len(seated)
        seats = current["result"].get("seats", [])
        if len(seats) != n:
            raise Disagreement(where, f"the result has {len(seats)} seats but the table {n}")
        leader = current["body"].get("leader") if isinstance(current["body"], dict) else None
        tally_deal(acc, info=info, entries=seated, leader=leader, places=[s.get("place") for s in seats],
                   nets=[s.get("net") for s in seats])
        at = _moment(_get(rnd, "created_at", path), f"{path}.created_at")
        for entry in seated:
            if entry not in last or at > last[entry]:
                last[entry] = at
        report.deal_total += sum(s["net"] for s in seats)
        report.house_total += current["result"].get("house", 0)
        played.append((dict(enumerate(seated)), transfers_by_position(
            game=game, leader=leader, transfers=current["result"].get("transfers"), n=n)))
    if report.deal_total + report.house_total != 0:
        raise Disagreement("the counted deals", f"nets {report.deal_total:+d} and the house "
                                                f"{report.house_total:+d} do not sum to zero")

    adjustments = [(_party(a, entry_of_player, f"adjustments[{k}]"), _get(a, "amount", f"adjustments[{k}]", int))
                   for k, a in enumerate(doc.get("adjustments") or [])]
    report.adjustments = len(adjustments)
    figures = with_adjustments(tallied(acc, last), adjustments)
    report.standings = standings_rows(entries, names, figures, width=max(info.player_counts), tie_breaks=tie_breaks,
                                      deals=played)
    report.compared_rows = compare_rows(doc.get("standings"), report.standings)
    report.payouts = settle(report.standings, t)
    return report


def standings_rows(entries: dict[int, dict], names: dict[int, str], figures: dict[int, Figures], *, width: int,
                   tie_breaks: list[str], deals: Iterable) -> list[dict]:
    """Every entry's row, ranked as the site ranks them (``standings.rank_rows``)."""
    deals = list(deals)
    rows = []
    for entry_id, e in entries.items():
        withdrawn = bool(e.get("withdrawn") or e.get("withdrawn_at"))
        rows.append({"entry": entry_id, "player": e["player"], "name": names.get(e["player"], ""),
                     "withdrawn": withdrawn, **figures_row(figures.get(entry_id, Figures.none()), width)})
    rank_rows(rows, tie_breaks, head_to_head=lambda groups: head_to_head_nets(groups, deals))
    for r in rows:
        del r["_average_place"]
    return rows


def compare_rows(stored: Any, rows: list[dict]) -> int:
    """The document's standing rows, if it carries any, against the recomputed ones, in order:
    each row's entry (or name) and its ``ROW_FIGURES``. Returns how many were compared."""
    if not stored:
        return 0
    if not isinstance(stored, list) or len(stored) != len(rows):
        raise Disagreement("standings", f"{len(stored) if isinstance(stored, list) else 'no'} stored rows but "
                                        f"{len(rows)} recomputed")
    for k, (row, fresh) in enumerate(zip(stored, rows, strict=True), start=1):
        if not isinstance(row, dict):
            raise Unreadable(f"standings[{k - 1}] is not a row")
        who = "entry" if "entry" in row else "name"
        keys = [who, *(key for key in ROW_FIGURES if key in row)]
        mine, theirs = {key: fresh[key] for key in keys}, {key: row[key] for key in keys}
        if mine != theirs:
            raise Disagreement(f"standings row {k} ({fresh['name']})", f"stored {theirs} but recomputed {mine}")
    return len(rows)


def settle(rows: list[dict], tournament: dict) -> dict:
    """The payouts of the whole tournament (``settle.payouts_of``, as the site's), checked: the
    transfers even out every balance and the money sums to zero."""
    try:
        chip_value = Decimal(_get(tournament, "chip_value", "tournament", str))
    except InvalidOperation:
        raise Unreadable("tournament.chip_value is not a number") from None
    currency = tournament.get("currency") or ""
    ordered = sorted(rows, key=lambda r: (-r["net"], r["name"], r["entry"]))
    settled = payouts_of([(r["entry"], r["name"], r["net"]) for r in ordered], chip_value,
                         minor_unit_decimals(currency))
    left = dict(settled["balances"])
    for payer, payee, chips in settled["transfers"]:
        left[payer] += chips
        left[payee] -= chips
    uneven = [settled["names"][k] for k, v in left.items() if v]
    if uneven:
        raise Disagreement("payouts", f"the transfers leave {', '.join(uneven)} uneven")
    if sum(settled["money"].by_party.values()) != 0:
        raise Disagreement("payouts", "the money does not sum to zero")
    return settled


def verify_text(text: str) -> Report:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise Unreadable(f"not JSON: {e}") from None
    return verify_document(doc)
