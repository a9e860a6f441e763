"""Seating the next session: the session, its tables, seats and scorer links, in one go.

The seating itself is ``scoring.domain.seating`` (pure); this module checks the request against the
game (``Game.player_counts``), reads the history, and creates everything in one transaction, so
that nothing is created when anything is refused. The tables and seats are inserted in bulk (a
statement each, whatever the count), the links' tokens hashed and kept encrypted for the
session's sheet (``services.tables.kept_secret``). One log row says it all: the
``session_seat`` row names every table (``table_ids``, in the order of ``tables``: entry ids by
seat), the sit-outs and the sessions closed — no row per table (2,500 of them would flood the
console's recent actions and cost as much as the seats).

Exactly once with an ``Idempotency-Key`` (as deals are, ``services.idempotency``): the key row is
inserted first; a retry with the same key and body is answered with the session it made (its
tables and links read again, nothing created), the same key with another body is refused (422).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from games import get_game
from scoring.domain import seating
from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, IdempotencyKeyReused, ValidationFailed, problem
from scoring.domain.inputs import MAX_INT32, id_list_problems, is_int
from scoring.models import ActionLog, Entry, IdempotencyKey, Seat, Session, Table, Tournament
from scoring.selectors.access import require_director_of
from scoring.selectors.checkins import check_in_session, checked_in_ids
from scoring.selectors.push import push_enabled
from scoring.selectors.seating import seating_history, session_sheet_tables
from scoring.selectors.standings import standings_for
from scoring.services.common import action_log, enqueue_on_commit, optional_text
from scoring.services.events import event_publish, session_data
from scoring.services.idempotency import check_idempotency_key, idempotency_request_hash, insert_key
from scoring.services.lifecycle import require_not_finished
from scoring.services.sessions import session_close
from scoring.services.tables import kept_secret, new_scorer_token, withdrawn_problem

#: Longest seed worth keeping (it is shown back and written in the audit log).
MAX_SEED = 64
#: ``entries`` that seats the entries checked in for the session (``services.checkins``).
CHECKED_IN = "checked_in"


@dataclass
class SeatedSession:
    """What ``session_seat`` made. ``tables``: ``(table, plain scorer token)`` by table number;
    stored hashed and kept encrypted while the session is open. ``replayed``: the answer to a
    retry (an Idempotency-Key seen before), read again: a token is None when it is no longer
    kept (the session closed since)."""

    session: Session
    method: str
    table_size: int
    leftovers: str
    seed: str
    tables: list[tuple[Table, str]] = field(default_factory=list)
    #: The numbers of the earlier sessions this seating closed.
    closed: list[int] = field(default_factory=list)
    seats: dict[int, list[Entry]] = field(default_factory=dict)   # table id → entries by position
    sit_outs: list[Entry] = field(default_factory=list)
    replayed: bool = False


def _seed(value: Any) -> str:
    """The seed as text ("42" and 42 draw alike); a fresh one when none is given, so that every
    seating can be drawn again."""
    if isinstance(value, bool) or not isinstance(value, (int, str, type(None))):
        raise ValidationFailed(gettext("seed is a number or a short text."), path="seed", code="bad_type")
    text = optional_text(str(value) if value is not None else "", "seed", "The seed", max_length=MAX_SEED)
    return text or str(secrets.randbelow(1_000_000))


def _check_request(*, game: str, method: Any, table_size: Any, leftovers: Any, entries: Any,
                   expected_number: Any = None) -> None:
    """Every problem of the request's shape at once, each at its path (no queries)."""
    errors = []
    if expected_number is not None and (not isinstance(expected_number, int) or isinstance(expected_number, bool)
                                        or not 1 <= expected_number <= MAX_INT32):
        errors.append(problem("expected_number", "bad_type",
                              gettext("This form is out of date: reload the page and seat the session again.")))
    if method not in seating.METHODS:
        errors.append(problem("method", "invalid_choice", f"method is one of {', '.join(seating.METHODS)}."))
    counts = get_game(game).player_counts
    if not is_int(table_size):
        errors.append(problem("table_size", "bad_type", gettext("table_size is a number of players.")))
    else:
        wrong = get_game(game).player_count_error(table_size)
        if wrong:
            errors.append(problem("table_size", "wrong_player_count", wrong))
    if leftovers not in seating.LEFTOVERS:
        errors.append(problem("leftovers", "invalid_choice", f"leftovers is one of {', '.join(seating.LEFTOVERS)}."))
    elif leftovers == "smaller_tables" and len(counts) == 1:
        errors.append(problem("leftovers", "no_smaller_tables",
                              f"{get_game(game).name} is played by exactly {counts[0]}: the leftovers sit out."))
    if entries is not None and entries != CHECKED_IN:
        if not isinstance(entries, (list, tuple)):
            errors.append(problem("entries", "bad_type",
                                  gettext('entries is a list of entry ids, or "checked_in".')))
        else:
            errors += id_list_problems(list(entries), "entries", not_an_id="Each item is an entry id.",
                                       repeated="This entry is listed twice.")
    if errors:
        raise ValidationFailed(errors=errors)


def session_seat(*, actor: Actor, tournament: Tournament, method: Any, table_size: Any, leftovers: Any,
                 seed: Any = None, entries: Any = None, expected_number: Any = None,
                 keep_open: Any = False, idempotency_key: Any = None) -> SeatedSession:
    """Seat the next session of ``tournament``: a new session with one table per group of the
    plan (``scoring.domain.seating.seat``), named Table 1, 2, ... (table 1 = the leaders with
    ``standings``), each with its seats and a new scorer link.

    ``entries``: the entry ids who play (default: every entry not withdrawn; a withdrawn one named
    is refused, 400 ``withdrawn``), or ``"checked_in"``: those checked in for the session opened
    ahead (``services.checkins``; 400 ``no_check_in`` when none is, ``too_few_players`` when too
    few are in). A session opened ahead (open, no tables yet) is the one seated: it keeps its
    number and check-ins. ``seed``: the draw (default: a
    fresh one, returned). ``expected_number``: the number the new session must get (a page's
    form sent twice is refused with a Conflict instead of seating another session).
    ``idempotency_key``: exactly once per (tournament, key): a retry answers the first seating
    (``replayed``), the same key with another request is refused (``IdempotencyKeyReused``).

    The earlier sessions still open are closed (``session_close``: their scorer links then say
    where each player sits now) unless ``keep_open`` (a venue whose sessions overlap)."""
    if not isinstance(keep_open, bool):
        raise ValidationFailed(gettext("keep_open is true or false."), path="keep_open", code="bad_type")
    require_director_of(actor, tournament.club)
    require_not_finished(tournament)
    request = {"method": method, "table_size": table_size, "leftovers": leftovers, "seed": seed,
               "entries": list(entries) if isinstance(entries, (list, tuple)) else entries,
               "expected_number": expected_number, "keep_open": keep_open}
    _check_request(game=tournament.game, method=method, table_size=table_size, leftovers=leftovers, entries=entries,
                   expected_number=expected_number)
    if idempotency_key is not None:
        check_idempotency_key(idempotency_key)
    seed = _seed(seed)
    with transaction.atomic():
        key_id = None
        if idempotency_key is not None:
            request_hash = idempotency_request_hash(request)
            key_id = insert_key(idempotency_key, request_hash, tournament_id=tournament.pk)
            if key_id is None:   # seen before: the session it made, nothing new
                return _replay(tournament, idempotency_key, request_hash)
        out = _seat_locked(actor=actor, tournament=tournament, method=method, table_size=table_size,
                           leftovers=leftovers, seed=seed, entries=entries, expected_number=expected_number,
                           keep_open=keep_open)
        if key_id is not None:   # what the retry needs beside the session's rows; no token here
            IdempotencyKey.objects.filter(pk=key_id).update(response_status=201, session=out.session, response_body={
                "method": method, "table_size": table_size, "leftovers": leftovers, "seed": seed,
                "sit_outs": [e.pk for e in out.sit_outs], "closed": out.closed})
    return out


def _replay(tournament: Tournament, key: str, request_hash: str) -> SeatedSession:
    idem = IdempotencyKey.objects.select_related("session__tournament").get(tournament=tournament, key=key)
    if idem.request_hash != request_hash or idem.session is None:
        raise IdempotencyKeyReused(gettext("This Idempotency-Key was already used with a different request; "
                                           "use a new key to seat another session."))
    stored = idem.response_body
    sheet = session_sheet_tables(idem.session)
    sit_outs = {e.pk: e for e in Entry.objects.filter(pk__in=stored["sit_outs"]).select_related("player")}
    return SeatedSession(session=idem.session, method=stored["method"], table_size=stored["table_size"],
                         leftovers=stored["leftovers"], seed=stored["seed"],
                         tables=[(t.table, t.token) for t in sheet], closed=stored["closed"],
                         seats={t.table.pk: t.entries for t in sheet},
                         sit_outs=[sit_outs[e] for e in stored["sit_outs"] if e in sit_outs], replayed=True)


def _seat_locked(*, actor: Actor, tournament: Tournament, method: str, table_size: int, leftovers: str, seed: str,
                 entries: list | None, expected_number: int | None, keep_open: bool) -> SeatedSession:
    """The seating itself, inside ``session_seat``'s transaction: a constant number of queries
    whatever the number of tables (pinned in tests/scoring/services/test_seating_scale.py)."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    ahead = check_in_session(tournament)   # opened ahead of seating: this seating fills it
    latest = ahead.number - 1 if ahead is not None else tournament.sessions.aggregate(m=Max("number"))["m"] or 0
    if expected_number is not None and latest + 1 != expected_number:
        raise Conflict(gettext("Session %(number)s is already seated (was the form sent twice?): nothing was "
                               "changed. Its scorer links are on its sheet while it is open.") % {"number": expected_number}
                       if latest >= expected_number else
                       gettext("The next session is %(next)s, not %(number)s.") % {"next": latest + 1,
                                                                                  "number": expected_number},
                       code="session_exists")
    everyone = {e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    if entries is None:   # everyone still playing: a withdrawn entry is seated no more
        ids = sorted(e for e, entry in everyone.items() if entry.withdrawn_at is None)
    elif entries == CHECKED_IN:
        ids = _checked_in(ahead, latest + 1)
    else:
        missing = [problem(f"entries[{i}]", "not_found", gettext("No such entry in this tournament."))
                   if eid not in everyone else withdrawn_problem(f"entries[{i}]", everyone[eid])
                   for i, eid in enumerate(entries)
                   if eid not in everyone or everyone[eid].withdrawn_at is not None]
        if missing:
            raise ValidationFailed(errors=missing)
        ids = list(entries)
    if method == "standings":   # strongest first, as the standings list them
        rank = {row["entry"]: i for i, row in enumerate(standings_for(tournament, entries=list(everyone.values())))}
        ids.sort(key=lambda e: rank.get(e, len(rank)))
    history = seating_history(tournament, ids)
    try:
        plan = seating.seat(method=method, players=ids, table_size=table_size,
                            player_counts=get_game(tournament.game).player_counts, leftovers=leftovers,
                            seed=seed, history=history.tables, sat_out=history.sat_out)
    except seating.SeatingError as e:
        if e.code == "too_few_players" and entries == CHECKED_IN:
            raise ValidationFailed(ngettext(
                "Only %(count)d player is checked in for session %(number)s: too few for a table.",
                "Only %(count)d players are checked in for session %(number)s: too few for a table.", len(ids))
                % {"count": len(ids), "number": latest + 1}, path="entries", code=e.code) from None
        raise ValidationFailed(e.message, path=e.path, code=e.code) from None
    session = ahead
    if session is None:
        session = Session.objects.create(tournament=tournament, number=latest + 1)
        action_log(actor, ActionLog.Action.SESSION_CREATE, session, tournament=tournament,
                   data={"number": session.number})
    out = SeatedSession(session=session, method=method, table_size=table_size, leftovers=leftovers, seed=seed,
                        sit_outs=[everyone[e] for e in plan.sit_outs])
    now = timezone.now()
    tokens = [new_scorer_token() for _ in plan.tables]
    tables = Table.objects.bulk_create([
        Table(session=session, name=f"Table {number}", scorer_token_hash=token_hash, scorer_token_created_at=now,
              scorer_token_secret=kept_secret(token, session))
        for number, (token, token_hash) in enumerate(tokens, start=1)])
    Seat.objects.bulk_create([Seat(table=table, position=i, entry_id=e)
                              for table, seats in zip(tables, plan.tables) for i, e in enumerate(seats)])
    for table, (token, _hash), seats in zip(tables, tokens, plan.tables):
        out.tables.append((table, token))
        out.seats[table.pk] = [everyone[e] for e in seats]
    if not keep_open:
        for earlier in tournament.sessions.filter(number__lt=session.number, status=Session.Status.OPEN):
            session_close(actor=actor, session=earlier, publish=False)
            out.closed.append(earlier.number)
    action_log(actor, ActionLog.Action.SESSION_SEAT, session, tournament=tournament, data={
        "number": session.number, "method": method, "table_size": table_size, "leftovers": leftovers,
        "seed": seed, "tables": [list(t) for t in plan.tables], "sit_outs": list(plan.sit_outs),
        "closed": out.closed, "table_ids": [t.pk for t in tables]})
    event_publish(tournament=tournament, kind="session_seated",
                  data=session_data(session, tables=len(out.tables), closed=out.closed))
    if push_enabled():   # each seated player's table and seat, to the phones that allowed it
        enqueue_on_commit("scoring.push_session_seated", session.pk)
    return out


def _checked_in(ahead: Session | None, number: int) -> list[int]:
    """The entries checked in for the session opened ahead, by id; refused without one."""
    if ahead is None:
        raise ValidationFailed(gettext("Nobody can be checked in for session %(number)s: open it for check-in "
                                       "first.") % {"number": number}, path="entries", code="no_check_in")
    return sorted(checked_in_ids(ahead))
