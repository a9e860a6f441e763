"""Schemathesis against the schema the running app serves at /api/schema/: every operation, as a
director (``Authorization: Token``) and as a table's scorer (``Authorization: Scorer``), with
schemathesis's default checks (every built-in check: no 5xx, documented status codes, content
types, headers and bodies, valid input accepted and invalid input refused, authentication
enforced, ...).

The requests go through the WSGI app in-process, inside the test's transaction: each case runs
in a savepoint that is rolled back afterwards (so that a finished tournament, a revoked token
or a replaced scorer link does not spoil the cases after it) and counts its rate limits under a
prefix of its own (so that the fuzzing does not end in 429s). Path ids and the ids in bodies
are mapped onto real objects often enough that the happy paths are reached: a club with a
running Jie Long tournament whose table has recorded, confirmed, voided and disputed deals (and a
withdrawn entry), a draft and a finished tournament, and another director's club with its own.

``DOCUMENTED_REFUSALS`` (with ``SCORER_REFUSALS`` and ``STALE``) lists the only answers a
check may not count against the API, each with its reason and by operation, place and error
code: refusals of well-formed input that depend on stored data, on the rules of the table's
game or on who asks, which no JSON Schema can say (the rules engine's verdict on a deal, a
wrong password, a player of another club, a stale If-Match: 412), and 428 for a missing
If-Match (RFC 6585). Any other 4xx for input the schema allows fails.

``FUZZ_EXAMPLES=<n>`` generates more cases per operation (12 by default); ``FUZZ_REPORT=<file>``
appends one JSON line per operation and role: the cases sent and their status codes.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import override_settings
from hypothesis import HealthCheck, settings
from schemathesis.openapi.checks import MissingHeaderNotRejected, RejectedPositiveData

from scoring.domain.actors import Actor
from scoring.services.auth import auth_token_obtain
from scoring.services.clubs import player_create
from scoring.services.roster import entry_withdraw
from scoring.services.rounds import round_confirm, round_dispute, round_record, round_void
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create, tournament_create, tournament_finish, tournament_start

from ..bodies import JIE_LONG

APP = WSGIHandler()
#: The live schema, as the app serves it: every endpoint.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", APP)

#: Cases per operation beyond the explicit examples and the coverage phase's own (bounded for
#: CI; FUZZ_EXAMPLES=500 fuzzes deeper).
MAX_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
FUZZ = settings(max_examples=MAX_EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.filter_too_much, HealthCheck.data_too_large])

# ------------------------------------------------------------------------------------------------
# Refusals no schema can express

ROOT = Path(__file__).resolve().parents[3]
#: The rules engine's refusals (docs/errors.md), and those of the reader of a table's deal
#: (scoring/domain/records.py: fields the table sets): its verdict on a record, which depends on the
#: game and on the table's seats.
ENGINE_CODES = frozenset(re.findall(r"^\| `([a-z_]+)` \|", (ROOT / "docs" / "errors.md").read_text(), re.M)) | {
    "set_by_table"}
#: Text that cannot be stored (NUL) is refused in every body; OpenAPI 3.0 has no way to say so
#: of the keys of a free-form object (no propertyNames), so for those it is not the schema's fault.
UNSTORABLE = frozenset({"bad_text"})
ANYWHERE = ""

#: operationId -> {(where in the body, error code)} of a 400 (or 412) that does not make
#: schema-valid input "rejected": each depends on stored data, the table's game or who asks.
DOCUMENTED_REFUSALS: dict[str, frozenset[tuple[str, str]]] = {
    # the engine's verdict on a record, or on a deal at this table (a free-form object)
    **{op: frozenset((ANYWHERE, code) for code in ENGINE_CODES | UNSTORABLE)
       for op in ("evaluate", "tables_rounds_create", "tables_rounds_preview", "rounds_correct")},
    # a wrong password is well-formed
    "auth_token": frozenset({(ANYWHERE, "bad_credentials")}),
    # rule options are the game's (a sibling field, or the tournament's for a change)
    **{op: frozenset(("variant", code) for code in {"unknown_variant", "bad_variant", "bad_type"} | UNSTORABLE)
       | frozenset(("tie_breaks", code) for code in ("duplicate", "head_to_head_first"))
       | frozenset({("entry_level", "unknown_level")})   # a level of the tournament's game
       for op in ("tournaments_create", "tournaments_update")},
    # a player of this club, or not
    "tournaments_entries_create": frozenset({("player", "not_found")}),
    # a player of this tournament, or not; an amount of 0 changes nothing (the schema's integer range
    # holds 0: OpenAPI has no "not 0" drf-spectacular writes)
    "tournaments_adjustments_create": frozenset({("player", "not_found"), ("amount", "zero_amount")}
                                                | {("reason", code) for code in UNSTORABLE}),
    # as many entries as the game has players, entries of this tournament, not yet seated, not withdrawn
    "tournaments_tables_create": frozenset(("entries", code) for code in ("wrong_player_count", "not_found",
                                                                          "already_seated", "withdrawn")),
    # an entry of this tournament, not seated in the session; a seat of this table (which may have
    # fewer than six); not withdrawn
    "tables_substitutions_create": frozenset({("player", "not_found"), ("player", "already_seated"),
                                              ("seat", "bad_seat"), ("player", "withdrawn")}),
    # a seat of this table (which may have fewer than six), not the one that entered the deal; and a
    # player's code names the seat it proves (confirmed_by with confirmed_by_code)
    "rounds_confirm": frozenset({("confirmed_by", "bad_seat"), ("confirmed_by", "same_seat"),
                                 ("confirmed_by", "required")}),
    # a seating: table_size one of the game's player counts, smaller tables only where the game has
    # several, entries of this tournament and not withdrawn, enough of them (the entries stored, the
    # history) for a table
    "tournaments_sessions_seat": frozenset({("table_size", "wrong_player_count"), ("leftovers", "no_smaller_tables"),
                                            ("entries", "not_found"), ("entries", "too_few_players"),
                                            ("entries", "withdrawn"), ("leftovers", "cannot_seat_everyone"),
                                            ("entries", "no_check_in")}),
    # a referee (issue 30): an existing user, not already the club's director or this referee
    "tournaments_referees_create": frozenset({("user", "not_found"), ("user", "already_director"),
                                              ("user", "already_referee"), ("user", "required")}),
    # check-in (issue 30): an entry of the session's tournament, not withdrawn
    "sessions_check_ins_create": frozenset({("entry", "not_found"), ("entry", "withdrawn")}),
    # an imported document: only its shape is checked before the 202 (document_shape.check_shape);
    # what it refuses of a document the schema allows is what no schema says of one value: a day
    # no calendar has (30 February), a moment outside years 1-9999 in UTC (valid text with its
    # offset), the depth and size of free JSON, text that cannot be stored. Everything else (ids,
    # the game's rules, the hash chain, the engine) is the worker's, in the import's `error`.
    "tournaments_import": frozenset(("document", code) for code in (
        "bad_datetime", "date_out_of_range", "too_deep", "too_long", *UNSTORABLE)),
}
# A player's code names the seat it proves (entered_by with entered_by_code); a scorer's
# correction keeps the enterer who proved who they are (players' proof).
DOCUMENTED_REFUSALS["tables_rounds_create"] |= {("entered_by", "required")}
DOCUMENTED_REFUSALS["rounds_correct"] |= {("entered_by", "entered_by_proven")}
#: ... and for a scorer link only: it must name the confirming seat (a director need not).
SCORER_REFUSALS = {"rounds_confirm": frozenset({("confirmed_by", "required")})}
#: 412: If-Match names another revision than the current one (RFC 9110 §13.1.1).
STALE = {"rounds_correct": frozenset({(ANYWHERE, "stale_revision")})}


def documented_refusal(failure, case, response) -> bool:
    if isinstance(failure, MissingHeaderNotRejected):
        # RFC 6585: 428 Precondition Required is the answer to a missing If-Match.
        return failure.header_name == "If-Match" and response.status_code == 428
    if not isinstance(failure, RejectedPositiveData) or response.status_code not in (400, 412):
        return False
    operation = case.operation.definition.raw.get("operationId")
    if response.status_code == 412:
        allowed = STALE.get(operation, frozenset())
    else:
        allowed = DOCUMENTED_REFUSALS.get(operation, frozenset())
        if str(response.request.headers.get("Authorization", "")).startswith("Scorer "):
            allowed |= SCORER_REFUSALS.get(operation, frozenset())
    try:
        problems = [(e["path"], e["code"]) for e in json.loads(response.content)["errors"]]
    except (ValueError, KeyError, TypeError):
        return False
    return bool(problems) and all(
        any(code == allowed_code and path.startswith(where) for where, allowed_code in allowed)
        for path, code in problems)


@schema.hook
def filter_failure(context, failure, case, response):
    return not documented_refusal(failure, case, response)


# ------------------------------------------------------------------------------------------------
# Real objects behind the ids

@dataclass
class World:
    #: path prefix ("clubs", "players", "tournaments", "tables", "rounds") or body field -> real ids
    ids: dict[str, list[int]] = field(default_factory=dict)
    director_token: str = ""
    scorer_token: str = ""
    statuses: Counter = field(default_factory=Counter)


WORLD = World()


def real(kind: str, value):
    """``value`` (a generated id), or often a real id: 0 and small numbers map onto the real
    objects, in turn; negative numbers and non-integers stay as generated. (Path parameters
    come as text in some phases: "0".)"""
    ids = WORLD.ids.get(kind)
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return str(real(kind, int(value)))
    if not ids or not isinstance(value, int) or isinstance(value, bool) or value < 0:
        return value
    i = value % (len(ids) + 1)
    return ids[i] if i < len(ids) else value


@schemathesis.hook   # (a global hook: it acts only while a test of this module has set WORLD up)
def before_call(context, case, kwargs):
    # In before_call, so that schemathesis sees the edits and re-checks whether the case is
    # still valid or invalid data.
    if not WORLD.ids:
        return
    parameters = case.path_parameters or {}
    if "id" in parameters:
        parameters["id"] = real(case.operation.path.split("/")[3], parameters["id"])
    if "player_id" in parameters:   # a tournament's entry, by its player
        parameters["player_id"] = real("player", parameters["player_id"])
    body = case.body
    if isinstance(body, dict):
        for name in ("club", "player"):
            if name in body:
                body[name] = real(name, body[name])
        if isinstance(body.get("entries"), list):
            entries = [real("entries", e) for e in body["entries"]]
            if len(set(map(repr, entries))) == len(entries):   # kept distinct, as generated
                body["entries"] = entries


@schemathesis.hook
def after_call(context, case, response):
    WORLD.statuses[response.status_code] += 1


@pytest.fixture
def world(make_setup, other_director, director):
    jl = make_setup("jie_long")
    draft = make_setup("ding_niu", start=False, table_name="Table 2")
    done = make_setup("tau_ngau", variant={"settlement": "v1"}, table_name="Table 3")
    tournament_finish(actor=done.director_actor, tournament=done.tournament)
    rounds = [round_record(actor=jl.scorer_actor, table=jl.table, body={**JIE_LONG, "entered_by": 0})
              for _ in range(4)]
    round_confirm(actor=jl.scorer_actor, round=rounds[1], confirmed_by=2)
    round_void(actor=jl.director_actor, round=rounds[2], reason="misdeal")
    round_dispute(actor=jl.scorer_actor, round=rounds[3], message="call the referee")
    leaver = player_create(actor=jl.director_actor, club=jl.tournament.club, name="Leaver")
    entry_withdraw(actor=jl.director_actor, entry=entry_create(actor=jl.director_actor, tournament=jl.tournament,
                                                               player=leaver))   # re-entered by a POST

    stranger = Actor(user=other_director)
    their_club = other_director.clubs.get()
    their_players = [player_create(actor=stranger, club=their_club, name=n) for n in "WXYZ"]
    theirs = tournament_create(actor=stranger, club=their_club, name="Their open", game="jie_long")
    their_entries = [entry_create(actor=stranger, tournament=theirs, player=p) for p in their_players]
    their_table, _ = table_create(actor=stranger, tournament=theirs, name="T", entries=their_entries)
    tournament_start(actor=stranger, tournament=theirs)
    their_round = round_record(actor=stranger, table=their_table, body=JIE_LONG)

    club = jl.tournament.club
    WORLD.ids = {
        "clubs": [club.pk, their_club.pk],
        "tournaments": [jl.tournament.pk, draft.tournament.pk, done.tournament.pk, theirs.pk],
        "tables": [jl.table.pk, draft.table.pk, done.table.pk, their_table.pk],
        "rounds": [r.pk for r in rounds] + [their_round.pk],
        "club": [club.pk, their_club.pk],
        "player": list(club.players.values_list("pk", flat=True)) + [their_players[0].pk],
        "players": list(club.players.values_list("pk", flat=True)) + [their_players[0].pk],
        "entries": [e.pk for e in jl.entries + draft.entries],
    }
    WORLD.director_token = auth_token_obtain(username="alice", password="alice-secret-1")
    WORLD.scorer_token = jl.token
    WORLD.statuses = Counter()
    # Requests reach the app as in production (WSGI), but in this thread and this transaction:
    # keep Django from closing the connection at the start and end of each, as its test client does.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield WORLD
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)
    WORLD.ids = {}


@pytest.fixture
def report(request):
    yield
    statuses = WORLD.statuses
    assert statuses, "no case was sent"
    assert statuses[429] < sum(statuses.values()), "every case was rate limited"
    if os.environ.get("FUZZ_REPORT"):
        with open(os.environ["FUZZ_REPORT"], "a") as f:
            f.write(json.dumps({"test": request.node.name, "cases": sum(statuses.values()),
                                "statuses": dict(sorted(statuses.items()))}) + "\n")


def call(case, authorization: str):
    with override_settings(RATELIMIT_CACHE_PREFIX=f"rl-fuzz-{uuid.uuid4().hex}:"), transaction.atomic():
        try:
            # identity: the site gzips its answers (GZipMiddleware) for clients that ask, and this
            # WSGI transport reads the body as it comes, without decompressing it.
            case.call_and_validate(headers={"Authorization": authorization, "Accept-Encoding": "identity"})
        finally:
            transaction.set_rollback(True)


@pytest.mark.django_db
@schema.parametrize()
@FUZZ
def test_as_director(case, world, report):
    call(case, f"Token {world.director_token}")


@pytest.mark.django_db
@schema.parametrize()
@FUZZ
def test_as_scorer(case, world, report):
    call(case, f"Scorer {world.scorer_token}")
