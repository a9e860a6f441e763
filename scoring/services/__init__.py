"""Every write of Gupai Club (HackSoft style: ``<thing>_<action>``, keyword-only arguments),
one module per domain. Each service

- checks who may do it (``actor``: a ``scoring.domain.actors.Actor``) and the state of the thing
  (``lifecycle``),
- runs in one ``transaction.atomic()``,
- writes one ActionLog row (who, what, target, data, ip),
- enqueues follow-up Celery tasks with ``transaction.on_commit`` (standings after deal writes),
- raises ``scoring.domain.errors`` exceptions, which the API and the pages turn into HTTP answers.

Import from here or from the domain module.
"""

from scoring.services.audits import audit_chunk_run, audit_finish, audit_plan, audit_resume, audit_start, audits_resume, audits_start_running
from scoring.services.auth import DIRECTORS_GROUP, auth_token_obtain, auth_tokens_cleanup, auth_tokens_revoke, director_create
from scoring.services.clubs import club_create, club_director_add, player_create
from scoring.services.exports import tournament_import
from scoring.services.idempotency import IDEMPOTENCY_KEY_TTL, MAX_IDEMPOTENCY_KEY, IdempotentOutcome, idempotency_keys_cleanup, idempotency_request_hash, round_record_idempotent
from scoring.services.rounds import round_confirm, round_correct, round_dispute, round_dispute_resolve, round_record, round_void
from scoring.services.seating import SeatedSession, session_seat
from scoring.services.standings import standings_check_running, standings_refresh
from scoring.services.tables import new_scorer_token, session_create, session_scorer_tokens_rotate, table_create, table_scorer_token_rotate
from scoring.services.tournaments import entry_create, tournament_create, tournament_finish, tournament_start, tournament_tie_breaks_check, tournament_update, tournament_variant_check

__all__ = [
    "audit_chunk_run", "audit_finish", "audit_plan", "audit_resume", "audit_start", "audits_resume",
    "audits_start_running",
    "DIRECTORS_GROUP", "auth_token_obtain", "auth_tokens_cleanup", "auth_tokens_revoke", "director_create",
    "club_create", "club_director_add", "player_create",
    "tournament_import",
    "IDEMPOTENCY_KEY_TTL", "MAX_IDEMPOTENCY_KEY", "IdempotentOutcome", "idempotency_keys_cleanup",
    "idempotency_request_hash", "round_record_idempotent",
    "round_confirm", "round_correct", "round_dispute", "round_dispute_resolve", "round_record", "round_void",
    "SeatedSession", "session_seat",
    "standings_check_running", "standings_refresh",
    "new_scorer_token", "session_create", "session_scorer_tokens_rotate", "table_create", "table_scorer_token_rotate",
    "entry_create", "tournament_create", "tournament_finish", "tournament_start", "tournament_tie_breaks_check",
    "tournament_update", "tournament_variant_check",
]
