"""The club ratings' writes: follow the counted deals (a Celery task after each deal write) and
rebuild from scratch (the director's). Both rate the same results in the same order (their keys)
by the same rules (``scoring.domain.ratings``), so a rebuild equals the followed ratings.

Following compares the deals the ratings have taken in (``RatedDeal``: round and revision) with
the deals that count now (``domain.ratings.deals_moved``). From the first result that moved — a
new deal, a correction (a new revision), a void or a confirmation, a tournament or a game left
out, or any of these in a rated table session (whose one result moves to its latest deal) —
every change is deleted and the results from there are rated forward from the ratings just
before it (each moved player's ``before`` in its first change deleted). The common case (new
deals at the end, of games rated deal by deal) rates only the new deals.

A change of what a game's result is (``Game.rating_unit``) needs a rebuild. A director's rebuild
runs in a worker (``ratings_rebuild_queue``): it holds the club's lock while it rates every deal,
and on a request's path a scorer's deal waited 13 s behind it.
"""

from __future__ import annotations

import gc
import struct
import weakref
from contextlib import contextmanager
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

from django.db import connection, transaction
from django.utils import timezone

from games.places import EACH_DEAL, TABLE_SESSION
from scoring.domain.actors import Actor
from scoring.domain.ratings import Deal, Moved, Rating, deals_moved, rate_deals
from scoring.models import ActionLog, Club, PlayerRating, RatedDeal, RatingChange
from scoring.selectors.access import require_director_of
from scoring.selectors.ratings import rated_keys, rating_deals, taken_keys
from scoring.services.common import action_log, enqueue_on_commit

#: Rows a bulk INSERT writes at once.
BATCH = 2000


#: PostgreSQL's binary COPY: each column's struct code by the field's internal type (timestamps:
#: microseconds since 2000-01-01 UTC).
_BINARY = {"BigAutoField": "q", "BigIntegerField": "q", "IntegerField": "i", "PositiveIntegerField": "i",
           "SmallIntegerField": "h", "PositiveSmallIntegerField": "h", "FloatField": "d", "DateTimeField": "q"}
_PG_EPOCH = datetime(2000, 1, 1, tzinfo=dt_timezone.utc)


def _binary_row(model, fields: tuple[str, ...]) -> tuple[struct.Struct, list[bool]]:
    """The struct of one row of binary COPY (the field count, then each field's length and
    value) and which fields are timestamps."""
    codes, stamps = [], []
    for name in fields:
        field = model._meta.get_field(name)
        kind = (field.target_field if field.is_relation else field).get_internal_type()
        code = _BINARY[kind]
        codes.append(code)
        stamps.append(kind == "DateTimeField")
    return struct.Struct("!h" + "".join("i" + c for c in codes)), stamps


def _packer(row: struct.Struct, n: int):
    """row → its bytes: ``row.pack(n, size₀, row[0], size₁, row[1], …)``, the sizes constant,
    written out once as a function (interleaving them per row was most of the packing's time)."""
    sizes = [struct.calcsize("!" + code) for code in row.format[2:][1::2]]
    args = ", ".join(f"{size}, r[{i}]" for i, size in enumerate(sizes))
    return eval(f"lambda r: pack({n}, {args})", {"pack": row.pack})  # noqa: S307 - our own text, no input


def _insert(model, fields: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert plain rows (column values in ``fields`` order, none null). PostgreSQL takes them by
    binary COPY, packed here — a rebuild writes a row per player and result, 400,000 at 100,000
    deals: model instances with INSERTs were most of its time, then psycopg's per-row
    ``write_row`` and the floats' text (written and parsed) most of what was left. Elsewhere
    ``bulk_create``."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create([model(**dict(zip(fields, row))) for row in rows], batch_size=BATCH)
        return
    row, stamps = _binary_row(model, fields)
    pack = _packer(row, len(fields))
    if any(stamps):
        rows = [tuple((v - _PG_EPOCH) // timedelta(microseconds=1) if stamp else v for v, stamp in zip(r, stamps))
                for r in rows]
    columns = ", ".join(f'"{model._meta.get_field(f).column}"' for f in fields)
    table = model._meta.db_table
    with connection.cursor() as cursor:
        # COPY is refused on a table with row-level security to a role bound by it: there the rows
        # go through a temporary table of the transaction, then one INSERT the policies check.
        into = table if _bypasses_row_security(cursor) else _scratch_table(cursor, table, columns)
        with cursor.cursor.copy(f'COPY "{into}" ({columns}) FROM STDIN (FORMAT BINARY)') as copy:
            copy.write(b"PGCOPY\n\xff\r\n\x00" + struct.pack("!ii", 0, 0))
            for i in range(0, len(rows), 50_000):
                copy.write(b"".join(map(pack, rows[i:i + 50_000])))
            copy.write(struct.pack("!h", -1))
        if into != table:
            cursor.execute(f'INSERT INTO "{table}" ({columns}) SELECT {columns} FROM "{into}"')
            cursor.execute(f'DROP TABLE "{into}"')


def _bypasses_row_security(cursor) -> bool:
    """Whether the connection's role is above row-level security (a superuser, ``BYPASSRLS``);
    asked once per connection to the database."""
    known = _BYPASSES.get(connection.connection)
    if known is None:
        cursor.execute("SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user")
        known = _BYPASSES[connection.connection] = bool(cursor.fetchone()[0])
    return known


_BYPASSES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _scratch_table(cursor, table: str, columns: str) -> str:
    name = f"gupai_copy_{table}"
    cursor.execute(f'CREATE TEMPORARY TABLE "{name}" ON COMMIT DROP AS SELECT {columns} FROM "{table}" WITH NO DATA')
    return name


def _delete(queryset) -> None:
    """One DELETE statement (nothing refers to these rows: no cascade to collect)."""
    queryset._raw_delete(queryset.db)


def _rate(club: Club, *, everything: bool) -> dict:
    """Rate what is not yet rated (everything: from scratch). Inside the caller's transaction,
    under the club's row lock (one rater a club at a time). Returns what it did: counted deals
    taken in anew (``deals``: new, or at a new revision), results rated (``results``), the first
    key re-rated (``from``)."""
    # the row locked is also read afresh: the games it leaves out are as committed now
    club = Club.objects.select_for_update().get(pk=club.pk)
    if everything:
        _delete(RatingChange.objects.filter(club=club))
        _delete(RatedDeal.objects.filter(club=club))
        _delete(PlayerRating.objects.filter(club=club))
    counted = rated_keys(club)
    taken = [] if everything else taken_keys(club, counted)
    moved = deals_moved(counted, taken)
    if moved is None:
        return {"deals": 0, "results": 0, "from": None}
    start_key = moved.start
    earliest: dict[int, Rating] = {}
    if taken and start_key <= taken[-1][0]:
        results = _re_read(club, moved, counted, taken, earliest)
    else:
        # appending: only results after everything taken
        results = rating_deals(club, from_round=start_key, counted=counted)
    players = {p for d in results for p in d.players} | set(earliest)
    start = {} if everything else {
        p: Rating(mu, s, d) for p, mu, s, d in PlayerRating.objects.filter(club=club, player_id__in=sorted(players))
        .values_list("player_id", "mu", "sigma", "deals")}
    for p, r in earliest.items():
        if r.deals:
            start[p] = r
        else:
            start.pop(p, None)   # no rated result before: new again
    affected = set(earliest)
    ratings, changes = rate_deals(results, start)
    now = timezone.now()
    # what the ratings have taken in is now ``counted``: the deals that left or changed revision
    # go, the new ones come
    gone = [r for r, _, _ in moved.gone]
    for i in range(0, len(gone), BATCH):
        _delete(RatedDeal.objects.filter(club=club, round_id__in=gone[i:i + BATCH]))
    _insert(RatedDeal, ("club_id", "round_id", "revision_id"), [(club.pk, r, rev) for r, rev, _ in moved.new])
    _insert(RatingChange, ("club_id", "round_id", "player_id", "place", "mu_before", "sigma_before", "mu_after",
                           "sigma_after", "deals"),
            [(club.pk, c.deal, c.player, c.place, c.before.mu, c.before.sigma, c.after.mu, c.after.sigma,
              c.after.deals) for c in changes])
    affected.update(c.player for c in changes)
    if not everything:
        stale = PlayerRating.objects.filter(club=club, player_id__in=sorted(affected))
        _delete(stale)
    _insert(PlayerRating, ("club_id", "player_id", "mu", "sigma", "deals", "updated_at"),
            [(club.pk, p, ratings[p].mu, ratings[p].sigma, ratings[p].deals, now)
             for p in sorted(affected) if p in ratings])
    return {"deals": len(moved.new), "results": len(results), "from": start_key}


#: Above this many deals new to the ratings, a re-rating reads every result from its start anew.
REREAD_ALL = 5000


def _re_read(club: Club, moved: Moved, counted: list, taken: list, earliest: dict[int, Rating]) -> list[Deal]:
    """Re-rating from ``moved.start``: delete the changes from there, put each of their players'
    rating just before it in ``earliest`` (the ``before`` of its first change deleted), and
    return the results to rate from there. Those that did not move are the deleted changes'
    players and places (a result is its places: ``rate_deals`` orders them alone); only the new
    deals and the sessions touched are read — the common re-rating, a Tau Ngau deal moving its
    session's result over every result since that table's last deal, reads one session."""
    start = moved.start
    dropped = RatingChange.objects.filter(club=club, round_id__gte=start)
    stored: dict[int, list[tuple[int, int]]] = {}
    for key, p, place, mu, s, d in (dropped.order_by("-round_id")
                                    .values_list("round_id", "player_id", "place", "mu_before", "sigma_before", "deals")):
        earliest[p] = Rating(mu, s, d - 1)
        stored.setdefault(key, []).append((p, place))
    _delete(dropped)
    new_deals = [r for r, _, session in moved.new if session is None]
    if len(new_deals) > REREAD_ALL:
        return rating_deals(club, from_round=start, counted=counted)
    touched = {session for _, _, session in moved.gone + moved.new if session is not None}
    gone = {r for r, _, _ in moved.gone}
    session_of = {}
    for r, _, session in reversed(taken):   # the sessions' old keys from ``start`` on
        if r < start:
            break
        if session is not None:
            session_of[r] = session
    kept = []
    for key, seats in stored.items():
        session = session_of.get(key)
        if key in gone or session in touched:
            continue   # moved: read anew (or gone)
        kept.append(Deal(key, [p for p, _ in seats], [pl for _, pl in seats],
                         EACH_DEAL if session is None else TABLE_SESSION))
    read = rating_deals(club, from_round=start, counted=counted, only=(new_deals, sorted(touched)))
    return sorted(kept + read, key=lambda d: d.key)


@contextmanager
def _gc_paused():
    """The cyclic garbage collector paused: a rebuild makes millions of small acyclic tuples
    (deals read, changes, rows), and its passes over them were seconds of it, freeing nothing."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def ratings_follow(*, club: Club) -> dict:
    """Rate the club's counted deals not yet rated, re-rating from the first result that moved
    (a deal corrected, voided or left out; a table session's new deal). Returns ``{"deals":
    counted deals taken in anew, "results": results rated, "from": first key re-rated or
    None}``."""
    with transaction.atomic(), _gc_paused():
        return _rate(club, everything=False)


def ratings_rebuild_queue(*, actor: Actor, club: Club) -> None:
    """A director asks for a rebuild: logged now, done by a worker (``scoring.ratings_rebuild``,
    enqueued on commit: ``ratings_rebuild_run``), so that the request answers at once. With the
    broker down nothing is rebuilt (the director asks again); the followed ratings stand."""
    require_director_of(actor, club)
    with transaction.atomic():
        action_log(actor, ActionLog.Action.RATINGS_REBUILD, club, data={"queued": True})
        enqueue_on_commit("scoring.ratings_rebuild", club.pk)


def ratings_rebuild_run(*, club: Club) -> dict:
    """The worker's rebuild asked for by ``ratings_rebuild_queue`` (logged there). Returns what
    ``ratings_follow`` does."""
    with transaction.atomic(), _gc_paused():
        return _rate(club, everything=True)


def ratings_rebuild(*, actor: Actor, club: Club) -> dict:
    """``ratings_rebuild_run`` at once, in this process, logged with the deals it rated, in one
    transaction (the tests' and the benchmarks' rebuild; a director's request queues it). Returns
    what ``ratings_follow`` does."""
    with transaction.atomic():
        done = ratings_rebuild_run(club=club)
        action_log(actor, ActionLog.Action.RATINGS_REBUILD, club, data={"deals": done["deals"]})
    return done
