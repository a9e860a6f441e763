"""Every write of Gupai Club (HackSoft style: ``<thing>_<action>``, keyword-only arguments).

Each service
- checks who may do it (``actor``: a ``scoring.actors.Actor``) and the state of the thing,
- runs in one ``transaction.atomic()``,
- writes one ActionLog row (who, what, target, data, ip),
- enqueues follow-up Celery tasks with ``transaction.on_commit`` (standings after round writes),
- raises ``scoring.errors`` exceptions (ValidationFailed, PermissionDenied, NotFound, Conflict,
  PreconditionFailed, PreconditionRequired, IdempotencyKeyReused) that views map to HTTP.

``round_build_record`` and ``round_preview`` are pure (they read, never write): they turn a
request body (seats by table position) into the engine's record (seats in playing order),
evaluate it, and map the answer back to table positions. Recording and correcting share them.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify

import games

from . import selectors
from .actors import Actor, require_director, require_director_of, require_table_access
from .chain import canonical_json, revision_hash, sha256_hex
from .errors import (Conflict, IdempotencyKeyReused, PermissionDenied, PreconditionFailed,
                     PreconditionRequired, ValidationFailed, problem)
from .models import (ActionLog, Club, Entry, IdempotencyKey, Player, Round, RoundRevision, Seat, Session,
                     Standing, Table, Tournament)

#: Players at a table, by game (RULES.md §1.4).
SEAT_COUNTS: dict[str, range] = {
    "jie_long": range(2, 5),
    "ce_deng": range(4, 5),
    "kko_li_but_i_gi": range(2, 5),
    "ding_niu": range(4, 5),
    "tau_ngau": range(3, 7),
    "da_ling": range(2, 6),
}

#: Body fields that are the service's, not the engine's; stripped before evaluation.
BODY_ONLY_FIELDS = ("leader", "banker", "entered_by", "reason")
#: Record fields that the table knows; refused in a body.
TABLE_FIELDS = ("game", "variant", "seats")
#: Per-seat lists of connecting-game records: by table position in the body, rotated to
#: playing order (leader first) in the record.
PER_SEAT_FIELDS = ("points", "unplayed", "unplayed_tiles", "left_in_hand", "hands")

DIRECTORS_GROUP = "Directors"
IDEMPOTENCY_KEY_TTL = timedelta(hours=24)
MAX_IDEMPOTENCY_KEY = 255


# =============================================================================================
# Helpers

def _log(actor: Actor, action: str, target: Any = None, *, tournament: Tournament | None = None,
         data: dict | None = None) -> ActionLog:
    return ActionLog.objects.create(
        actor_user=actor.user_or_none,
        actor_label=actor.label[:200],
        action=action,
        target_model=type(target).__name__ if target is not None else "",
        target_id=str(target.pk) if target is not None and target.pk is not None else "",
        tournament=tournament,
        data=_jsonable(data or {}),
        ip=actor.ip or None,
    )


def _jsonable(value: Any) -> Any:
    import json
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def _enqueue_standings(tournament_id: int) -> None:
    from . import tasks  # late import: tasks import services
    # robust: the deal is stored whatever happens to the refresh (broker down, ...); the error
    # is logged and the next write refreshes again.
    transaction.on_commit(lambda: tasks.standings_refresh.delay(tournament_id), robust=True)


def _unique_slug(model, base: str, *, max_length: int = 80) -> str:
    base = (slugify(base) or "x")[: max_length - 8]
    slug, i = base, 2
    while model.objects.filter(slug=slug).exists():
        slug = f"{base}-{i}"
        i += 1
    return slug


def _require_text(value: Any, path: str, what: str, *, max_length: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationFailed(f"{what} is required.", path=path, code="required")
    value = value.strip()
    if len(value) > max_length:
        raise ValidationFailed(f"{what} has at most {max_length} characters.", path=path, code="too_long")
    return value


def _fresh_status(tournament: Tournament) -> str:
    """The status in the database (objects passed in may be stale)."""
    status = Tournament.objects.filter(pk=tournament.pk).values_list("status", flat=True).first()
    tournament.status = status or tournament.status
    return tournament.status


def _require_not_finished(tournament: Tournament) -> None:
    if _fresh_status(tournament) == Tournament.Status.FINISHED:
        raise Conflict("This tournament is finished; it is read-only.", code="tournament_finished")


def _require_running(tournament: Tournament) -> None:
    if _fresh_status(tournament) != Tournament.Status.RUNNING:
        if tournament.status == Tournament.Status.FINISHED:
            raise Conflict("This tournament is finished; it is read-only.", code="tournament_finished")
        raise Conflict("This tournament has not started yet; start it before recording deals.",
                       code="tournament_not_running")


def _is_seat(value: Any, n: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


def new_scorer_token() -> tuple[str, str]:
    """A fresh plain token and its sha256 hex (the only thing stored)."""
    token = secrets.token_urlsafe(24)
    return token, sha256_hex(token)


# =============================================================================================
# Directors, clubs, players

def director_create(*, username: str, password: str, email: str = "", clubs: Iterable[Club] = (),
                    actor: Actor | None = None) -> Any:
    """A director: a staff user in the "Directors" group (admin rights on every scoring model),
    added as a director of ``clubs``."""
    actor = actor or Actor.system()
    require_director(actor)
    username = _require_text(username, "username", "A username", max_length=150)
    if not isinstance(password, str) or len(password) < 8:
        raise ValidationFailed("The password needs at least 8 characters.", path="password", code="too_short")
    User = get_user_model()
    with transaction.atomic():
        if User.objects.filter(username=username).exists():
            raise Conflict(f"A user named {username!r} already exists.", path="username", code="exists")
        user = User.objects.create_user(username=username, password=password, email=email, is_staff=True)
        user.groups.add(_directors_group())
        for club in clubs:
            club.directors.add(user)
        _log(actor, "director_create", user, data={"username": username, "clubs": [c.pk for c in clubs]})
    return user


def _directors_group() -> Group:
    group, created = Group.objects.get_or_create(name=DIRECTORS_GROUP)
    if created or not group.permissions.exists():
        group.permissions.set(Permission.objects.filter(content_type__app_label="scoring"))
    return group


def club_create(*, actor: Actor, name: str, slug: str | None = None) -> Club:
    """A club; the director who creates it becomes one of its directors."""
    require_director(actor)
    name = _require_text(name, "name", "A club name", max_length=120)
    with transaction.atomic():
        if slug:
            slug = slugify(slug)
            if not slug or Club.objects.filter(slug=slug).exists():
                raise Conflict("This slug is taken or empty.", path="slug", code="slug_taken")
        club = Club.objects.create(name=name, slug=slug or _unique_slug(Club, name))
        if actor.user_or_none is not None:
            club.directors.add(actor.user)
        _log(actor, "club_create", club, data={"name": name, "slug": club.slug})
    return club


def club_director_add(*, actor: Actor, club: Club, user: Any) -> None:
    require_director_of(actor, club)
    with transaction.atomic():
        club.directors.add(user)
        _log(actor, "club_director_add", club, data={"user": user.pk, "username": user.get_username()})


def player_create(*, actor: Actor, club: Club, name: str) -> Player:
    require_director_of(actor, club)
    name = _require_text(name, "name", "A player name", max_length=100)
    with transaction.atomic():
        if Player.objects.filter(club=club, name=name).exists():
            raise Conflict(f"{name} is already a player of this club.", path="name", code="exists")
        player = Player.objects.create(club=club, name=name)
        _log(actor, "player_create", player, data={"club": club.pk, "name": name})
    return player


# =============================================================================================
# Tournaments

def tournament_variant_check(*, game: str, variant: Any) -> dict:
    """The full variant (defaults + given keys), or ValidationFailed with one error per bad key."""
    if game not in games.GAMES:
        raise ValidationFailed(f"Unknown game; choose one of {', '.join(games.GAMES)}.", path="game",
                               code="unknown_game")
    if variant is None:
        variant = {}
    if not isinstance(variant, dict):
        raise ValidationFailed("variant must be an object of rule options.", path="variant", code="bad_type")
    spec = games.VARIANTS[game]
    errors = []
    for key, value in variant.items():
        if key not in spec:
            errors.append(problem(f"variant.{key}", "unknown_variant",
                                  f"{games.GAME_NAMES[game]} has no rule option {key!r}."))
        elif not spec[key][1](value):
            errors.append(problem(f"variant.{key}", "bad_variant", f"{key} must be {spec[key][2]}."))
    if errors:
        raise ValidationFailed(errors=errors)
    return {**games.variant_defaults(game), **variant}


def _chip_value(value: Any) -> Decimal:
    try:
        d = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise ValidationFailed("chip_value must be a number.", path="chip_value", code="bad_type") from None
    if not d.is_finite() or d < 0 or d >= Decimal("100000000"):
        raise ValidationFailed("chip_value must be between 0 and 99999999.99.", path="chip_value",
                               code="out_of_range")
    return d.quantize(Decimal("0.01"))


def tournament_create(*, actor: Actor, club: Club, name: str, game: str, variant: dict | None = None,
                      slug: str | None = None, public: bool = False, require_confirmation: bool = False,
                      chip_value: Any = 0, currency: str = "") -> Tournament:
    require_director_of(actor, club)
    name = _require_text(name, "name", "A tournament name", max_length=120)
    full_variant = tournament_variant_check(game=game, variant=variant)
    chips = _chip_value(chip_value)
    currency = (currency or "").strip().upper()
    if len(currency) > 3:
        raise ValidationFailed("currency is a 3-letter code like EUR.", path="currency", code="bad_currency")
    with transaction.atomic():
        if slug:
            slug = slugify(slug)
            if not slug or Tournament.objects.filter(slug=slug).exists():
                raise Conflict("This slug is taken or empty.", path="slug", code="slug_taken")
        t = Tournament.objects.create(
            club=club, name=name, slug=slug or _unique_slug(Tournament, name), game=game, variant=full_variant,
            public=bool(public), require_confirmation=bool(require_confirmation), chip_value=chips,
            currency=currency)
        _log(actor, "tournament_create", t, tournament=t,
             data={"name": name, "game": game, "variant": full_variant, "public": t.public,
                   "require_confirmation": t.require_confirmation, "chip_value": str(chips), "currency": currency})
    return t


def tournament_update(*, actor: Actor, tournament: Tournament, **changes: Any) -> Tournament:
    """Change ``name``, ``public``, ``require_confirmation``, ``chip_value``, ``currency`` (any
    time before finished) or ``variant`` (draft only)."""
    allowed = {"name", "public", "require_confirmation", "chip_value", "currency", "variant"}
    unknown = set(changes) - allowed
    if unknown:
        raise ValidationFailed(errors=[problem(k, "unknown_field", f"{k} cannot be changed.") for k in sorted(unknown)])
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        require_director_of(actor, t.club)
        _require_not_finished(t)
        if "name" in changes:
            t.name = _require_text(changes["name"], "name", "A tournament name", max_length=120)
        if "public" in changes:
            t.public = bool(changes["public"])
        if "require_confirmation" in changes:
            t.require_confirmation = bool(changes["require_confirmation"])
        if "chip_value" in changes:
            t.chip_value = _chip_value(changes["chip_value"])
        if "currency" in changes:
            t.currency = (changes["currency"] or "").strip().upper()[:3]
        if "variant" in changes:
            if t.status != Tournament.Status.DRAFT:
                raise Conflict("The rules cannot change once the tournament has started.", path="variant",
                               code="tournament_started")
            t.variant = tournament_variant_check(game=t.game, variant=changes["variant"])
        t.save()
        _log(actor, "tournament_update", t, tournament=t, data=changes)
        if "require_confirmation" in changes:
            _enqueue_standings(t.pk)
    return t


#: The status pipeline: action -> (from, to, the time field it stamps, the verb of the refusal).
_TOURNAMENT_MOVES = {
    "tournament_start": (Tournament.Status.DRAFT, Tournament.Status.RUNNING, "started_at", "start"),
    "tournament_finish": (Tournament.Status.RUNNING, Tournament.Status.FINISHED, "finished_at", "finish"),
}


def _tournament_move(*, actor: Actor, tournament: Tournament, action: str) -> Tournament:
    source, target, stamp, verb = _TOURNAMENT_MOVES[action]
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        require_director_of(actor, t.club)
        if t.status != source:
            raise Conflict(f"Only a {source} tournament can {verb}; this one is {t.status}.", code="bad_status")
        t.status = target
        setattr(t, stamp, timezone.now())
        t.save(update_fields=["status", stamp])
        _log(actor, action, t, tournament=t)
        if target == Tournament.Status.FINISHED:
            _enqueue_standings(t.pk)
    tournament.status = t.status
    setattr(tournament, stamp, getattr(t, stamp))
    return t


def tournament_start(*, actor: Actor, tournament: Tournament) -> Tournament:
    """draft → running."""
    return _tournament_move(actor=actor, tournament=tournament, action="tournament_start")


def tournament_finish(*, actor: Actor, tournament: Tournament) -> Tournament:
    """running → finished (read-only from then on). Standings are refreshed on commit."""
    return _tournament_move(actor=actor, tournament=tournament, action="tournament_finish")


def entry_create(*, actor: Actor, tournament: Tournament, player: Player) -> Entry:
    require_director_of(actor, tournament.club)
    _require_not_finished(tournament)
    if player.club_id != tournament.club_id:
        raise ValidationFailed("This player belongs to another club.", path="player", code="other_club")
    with transaction.atomic():
        if Entry.objects.filter(tournament=tournament, player=player).exists():
            raise Conflict(f"{player.name} is already registered.", path="player", code="exists")
        entry = Entry.objects.create(tournament=tournament, player=player)
        Standing.objects.create(tournament=tournament, entry=entry)
        _log(actor, "entry_create", entry, tournament=tournament, data={"player": player.pk, "name": player.name})
    return entry


# =============================================================================================
# Sessions and tables

def session_create(*, actor: Actor, tournament: Tournament) -> Session:
    """The next session (sitting) of the tournament."""
    require_director_of(actor, tournament.club)
    _require_not_finished(tournament)
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        number = (tournament.sessions.aggregate(m=Max("number"))["m"] or 0) + 1
        session = Session.objects.create(tournament=tournament, number=number)
        _log(actor, "session_create", session, tournament=tournament, data={"number": number})
    return session


def table_create(*, actor: Actor, tournament: Tournament, name: str, entries: list,
                 session: int | Session | None = None) -> tuple[Table, str]:
    """A table with ``entries`` (Entry objects or ids) at seat positions 0..N-1, in that order
    (counter-clockwise = playing order). ``session``: a Session, a session number (created if
    missing), or None (the latest session, session 1 created if there is none).

    Returns ``(table, plain_scorer_token)``: the token is not stored and cannot be shown again.
    """
    require_director_of(actor, tournament.club)
    _require_not_finished(tournament)
    name = _require_text(name, "name", "A table name", max_length=60)
    if not isinstance(entries, (list, tuple)):
        raise ValidationFailed("entries must be a list of entry ids in seat order.", path="entries", code="bad_type")
    allowed = SEAT_COUNTS[tournament.game]
    if len(entries) not in allowed:
        raise ValidationFailed(
            f"{games.GAME_NAMES[tournament.game]} is played by {allowed.start} to {allowed.stop - 1} players, "
            f"not {len(entries)}." if len(allowed) > 1 else
            f"{games.GAME_NAMES[tournament.game]} is played by exactly {allowed.start} players, not {len(entries)}.",
            path="entries", code="wrong_player_count")
    ids = [e.pk if isinstance(e, Entry) else e for e in entries]
    errors = []
    for i, eid in enumerate(ids):
        if not isinstance(eid, int) or isinstance(eid, bool):
            errors.append(problem(f"entries[{i}]", "bad_type", "Each seat needs an entry id."))
        elif eid in ids[:i]:
            errors.append(problem(f"entries[{i}]", "duplicate_entry", "This entry already has a seat at this table."))
    if errors:
        raise ValidationFailed(errors=errors)
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        found = {e.pk: e for e in Entry.objects.filter(tournament=tournament, pk__in=ids).select_related("player")}
        errors = [problem(f"entries[{i}]", "not_found", "No such entry in this tournament.")
                  for i, eid in enumerate(ids) if eid not in found]
        if errors:
            raise ValidationFailed(errors=errors)
        if isinstance(session, Session):
            if session.tournament_id != tournament.pk:
                raise ValidationFailed("This session belongs to another tournament.", path="session", code="other_tournament")
            sess = session
        elif session is None:
            sess = tournament.sessions.order_by("-number").first()
            if sess is None:
                sess = Session.objects.create(tournament=tournament, number=1)
                _log(actor, "session_create", sess, tournament=tournament, data={"number": 1})
        else:
            if not isinstance(session, int) or isinstance(session, bool) or session < 1:
                raise ValidationFailed("session is a session number (1, 2, ...).", path="session", code="bad_type")
            sess, created = Session.objects.get_or_create(tournament=tournament, number=session)
            if created:
                _log(actor, "session_create", sess, tournament=tournament, data={"number": session})
        busy = Seat.objects.filter(table__session=sess, entry_id__in=ids).select_related("table", "entry__player")
        errors = [problem(f"entries[{ids.index(s.entry_id)}]", "already_seated",
                          f"{s.entry.player.name} already sits at {s.table.name} in this session.") for s in busy]
        if errors:
            raise ValidationFailed(errors=errors)
        if Table.objects.filter(session=sess, name=name).exists():
            raise Conflict(f"Session {sess.number} already has a table named {name}.", path="name", code="exists")
        token, token_hash = new_scorer_token()
        table = Table.objects.create(session=sess, name=name, scorer_token_hash=token_hash,
                                     scorer_token_created_at=timezone.now())
        Seat.objects.bulk_create([Seat(table=table, position=i, entry=found[eid]) for i, eid in enumerate(ids)])
        _log(actor, "table_create", table, tournament=tournament,
             data={"name": name, "session": sess.number,
                   "seats": [{"position": i, "entry": eid, "name": found[eid].player.name} for i, eid in enumerate(ids)]})
    return table, token


def table_scorer_token_rotate(*, actor: Actor, table: Table) -> str:
    """A new scorer token for the table; the old link stops working at once. Returns the plain
    token (shown once)."""
    require_director_of(actor, table.session.tournament.club)
    _require_not_finished(table.session.tournament)
    with transaction.atomic():
        token, token_hash = new_scorer_token()
        Table.objects.filter(pk=table.pk).update(scorer_token_hash=token_hash, scorer_token_created_at=timezone.now())
        _log(actor, "table_scorer_token_rotate", table, tournament=table.session.tournament)
    table.refresh_from_db()
    return token


# =============================================================================================
# Round records: body (by table position) → record (playing order) → engine → back

@dataclass
class BuiltRecord:
    """A body turned into an engine record. ``errors`` (body-relative) when it cannot be built."""

    record: dict | None
    body: dict                     # the body as understood: service fields resolved, seats by position
    n: int
    leader: int | None = None      # connecting games: table position of seats[0]
    banker: int | None = None      # Tau Ngau: table position of the banker
    entered_by: int | None = None
    rotated: tuple[str, ...] = ()  # per-seat fields rotated into playing order
    errors: list[dict] = field(default_factory=list)

    def record_index(self, position: int) -> int:
        """Index in the record's seats of a table position."""
        return (position - self.leader) % self.n if self.leader is not None else position

    def position(self, index: Any) -> Any:
        """Table position of a record seat index (other values unchanged)."""
        if self.leader is None or not isinstance(index, int) or isinstance(index, bool):
            return index
        return (self.leader + index) % self.n

    def body_path(self, path: str) -> str:
        """An engine error path, relative to the body."""
        if self.leader is not None:
            m = re.match(r"^([a-z_]+)\[(\d+)\](.*)$", path)
            if m and m.group(1) in self.rotated:
                return f"{m.group(1)}[{self.position(int(m.group(2)))}]{m.group(3)}"
        if re.match(r"^seats(\[\d+\])?$", path):
            return ""
        return path


def round_build_record(*, table: Table, body: Any, defaults: dict | None = None,
                       seats: list[Seat] | None = None) -> BuiltRecord:
    """Build the engine record of a deal from a request body. Pure (reads only).

    ``defaults``: ``{"leader", "banker", "entered_by"}`` used when the body leaves them out;
    None = those of a new deal at this table (``selectors.round_defaults``).
    """
    tournament = table.session.tournament
    game = tournament.game
    seats = seats if seats is not None else selectors.table_seats(table)
    n = len(seats)
    if not isinstance(body, dict):
        return BuiltRecord(None, {}, n, errors=[problem("", "not_an_object", "The deal must be a JSON object.")])
    if defaults is None:
        defaults = selectors.round_defaults(table)
    errors: list[dict] = []
    for key in TABLE_FIELDS:
        if key in body:
            errors.append(problem(key, "set_by_table",
                                  f"Leave out {key}: the table knows its game, rules and seats."))
    connecting = game in games.CONNECTING_GAMES
    resolved: dict[str, Any] = {}
    # The seat that starts the deal: the leader in connecting games, the banker in Tau Ngau.
    for key, applies, refusal in (("leader", connecting, "leader is the seat position (0 to {last}) that led."),
                                  ("banker", game == "tau_ngau", "banker is the banker's seat position (0 to {last}).")):
        if not applies:
            if key in body:
                errors.append(problem(key, "unknown_field", f"{games.GAME_NAMES[game]} has no {key}."))
            continue
        seat = body.get(key, defaults.get(key, 0))
        if seat is None:
            seat = defaults.get(key) or 0
        if not _is_seat(seat, n):
            errors.append(problem(key, "bad_seat", refusal.format(last=n - 1)))
        resolved[key] = seat
    entered_by = body.get("entered_by", defaults.get("entered_by"))
    if entered_by is not None and not _is_seat(entered_by, n):
        errors.append(problem("entered_by", "bad_seat",
                              f"entered_by is the seat position (0 to {n - 1}) of the player entering the deal."))
    resolved["entered_by"] = entered_by
    content = {k: v for k, v in body.items() if k not in BODY_ONLY_FIELDS and k not in TABLE_FIELDS}
    normal_body = {**content, **resolved}
    built = BuiltRecord(None, normal_body, n, leader=resolved.get("leader") if connecting else None,
                        banker=resolved.get("banker"), entered_by=entered_by, errors=errors)
    if errors:
        built.leader = None if not _is_seat(built.leader, n) else built.leader
        return built
    names = [s.entry.player.name for s in seats]
    record: dict[str, Any] = {"game": game, "variant": dict(tournament.variant)}
    if connecting:
        lead = built.leader
        record["seats"] = [names[(lead + i) % n] for i in range(n)]
        rotated = []
        for key, value in content.items():
            if key in PER_SEAT_FIELDS and isinstance(value, list) and len(value) == n:
                record[key] = [value[(lead + i) % n] for i in range(n)]
                rotated.append(key)
            elif key == "suanzhang" and isinstance(value, dict) and _is_seat(value.get("seat"), n):
                record[key] = {**value, "seat": (value["seat"] - lead) % n}
            else:
                record[key] = value
        built.rotated = tuple(rotated)
    else:
        record["seats"] = names
        if game == "tau_ngau":
            record["banker"] = built.banker
        record.update(content)
    built.record = record
    return built


@dataclass
class RoundPreview:
    """A deal evaluated but not stored: what ``round_preview`` returns."""

    ok: bool
    record: dict | None
    result: dict | None
    errors: list[dict]             # body-relative paths
    warnings: list[dict]           # body-relative paths
    body: dict
    leader: int | None
    banker: int | None
    entered_by: int | None
    next_leader: int | None = None
    next_banker: int | None = None
    players: list[dict] = field(default_factory=list)   # by table position
    outcome: dict = field(default_factory=dict)         # seat indexes as table positions

    def as_dict(self) -> dict:
        d = {"ok": self.ok, "record": self.record, "result": self.result, "players": self.players,
             "outcome": self.outcome, "entered_by": self.entered_by, "errors": self.errors,
             "warnings": self.warnings}
        if self.leader is not None:
            d["leader"] = self.leader
        if self.banker is not None:
            d["banker"] = self.banker
        return d


def round_preview(*, table: Table, body: Any, round: Round | None = None) -> RoundPreview:
    """Evaluate a body at this table without storing anything. ``round``: the deal being
    corrected (its leader/banker/entered_by are the defaults), None for a new deal."""
    seats = selectors.table_seats(table)
    defaults = None
    if round is not None:
        defaults = {"leader": round.leader, "banker": round.banker, "entered_by": round.entered_by}
    built = round_build_record(table=table, body=body, defaults=defaults, seats=seats)
    if built.errors:
        return RoundPreview(False, None, None, built.errors, [], built.body, built.leader, built.banker,
                            built.entered_by)
    result = games.evaluate(built.record)
    if not result.get("ok"):
        errors = [{**e, "path": built.body_path(e.get("path", ""))} for e in result.get("errors", [])]
        return RoundPreview(False, built.record, result, errors, [], built.body, built.leader, built.banker,
                            built.entered_by)
    warnings = [{**w, "path": built.body_path(w.get("path", ""))} for w in result.get("warnings", [])]
    players, outcome = selectors.result_by_position(built=built, result=result, seats=seats)
    return RoundPreview(True, built.record, result, [], warnings, built.body, built.leader, built.banker,
                        built.entered_by, next_leader=outcome.get("next_leader"),
                        next_banker=outcome.get("next_banker"), players=players, outcome=outcome)


def _evaluated_or_raise(table: Table, body: Any, round: Round | None = None) -> RoundPreview:
    preview = round_preview(table=table, body=body, round=round)
    if not preview.ok:
        raise ValidationFailed(errors=preview.errors)
    return preview


def _add_revision(*, round: Round, number: int, preview: RoundPreview, actor: Actor, reason: str,
                  prev_hash: str) -> RoundRevision:
    created_at = timezone.now()
    body, record, result = _jsonable(preview.body), _jsonable(preview.record), _jsonable(preview.result)
    rev = RoundRevision(round=round, number=number, body=body, record=record, result=result,
                        engine_version=games.ENGINE_VERSION, actor_user=actor.user_or_none,
                        actor_label=actor.label[:200], reason=reason, created_at=created_at, prev_hash=prev_hash)
    rev.hash = revision_hash(prev_hash=prev_hash, round_id=round.pk, number=number, body=body, record=record,
                             result=result, engine_version=rev.engine_version, actor_label=rev.actor_label,
                             reason=reason, created_at=created_at)
    rev.save()
    return rev


def _apply_preview(round: Round, preview: RoundPreview) -> None:
    round.leader = preview.leader
    round.banker = preview.banker
    round.entered_by = preview.entered_by
    round.next_leader = preview.next_leader
    round.next_banker = preview.next_banker


# =============================================================================================
# Rounds

def round_record(*, actor: Actor, table: Table, body: Any) -> Round:
    """Record a new deal at ``table``: evaluate, store Round + revision 1, log, refresh standings
    on commit. Scorers: their own table, running tournaments only. Directors: any table of their
    club while running."""
    require_table_access(actor, table)
    with transaction.atomic():
        return _round_record_locked(actor=actor, table=table, body=body)


def _round_record_locked(*, actor: Actor, table: Table, body: Any) -> Round:
    locked = Table.objects.select_for_update(of=("self",)).select_related("session__tournament__club").get(pk=table.pk)
    tournament = locked.session.tournament
    _require_running(tournament)
    preview = _evaluated_or_raise(locked, body)
    number = (Round.objects.filter(table=locked).aggregate(m=Max("number"))["m"] or 0) + 1
    rnd = Round(table=locked, number=number, status=Round.Status.RECORDED)
    _apply_preview(rnd, preview)
    rnd.save()
    rev = _add_revision(round=rnd, number=1, preview=preview, actor=actor, reason="", prev_hash="")
    rnd.current_revision = rev
    rnd.save(update_fields=["current_revision"])
    _log(actor, "round_record", rnd, tournament=tournament,
         data={"table": locked.pk, "number": number, "revision": 1, "hash": rev.hash})
    _enqueue_standings(tournament.pk)
    return rnd


@dataclass
class IdempotentOutcome:
    """The answer to a round creation with an Idempotency-Key: the first one, or its replay."""

    status: int
    body: dict
    round_id: int | None
    replayed: bool


def idempotency_request_hash(body: Any) -> str:
    return sha256_hex(canonical_json(body))


def round_record_idempotent(*, actor: Actor, table: Table, body: Any, key: str) -> IdempotentOutcome:
    """``round_record`` exactly once per (table, key).

    The key row is inserted first, in the same transaction as the round: a concurrent request
    with the same key blocks on the unique index (PostgreSQL) until the first commits, then
    finds and replays the stored answer. Same key with another body: IdempotencyKeyReused (422).
    An invalid body stores nothing, key included (a retry is evaluated again).
    """
    require_table_access(actor, table)
    if not isinstance(key, str) or not key.strip() or len(key) > MAX_IDEMPOTENCY_KEY:
        raise ValidationFailed(f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} characters.",
                               path="", code="bad_idempotency_key")
    request_hash = idempotency_request_hash(body)
    with transaction.atomic():
        try:
            with transaction.atomic():
                idem = IdempotencyKey.objects.create(table_id=table.pk, key=key, request_hash=request_hash)
        except IntegrityError:
            idem = IdempotencyKey.objects.get(table_id=table.pk, key=key)
            if idem.request_hash != request_hash:
                raise IdempotencyKeyReused(
                    "This Idempotency-Key was already used with a different body; use a new key for a new deal.")
            return IdempotentOutcome(idem.response_status, idem.response_body, idem.round_id, True)
        rnd = _round_record_locked(actor=actor, table=table, body=body)
        idem.response_status = 201
        idem.response_body = _jsonable(selectors.round_detail(rnd))
        idem.round = rnd
        idem.save(update_fields=["response_status", "response_body", "round"])
    return IdempotentOutcome(201, idem.response_body, rnd.pk, False)


def _parse_revision(value: Any) -> int | None:
    """``3``, ``"3"``, ``'"3"'`` or ``'W/"3"'`` → 3."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        v = value.strip()
        if v.startswith("W/"):
            v = v[2:]
        v = v.strip('"')
        if v.isdigit():
            return int(v)
    return None


def round_correct(*, actor: Actor, round: Round, body: Any, reason: Any, expected_revision: Any) -> Round:
    """A correction: a new revision of ``round`` from a full new body (as for creation).

    ``expected_revision`` (the If-Match): None → PreconditionRequired (428); not the current
    revision → PreconditionFailed (412). ``reason`` is required. Scorers may correct their
    table's rounds until confirmed; directors always (until the tournament is finished). A
    director's correction of a confirmed round keeps it confirmed (by the director)."""
    table = round.table
    require_table_access(actor, table)
    if expected_revision is None or expected_revision == "":
        raise PreconditionRequired('Send If-Match: "<revision>" with the revision you are correcting.')
    expected = _parse_revision(expected_revision)
    if expected is None:
        raise ValidationFailed('If-Match must be a revision number like "2".', path="", code="bad_if_match")
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationFailed("Say why the deal is corrected.", path="reason", code="required")
    with transaction.atomic():
        rnd = Round.objects.select_for_update(of=("self",)).select_related("current_revision", "table__session__tournament").get(pk=round.pk)
        tournament = rnd.table.session.tournament
        _require_running(tournament)
        if rnd.status == Round.Status.VOIDED:
            raise Conflict("This deal is voided; it cannot be corrected.", code="round_voided")
        if actor.is_scorer and rnd.status == Round.Status.CONFIRMED:
            raise PermissionDenied("This deal is confirmed; only a director can correct it now.",
                                   code="round_confirmed")
        current = rnd.current_revision
        if expected != current.number:
            raise PreconditionFailed(
                f"The deal has changed: revision {current.number} is current, not {expected}. Reload and try again.")
        preview = _evaluated_or_raise(rnd.table, body, round=rnd)
        rev = _add_revision(round=rnd, number=current.number + 1, preview=preview, actor=actor,
                            reason=reason.strip(), prev_hash=current.hash)
        _apply_preview(rnd, preview)
        rnd.current_revision = rev
        if rnd.status == Round.Status.CONFIRMED:  # only a director gets here
            rnd.confirmed_by, rnd.confirmed_by_user, rnd.confirmed_at = None, actor.user_or_none, timezone.now()
        rnd.save()
        _log(actor, "round_correct", rnd, tournament=tournament,
             data={"revision": rev.number, "reason": rev.reason, "hash": rev.hash})
        _enqueue_standings(tournament.pk)
    return rnd


def round_confirm(*, actor: Actor, round: Round, confirmed_by: Any = None) -> Round:
    """Confirm a recorded deal. A director may (``confirmed_by`` optional); a scorer link only
    naming a seat ``confirmed_by`` other than ``entered_by`` (Bridgemate: the device passes
    across the table). Disputed deals need a director."""
    table = round.table
    require_table_access(actor, table)
    with transaction.atomic():
        rnd = Round.objects.select_for_update(of=("self",)).select_related("table__session__tournament").get(pk=round.pk)
        tournament = rnd.table.session.tournament
        _require_running(tournament)
        if rnd.status == Round.Status.CONFIRMED:
            raise Conflict("This deal is already confirmed.", code="already_confirmed")
        if rnd.status == Round.Status.VOIDED:
            raise Conflict("This deal is voided.", code="round_voided")
        n = Seat.objects.filter(table=rnd.table).count()
        if confirmed_by is not None and not _is_seat(confirmed_by, n):
            raise ValidationFailed(f"confirmed_by is a seat position (0 to {n - 1}).", path="confirmed_by",
                                   code="bad_seat")
        if confirmed_by is not None and confirmed_by == rnd.entered_by:
            raise ValidationFailed("Another player than the one who entered the deal must confirm it.",
                                   path="confirmed_by", code="same_seat")
        if actor.is_scorer:
            if rnd.disputed:
                raise Conflict("This deal is disputed; a director must settle it.", code="round_disputed")
            if confirmed_by is None:
                raise ValidationFailed("Say which seat confirms the deal.", path="confirmed_by", code="required")
            if rnd.entered_by is None:
                raise PermissionDenied("Nobody is named as having entered this deal; a director must confirm it.",
                                       code="entered_by_unknown")
        rnd.status = Round.Status.CONFIRMED
        rnd.confirmed_by = confirmed_by
        rnd.confirmed_by_user = actor.user_or_none
        rnd.confirmed_at = timezone.now()
        rnd.save()
        _log(actor, "round_confirm", rnd, tournament=tournament,
             data={"confirmed_by": confirmed_by, "revision": rnd.current_revision_id and rnd.current_revision.number})
        _enqueue_standings(tournament.pk)
    return rnd


def round_void(*, actor: Actor, round: Round, reason: Any) -> Round:
    """Void a deal (directors only, with a reason). It stays in the history and stops counting."""
    tournament = round.table.session.tournament
    require_director_of(actor, tournament.club)
    if not isinstance(reason, str) or not reason.strip():
        raise ValidationFailed("Say why the deal is voided.", path="reason", code="required")
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        _require_running(tournament)
        if rnd.status == Round.Status.VOIDED:
            raise Conflict("This deal is already voided.", code="round_voided")
        before = rnd.status
        rnd.status = Round.Status.VOIDED
        rnd.void_reason = reason.strip()
        rnd.disputed = False
        rnd.save()
        _log(actor, "round_void", rnd, tournament=tournament, data={"reason": rnd.void_reason, "was": before})
        _enqueue_standings(tournament.pk)
    return rnd


def round_dispute(*, actor: Actor, round: Round, message: Any = "") -> Round:
    """Flag a deal for the referee (scorer of its table or director)."""
    require_table_access(actor, round.table)
    message = message.strip() if isinstance(message, str) else ""
    if len(message) > 2000:
        raise ValidationFailed("The message has at most 2000 characters.", path="message", code="too_long")
    with transaction.atomic():
        rnd = Round.objects.select_for_update(of=("self",)).select_related("table__session__tournament").get(pk=round.pk)
        tournament = rnd.table.session.tournament
        _require_running(tournament)
        if rnd.status == Round.Status.VOIDED:
            raise Conflict("This deal is voided.", code="round_voided")
        rnd.disputed = True
        rnd.dispute_message = message or "Call the referee."
        rnd.disputed_at = timezone.now()
        rnd.save()
        _log(actor, "round_dispute", rnd, tournament=tournament, data={"message": rnd.dispute_message})
    return rnd


def round_dispute_resolve(*, actor: Actor, round: Round, note: Any = "") -> Round:
    """A director settles a dispute (correct or void the deal first if needed)."""
    tournament = round.table.session.tournament
    require_director_of(actor, tournament.club)
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round.pk)
        _require_running(tournament)
        if not rnd.disputed:
            raise Conflict("This deal is not disputed.", code="not_disputed")
        message = rnd.dispute_message
        rnd.disputed = False
        rnd.save()
        _log(actor, "round_dispute_resolve", rnd, tournament=tournament,
             data={"message": message, "note": note if isinstance(note, str) else ""})
    return rnd


# =============================================================================================
# Derived data and housekeeping (called by Celery tasks)

def standings_refresh(*, tournament: Tournament, actor: Actor | None = None) -> list[Standing]:
    """Recompute every entry's total from the counted deals (confirmed ones when the
    tournament requires confirmation, else all but voided)."""
    actor = actor or Actor.system()
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        totals = selectors.tournament_totals(tournament)
        rows = []
        for entry in Entry.objects.filter(tournament=tournament):
            total, counted = totals.get(entry.pk, (0, 0))
            st, _ = Standing.objects.update_or_create(
                entry=entry, defaults={"tournament": tournament, "total": total, "rounds_counted": counted})
            rows.append(st)
        _log(actor, "standings_refresh", tournament, tournament=tournament,
             data={"entries": len(rows), "totals": {str(k): v[0] for k, v in totals.items()}})
    return rows


def idempotency_keys_cleanup(*, older_than: timedelta = IDEMPOTENCY_KEY_TTL, actor: Actor | None = None) -> int:
    """Delete idempotency keys older than ``older_than`` (at least 24 hours). Returns how many."""
    actor = actor or Actor.system()
    if older_than < IDEMPOTENCY_KEY_TTL:
        raise ValidationFailed("Keys are kept at least 24 hours.", path="older_than", code="too_short")
    with transaction.atomic():
        deleted, _ = IdempotencyKey.objects.filter(created_at__lt=timezone.now() - older_than).delete()
        if deleted:
            _log(actor, "idempotency_keys_cleanup", None, data={"deleted": deleted})
    return deleted


def auth_token_obtain(*, username: Any, password: Any, ip: str | None = None) -> str:
    """A director's API token (created once, then the same one)."""
    from django.contrib.auth import authenticate
    from rest_framework.authtoken.models import Token

    if not isinstance(username, str) or not isinstance(password, str) or not username or not password:
        raise ValidationFailed("Send a username and a password.", path="", code="required")
    user = authenticate(username=username, password=password)
    if user is None or not user.is_active:
        raise ValidationFailed("Wrong username or password.", path="", code="bad_credentials")
    actor = Actor(user=user, ip=ip)
    if not actor.is_director:
        raise PermissionDenied("Only directors get an API token.")
    with transaction.atomic():
        token, created = Token.objects.get_or_create(user=user)
        if created:
            _log(actor, "auth_token_create", user)
    return token.key


