"""Every write leaves its ActionLog row: each service is named for the action it logs, read from
the code (every module of ``scoring/services/``), and the rows are there after the writes."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import scoring.services
from scoring.models import ActionLog
from scoring.services.auth import director_create
from scoring.services.clubs import club_create, player_create
from scoring.services.rounds import round_confirm, round_correct, round_dispute, round_dispute_resolve, round_record
from scoring.services.tables import session_create, table_create, table_scorer_token_rotate
from scoring.services.tournaments import entry_create, tournament_create, tournament_finish, tournament_start

from ..bodies import JIE_LONG

#: Services whose row is named for what they make or do rather than after the function: service →
#: the action of its row.
LOGGED_AS = {
    "auth_token_obtain": "auth_token_create",          # the row says what was made: a token
    "round_record_idempotent": "round_record",         # round_record's row; a replayed answer writes nothing
    "adjustment_create_once": "adjustment_create",     # adjustment_create's row; a replayed answer writes nothing
    "record_locked": "round_record",                   # round_record's body, under the lock its callers hold
    "session_scorer_tokens_rotate": "table_scorer_token_rotate",  # one row per table, as for one table
    "standings_refresh": "standings_repair",           # a row only when it repairs a drift
    "entry_self_check_in": "entry_check_in",           # the player's own check-in: the same row, how "self"
    "session_open_ahead": "session_create",            # a session made ahead of seating (none when it exists)
    "entry_codes_issue": "entry_code_issue",           # one row per entry, as for one entry
    "paper_sheet_record": "round_record",              # one row per deal of the sheet, as for one deal
    "rounds_confirm_shown": "round_confirm",           # one row per deal confirmed, as for one deal
    "ratings_rebuild_queue": "ratings_rebuild",        # the rebuild's row, when asked; a worker rebuilds
    # each notice sent (seating, the clock's warning, the standings released): one row, its counts
    "push_session_seated": "push_notice_send",
    "push_clock_warnings": "push_notice_send",
    "push_standings_released": "push_notice_send",
}

#: Keyword-only functions of the services that are no write of their own, and why.
NOT_LOGGED = {
    "round_guard": "a check (may this actor do this now?); writes nothing",
    "entry_code_rehash": "the same code stored again under the current key after it proved the player; the code, "
                         "its version and origin unchanged (the write that proved it logs)",
    "tournament_variant_check": "a check of a variant against the game's options; writes nothing",
    "tournament_entry_level_check": "a check of a level against the game's ways of entering; writes nothing",
    "new_scorer_token": "makes a token and its hash; the caller stores and logs them",
    "audit_plan": "a worker's step of an audit: audit_start, audit_resume and audit_finish log the audit",
    "audit_chunk_run": "a worker's step of an audit: audit_start, audit_resume and audit_finish log the audit",
    "audits_resume": "calls audit_resume for each stalled audit, which logs each",
    "audits_start_running": "calls audit_start for each running tournament, which logs each",
    "standings_check_running": "calls standings_refresh for each running tournament, which logs a repair",
    "standings_apply": "keeps the standings inside a write that logs (round_*, tournament_*), in its transaction",
    "standings_follow": "keeps the standings inside a write that logs (round_*, tournament_*), in its transaction",
    "standings_recompute": "keeps the standings inside a write that logs (tournament_import, standings_refresh)",
    "event_publish": "the live feed's version and event, inside a write that logs (round_*, session_*), last in its "
                     "transaction",
    "deal_data": "what a deal's live event carries; writes nothing",
    "paper_sheet_replay": "reads the stored answer to a sheet already recorded (paper_sheet_record logs its deals); "
                          "writes nothing",
    "add_revision": "stores one revision inside a write that logs it (round_record, round_correct), in its transaction",
    "ratings_follow": "upkeep after a write that logs (round_*, tournament_update): the ratings are derived data, "
                      "rebuilt the same from the deals (ratings_rebuild logs a rebuild)",
    "ratings_rebuild_run": "a worker's rebuild: ratings_rebuild_queue logs who asked",
    "tournament_import_run": "a worker's step of an upload: tournament_import_queue logs the upload, tournament_import "
                             "the tournament it makes; a refusal is kept on the import's row, as nothing is stored",
    "paper_sheets_render": "a worker's step of a print: paper_sheets_start logs who asked; how it went is kept on "
                           "the job's row",
    "paper_sheets_drop": "deletes stale PDFs inside a write that logs (session_close, table_scorer_token_rotate, "
                         "tournament_finish), in its transaction; the job's row keeps why",
    "table_phone_heard": "bookkeeping, no change to a result: when a table's phone was last heard and how full its "
                         "outbox was, for the director's console (one conditional UPDATE, at most every 10 s)",
    "paper_sheets_expire": "upkeep (Celery beat): the job's row keeps why its PDF went (expired) and when",
}


#: Functions of the services that take an actor positionally, and why they are no service.
TAKE_AN_ACTOR_POSITIONALLY = {
    "action_log": "the writer of the rows itself",
    "action_logs": "the writer of the rows itself, many at once (an import's players)",
}


def _is_service_shaped(function) -> bool:
    """``<thing>_<action>(*, ...)``: keyword-only arguments (or none), as every service is."""
    kinds = {p.kind for p in inspect.signature(function).parameters.values()}
    return kinds <= {inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_KEYWORD}


def _public_functions() -> dict[str, object]:
    """Every public function defined in a module of ``scoring/services/`` (not the ones it imports)."""
    out = {}
    for info in pkgutil.iter_modules(scoring.services.__path__):
        module = importlib.import_module(f"scoring.services.{info.name}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ == module.__name__ and not name.startswith("_"):
                out[name] = function
    return out


def test_every_service_is_named_for_the_action_it_logs():
    functions = _public_functions()
    services = {name for name, f in functions.items() if _is_service_shaped(f)}
    actions = set(ActionLog.Action.values)
    unlogged = sorted(name for name in services if name not in actions and name not in LOGGED_AS
                      and name not in NOT_LOGGED)
    assert unlogged == [], "a service whose name is no ActionLog.Action: log its row, or say why not here"
    assert {name: action for name, action in LOGGED_AS.items() if action not in actions} == {}
    # The lists name only services there are (a renamed one is not left exempt under its old name).
    assert (set(LOGGED_AS) | set(NOT_LOGGED)) - services == set()
    # Every action is some service's row: an action that nothing logs any more is a stale one.
    assert actions - services - set(LOGGED_AS.values()) == set()
    # A function taking an actor writes as someone: it is a service, keyword-only, and walked above.
    positional = {name for name, f in functions.items() if name not in services
                  and "actor" in inspect.signature(f).parameters}
    assert positional == set(TAKE_AN_ACTOR_POSITIONALLY)


def test_the_walk_sees_the_services_and_catches_one_that_logs_nothing(monkeypatch):
    """The walk above would fail on a new service writing no row: it finds such a function."""
    functions = _public_functions()
    assert {"round_record", "tournament_create", "auth_tokens_cleanup", "session_seat"} <= set(functions)

    # (Named for no action: ``entry_withdraw``, the name it had, is a real, logged service now.)
    def entry_forget(*, actor, entry):  # a service that forgot its ActionLog row
        return entry

    entry_forget.__module__ = "scoring.services.tournaments"
    monkeypatch.setattr(importlib.import_module("scoring.services.tournaments"), "entry_forget", entry_forget,
                        raising=False)
    with pytest.raises(AssertionError, match="no ActionLog.Action"):
        test_every_service_is_named_for_the_action_it_logs()


@pytest.mark.django_db
def test_every_write_is_logged(jie_long):
    s = jie_long
    rnd = round_record(actor=s.scorer_actor, table=s.table, body={**JIE_LONG, "entered_by": 0})
    round_correct(actor=s.scorer_actor, round=rnd, body=JIE_LONG, reason="typo", expected_revision=1)
    round_dispute(actor=s.scorer_actor, round=rnd, message="?")
    round_dispute_resolve(actor=s.director_actor, round=rnd)
    round_confirm(actor=s.director_actor, round=rnd)
    table_scorer_token_rotate(actor=s.director_actor, table=s.table)
    tournament_finish(actor=s.director_actor, tournament=s.tournament)
    actions = set(ActionLog.objects.values_list("action", flat=True))
    # The services the fixture and this test called, each by its own name (the walk above: the name
    # is the action).
    called = (director_create, club_create, player_create, tournament_create, entry_create, session_create,
              table_create, tournament_start, round_record, round_correct, round_dispute, round_dispute_resolve,
              round_confirm, table_scorer_token_rotate, tournament_finish)
    assert {f.__name__ for f in called} <= actions
