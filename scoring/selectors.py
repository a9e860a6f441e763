"""Every read of Gupai Club beyond a plain get. Plain data out (dicts, lists, model objects),
no writes."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Prefetch, Q, QuerySet

import games

from .chain import hash_of_revision
from .errors import NotFound
from .models import ActionLog, Club, Entry, Player, Round, RoundRevision, Seat, Standing, Table, Tournament

if TYPE_CHECKING:  # pragma: no cover
    from .actors import Actor
    from .services import BuiltRecord

_SEAT_INDEX_FIELDS = ("winner", "next_leader", "absolute_winner")
_OUTCOME_FIELDS = ("winner", "next_leader", "next_banker", "blocked", "suanzhang", "transfers", "target",
                   "colour", "absolute_winner", "group_winners", "house")


# ---------------------------------------------------------------------------------------------
# Look-ups

def get_or_404(model, **lookup):
    try:
        return model.objects.get(**lookup)
    except (model.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"No such {model._meta.verbose_name}.") from None


def tournament_get(tournament_id: Any) -> Tournament:
    try:
        return Tournament.objects.select_related("club").get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise NotFound("No such tournament.") from None


def tournament_by_slug(slug: str) -> Tournament:
    try:
        return Tournament.objects.select_related("club").get(slug=slug)
    except Tournament.DoesNotExist:
        raise NotFound("No such tournament.") from None


def table_get(table_id: Any) -> Table:
    try:
        return Table.objects.select_related("session__tournament__club").get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise NotFound("No such table.") from None


def round_get(round_id: Any) -> Round:
    try:
        return Round.objects.select_related("table__session__tournament__club", "current_revision").get(pk=round_id)
    except (Round.DoesNotExist, ValueError, TypeError):
        raise NotFound("No such round.") from None


def round_of_table(table: Table, round_id: Any) -> Round:
    """A deal of this table; NotFound for any other (a scorer link sees one table only)."""
    rnd = round_get(round_id)
    if rnd.table_id != table.pk:
        raise NotFound("No such deal at this table.")
    return rnd


def table_by_scorer_token(token: str | None) -> Table | None:
    """The table whose scorer link holds ``token`` (None if no table does: unknown or rotated)."""
    if not token or not isinstance(token, str) or len(token) > 200:
        return None
    digest = hashlib.sha256(token.encode("utf-8")).hexdigest()
    return Table.objects.select_related("session__tournament__club").filter(scorer_token_hash=digest).first()


# ---------------------------------------------------------------------------------------------
# Clubs, players, tournaments

def club_list_for_user(user) -> QuerySet[Club]:
    if user is None or not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(directors=user)


def player_list(club: Club) -> QuerySet[Player]:
    return Player.objects.filter(club=club).order_by("name")


def tournament_list_for_director(user) -> QuerySet[Tournament]:
    qs = Tournament.objects.select_related("club").annotate(entry_count=Count("entries", distinct=True))
    if user.is_superuser:
        return qs.order_by("-created_at")
    return qs.filter(club__directors=user).order_by("-created_at")


def tournament_list_for_home(user=None) -> list[Tournament]:
    """Public tournaments that are running or finished (running first, newest first), plus, for a
    logged-in director, every tournament of their clubs. Each has ``entry_count``."""
    cond = Q(public=True) & ~Q(status=Tournament.Status.DRAFT)
    if user is not None and getattr(user, "is_authenticated", False):
        cond |= Q(pk__in=tournament_list_for_director(user).values("pk"))
    qs = (Tournament.objects.filter(cond).select_related("club")
          .annotate(entry_count=Count("entries", distinct=True)))
    order = {Tournament.Status.RUNNING: 0, Tournament.Status.DRAFT: 1, Tournament.Status.FINISHED: 2}
    return sorted(qs, key=lambda t: (order[t.status], -t.created_at.timestamp()))


def entry_list(tournament: Tournament) -> QuerySet[Entry]:
    return Entry.objects.filter(tournament=tournament).select_related("player").order_by("player__name")


def players_not_entered(tournament: Tournament) -> QuerySet[Player]:
    """The club's players not yet entered in the tournament, by name."""
    return Player.objects.filter(club=tournament.club_id).exclude(entries__tournament=tournament).order_by("name")


def tournament_list_for_club(club: Club) -> QuerySet[Tournament]:
    return Tournament.objects.filter(club=club).order_by("-created_at")


def table_list(tournament: Tournament) -> QuerySet[Table]:
    return (Table.objects.filter(session__tournament=tournament).select_related("session")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("entry__player")))
            .order_by("session__number", "id"))


# ---------------------------------------------------------------------------------------------
# Tables and seats

def table_seats(table: Table) -> list[Seat]:
    """The table's seats by position, with entry and player."""
    return list(Seat.objects.filter(table=table).select_related("entry__player").order_by("position"))


def round_defaults(table: Table) -> dict:
    """Defaults for the next deal at this table: ``leader`` (connecting games: the last counted
    deal's ``next_leader``, else 0), ``banker`` (Tau Ngau: the last deal's ``next_banker``, else
    0), ``entered_by`` (None) and the next round ``number``."""
    last_any = Round.objects.filter(table=table).order_by("-number").values_list("number", flat=True).first()
    last = Round.objects.filter(table=table).exclude(status=Round.Status.VOIDED).order_by("-number").first()
    game = table.session.tournament.game
    out: dict[str, Any] = {"entered_by": None, "number": (last_any or 0) + 1}
    if game in games.CONNECTING_GAMES:
        out["leader"] = last.next_leader if last is not None and last.next_leader is not None else (
            last.leader if last is not None and last.leader is not None else 0)
    if game == "tau_ngau":
        out["banker"] = last.next_banker if last is not None and last.next_banker is not None else (
            last.banker if last is not None and last.banker is not None else 0)
    return out


def counts_round(tournament: Tournament, rnd: Round) -> bool:
    if rnd.status == Round.Status.VOIDED:
        return False
    if tournament.require_confirmation:
        return rnd.status == Round.Status.CONFIRMED
    return True


def counted_rounds_filter(tournament: Tournament) -> Q:
    if tournament.require_confirmation:
        return Q(status=Round.Status.CONFIRMED)
    return ~Q(status=Round.Status.VOIDED)


def _leader_of(revision: RoundRevision, game: str) -> int | None:
    if game in games.CONNECTING_GAMES:
        return revision.body.get("leader", 0)
    return None


def nets_by_position(revision: RoundRevision, game: str, n: int) -> list[int]:
    """Each table position's net in this revision's result."""
    leader = _leader_of(revision, game)
    seats = revision.result.get("seats", [])
    out = []
    for pos in range(n):
        i = (pos - leader) % n if leader is not None else pos
        out.append(int(seats[i].get("net", 0)) if i < len(seats) else 0)
    return out


def table_running_totals(table: Table) -> list[dict]:
    """Per seat position: ``position, entry, player, name, total, rounds`` — the sum of the
    nets of the table's counted deals."""
    tournament = table.session.tournament
    seats = table_seats(table)
    n = len(seats)
    totals = [0] * n
    rounds = (Round.objects.filter(table=table).filter(counted_rounds_filter(tournament))
              .select_related("current_revision"))
    count = 0
    for rnd in rounds:
        for pos, net in enumerate(nets_by_position(rnd.current_revision, tournament.game, n)):
            totals[pos] += net
        count += 1
    return [{"position": s.position, "entry": s.entry_id, "player": s.entry.player_id, "name": s.entry.player.name,
             "total": totals[s.position], "rounds": count} for s in seats]


def tournament_totals(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """entry id → (total, deals counted) over every counted deal of the tournament."""
    out: dict[int, list[int]] = {}
    seats_by_table: dict[int, list[int]] = {}
    for s in Seat.objects.filter(table__session__tournament=tournament).order_by("table_id", "position"):
        seats_by_table.setdefault(s.table_id, []).append(s.entry_id)
    rounds = (Round.objects.filter(table__session__tournament=tournament).filter(counted_rounds_filter(tournament))
              .select_related("current_revision"))
    for rnd in rounds:
        entries = seats_by_table.get(rnd.table_id, [])
        for pos, net in enumerate(nets_by_position(rnd.current_revision, tournament.game, len(entries))):
            acc = out.setdefault(entries[pos], [0, 0])
            acc[0] += net
            acc[1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


# ---------------------------------------------------------------------------------------------
# Rounds

def result_by_position(*, built: "BuiltRecord", result: dict, seats: list[Seat]) -> tuple[list[dict], dict]:
    """The engine's per-seat results by table position (``players``), and the top-level seat
    indexes mapped to table positions (``outcome``)."""
    res_seats = result.get("seats", [])
    players = []
    for s in seats:
        i = built.record_index(s.position)
        seat_result = res_seats[i] if i < len(res_seats) else {}
        players.append({"position": s.position, "entry": s.entry_id, "player": s.entry.player_id,
                        "name": s.entry.player.name,
                        **{k: v for k, v in seat_result.items() if k != "name"}})
    outcome: dict[str, Any] = {}
    for key in _OUTCOME_FIELDS:
        if key not in result:
            continue
        value = result[key]
        if key in _SEAT_INDEX_FIELDS:
            value = built.position(value)
        elif key == "suanzhang" and isinstance(value, dict):
            value = {**value, "seat": built.position(value.get("seat"))}
        elif key == "transfers" and isinstance(value, list):
            value = [{**t, "from": built.position(t.get("from")), "to": built.position(t.get("to"))} for t in value]
        elif key == "group_winners" and isinstance(value, list):
            value = [built.position(v) for v in value]
        outcome[key] = value
    return players, outcome


def _built_for_revision(revision: RoundRevision, game: str, n: int):
    from .services import BuiltRecord  # the mapping lives with the builder
    leader = _leader_of(revision, game)
    rotated = tuple(k for k in ("points", "unplayed", "unplayed_tiles", "left_in_hand", "hands")
                    if k in revision.record) if leader is not None else ()
    return BuiltRecord(revision.record, revision.body, n, leader=leader, banker=revision.body.get("banker"),
                       entered_by=revision.body.get("entered_by"), rotated=rotated)


def revision_detail(revision: RoundRevision, *, seats: list[Seat], game: str) -> dict:
    built = _built_for_revision(revision, game, len(seats))
    players, outcome = result_by_position(built=built, result=revision.result, seats=seats)
    return {"number": revision.number, "body": revision.body, "record": revision.record, "result": revision.result,
            "players": players, "outcome": outcome, "engine_version": revision.engine_version,
            "actor": revision.actor_label, "reason": revision.reason, "created_at": revision.created_at,
            "prev_hash": revision.prev_hash, "hash": revision.hash}


def round_detail(rnd: Round, *, seats: list[Seat] | None = None) -> dict:
    """The API's round: ``id, table, number, status, disputed, dispute_message, revision,
    leader|banker, entered_by, confirmed_by, record, result, players, outcome, warnings,
    created_at, updated_at``. ``record``/``result`` exactly as the engine saw and returned them;
    ``players`` by table seat position."""
    tournament = rnd.table.session.tournament
    seats = seats if seats is not None else table_seats(rnd.table)
    rev = rnd.current_revision
    built = _built_for_revision(rev, tournament.game, len(seats))
    players, outcome = result_by_position(built=built, result=rev.result, seats=seats)
    d: dict[str, Any] = {"id": rnd.pk, "table": rnd.table_id, "number": rnd.number, "status": rnd.status,
                         "counted": counts_round(tournament, rnd),
                         "disputed": rnd.disputed, "dispute_message": rnd.dispute_message,
                         "revision": rev.number}
    if tournament.game in games.CONNECTING_GAMES:
        d["leader"] = rnd.leader
        d["next_leader"] = rnd.next_leader
    if tournament.game == "tau_ngau":
        d["banker"] = rnd.banker
        d["next_banker"] = rnd.next_banker
    d.update({"entered_by": rnd.entered_by, "confirmed_by": rnd.confirmed_by,
              "confirmed_by_director": rnd.confirmed_by_user.get_username() if rnd.confirmed_by_user_id else None,
              "void_reason": rnd.void_reason,
              "record": rev.record, "result": rev.result, "players": players, "outcome": outcome,
              "warnings": [{**w, "path": built.body_path(w.get("path", ""))} for w in rev.result.get("warnings", [])],
              "created_at": rnd.created_at, "updated_at": rnd.updated_at})
    return d


def round_history(table: Table, *, include_voided: bool = True, newest_first: bool = False,
                  limit: int | None = None) -> list[dict]:
    """The table's deals as ``round_detail`` dicts, in order (or newest first), at most ``limit``
    of them: the slice is taken in the database, so a long table costs nothing extra."""
    seats = table_seats(table)
    qs = (Round.objects.filter(table=table).select_related("current_revision", "confirmed_by_user",
                                                          "table__session__tournament")
          .order_by("-number" if newest_first else "number"))
    if not include_voided:
        qs = qs.exclude(status=Round.Status.VOIDED)
    if limit is not None:
        qs = qs[:limit]
    return [round_detail(r, seats=seats) for r in qs]


def round_revisions(rnd: Round) -> list[dict]:
    """The full history of a deal, oldest first (see ``revision_detail``)."""
    seats = table_seats(rnd.table)
    game = rnd.table.session.tournament.game
    return [revision_detail(rev, seats=seats, game=game)
            for rev in RoundRevision.objects.filter(round=rnd).order_by("number")]


def round_rows(table: Table, *, newest_first: bool = True, limit: int | None = None) -> list[dict]:
    """The table's deals for its pages: ``round_detail`` dicts plus ``entered_by_name``,
    ``confirmed_by_name`` and ``confirm_options`` (``(position, name)`` of the seats that may
    confirm: all but the one that entered it); newest first unless asked otherwise."""
    rows = round_history(table, newest_first=newest_first, limit=limit)
    for d in rows:
        names = [p["name"] for p in d["players"]]
        d["entered_by_name"] = names[d["entered_by"]] if isinstance(d.get("entered_by"), int) else None
        d["confirmed_by_name"] = names[d["confirmed_by"]] if isinstance(d.get("confirmed_by"), int) else None
        d["confirm_options"] = [(p["position"], p["name"]) for p in d["players"] if p["position"] != d.get("entered_by")]
    return rows


def table_history(table: Table) -> list[dict]:
    """Every deal of the table (newest first) as ``round_rows``, each with ``revisions`` (every
    revision, newest first, as ``revision_detail``) and ``chain`` (``round_verify_chain``)."""
    # One query for every revision of the table and one for the seats, not several per deal.
    seats = table_seats(table)
    game = table.session.tournament.game
    current = dict(Round.objects.filter(table=table).values_list("pk", "current_revision_id"))
    revisions: dict[int, list[RoundRevision]] = {}
    for rev in RoundRevision.objects.filter(round__table=table).order_by("round_id", "number"):
        revisions.setdefault(rev.round_id, []).append(rev)
    out = []
    for d in round_rows(table):
        revs = revisions.get(d["id"], [])
        d["revisions"] = [revision_detail(rev, seats=seats, game=game) for rev in reversed(revs)]
        d["chain"] = _verify_chain(revs, current[d["id"]])
        out.append(d)
    return out


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
    return _verify_chain(revs, current)


def _verify_chain(revs: list[RoundRevision], current_revision_id: int | None) -> ChainReport:
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


def disputed_rounds(tournament: Tournament) -> QuerySet[Round]:
    return (Round.objects.filter(table__session__tournament=tournament, disputed=True)
            .select_related("table__session", "current_revision").order_by("disputed_at"))


# ---------------------------------------------------------------------------------------------
# Standings and dashboards

def standings_for(tournament: Tournament) -> list[dict]:
    """Rows ``rank, entry, player, name, total, rounds_counted, payout, currency, updated_at``
    by total (best first); ``payout`` = total × chip value. Entries without a Standing row yet
    count 0. Ties share a rank."""
    standings = {s.entry_id: s for s in Standing.objects.filter(tournament=tournament)}
    rows = []
    for e in entry_list(tournament):
        st = standings.get(e.pk)
        total = st.total if st else 0
        rows.append({"entry": e.pk, "player": e.player_id, "name": e.player.name, "total": total,
                     "rounds_counted": st.rounds_counted if st else 0,
                     "payout": (Decimal(total) * tournament.chip_value).quantize(Decimal("0.01")),
                     "currency": tournament.currency, "updated_at": st.updated_at if st else None})
    rows.sort(key=lambda r: (-r["total"], r["name"]))
    rank, prev = 0, None
    for i, r in enumerate(rows, start=1):
        if r["total"] != prev:
            rank, prev = i, r["total"]
        r["rank"] = rank
    return rows


def payouts_for(tournament: Tournament) -> list[dict]:
    """What each entry wins (+) or pays (-) in money: ``name, total, payout, currency``
    (total × the tournament's chip value), best first."""
    return [{"entry": r["entry"], "name": r["name"], "total": r["total"], "payout": r["payout"],
             "currency": r["currency"]} for r in standings_for(tournament)]


def tournament_dashboard(tournament: Tournament) -> dict:
    """What a director's tournament page shows: ``tournament``, ``disputed`` (round_detail
    dicts, oldest dispute first), ``sessions`` (each ``{"session", "tables": [{"table", "seats"
    (running totals), "rounds", "last_round", "disputed", "unconfirmed", "scorer_token_created_at"}]}``),
    ``entries``, ``unseated`` (entries without a seat in the latest session), ``standings`` and
    ``recent_actions``.

    The QR code of a scorer link can only be drawn when the plain token is known: right after
    ``table_create`` / ``table_scorer_token_rotate`` (tokens are stored hashed). The dashboard
    offers "rotate" instead."""
    tables = list(table_list(tournament))
    stats = {row["table"]: row for row in Round.objects.filter(table__in=tables).values("table").annotate(
        rounds=Count("id", filter=~Q(status=Round.Status.VOIDED)),
        disputed=Count("id", filter=Q(disputed=True)),
        unconfirmed=Count("id", filter=Q(status=Round.Status.RECORDED)))}
    sessions: dict[int, dict] = {}
    for t in tables:
        st = stats.get(t.pk, {})
        sessions.setdefault(t.session.number, {"session": t.session, "tables": []})["tables"].append({
            "table": t, "seats": table_running_totals(t), "rounds": st.get("rounds", 0),
            "disputed": st.get("disputed", 0), "unconfirmed": st.get("unconfirmed", 0),
            "last_round": Round.objects.filter(table=t).order_by("-number").first(),
            "scorer_token_created_at": t.scorer_token_created_at,
        })
    for s in tournament.sessions.all():
        sessions.setdefault(s.number, {"session": s, "tables": []})
    disputed = [round_detail(r) for r in disputed_rounds(tournament)]
    latest = max(sessions) if sessions else None
    seated = set(Seat.objects.filter(table__session__tournament=tournament, table__session__number=latest)
                 .values_list("entry_id", flat=True)) if latest else set()
    entries = list(entry_list(tournament))
    return {
        "tournament": tournament,
        "disputed": disputed,
        "sessions": [sessions[k] for k in sorted(sessions)],
        "entries": entries,
        "unseated": [e for e in entries if e.pk not in seated],
        "standings": standings_for(tournament),
        "recent_actions": list(ActionLog.objects.filter(tournament=tournament).exclude(action="standings_refresh")
                               .order_by("-created_at", "-id")[:20]),
    }


def action_log_for(tournament: Tournament, *, limit: int = 100) -> QuerySet[ActionLog]:
    return ActionLog.objects.filter(tournament=tournament).order_by("-created_at", "-id")[:limit]


# ---------------------------------------------------------------------------------------------
# Scorer links

def scorer_path(token: str) -> str:
    """The scorer page of a table: ``/s/<token>/``."""
    return f"/s/{token}/"


def scorer_url(token: str, request=None) -> str:
    path = scorer_path(token)
    return request.build_absolute_uri(path) if request is not None else path


def qr_svg(url: str, *, scale: int = 4) -> str:
    """An inline SVG QR code of ``url`` (segno), for the page shown right after create/rotate."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=scale, xmldecl=False, svgns=True, border=2)
    return out.getvalue().decode("utf-8")


def actor_can_read_tournament(actor: "Actor", tournament: Tournament) -> bool:
    from .actors import is_director_of
    return is_director_of(actor, tournament.club)
