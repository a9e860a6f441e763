"""Data of Gupai Club: clubs, players, tournaments, tables, deals and their revisions.

No business logic lives here (no work in ``save()``): every write goes through
``scoring.services``; every read beyond a plain get through ``scoring.selectors``. The database
holds the invariants it can (unique numbers, one seat per position, status values, ...).

One module per domain. This package re-exports every model, and that re-export is the one
Django needs: it imports ``scoring.models`` and registers only the models imported by then;
the rest of the code keeps writing ``from scoring.models import Round``. (``services`` and
``selectors`` re-export nothing.) ``default_tie_breaks`` stays reachable here because
migration 0010 names it ``scoring.models.default_tie_breaks``.

The modules: ``clubs`` (clubs and players), ``tournaments`` (tournaments, entries, sessions),
``tables`` (tables, seats and substitutions), ``checkins``
(who is in the room for a session), ``rounds`` (deals and their hash-chained revisions),
``standings`` (each entry's kept figures), ``adjustments`` (penalties, fines and bonuses outside
the deals), ``seasons`` (tournaments grouped with weights), ``referees`` (a tournament's referees),
``ratings`` (ratings, their changes, the deals taken in), ``events`` (a tournament's live feed),
``action_log`` (every change a service makes), ``idempotency`` (stored answers to repeated
requests), ``auth`` (directors' API tokens), ``jobs`` (what every long job has), ``audits``
(replay audits), ``imports`` (uploaded documents being imported), ``paper_sheets`` (paper
score sheets rendered by a worker) and ``push`` (players' phones that allowed Web Push, and
what was sent to them).
"""

from __future__ import annotations

from scoring.domain.standings import default_tie_breaks
from scoring.models.action_log import ActionLog
from scoring.models.adjustments import Adjustment
from scoring.models.audits import Audit, AuditChunk, AuditFinding
from scoring.models.auth import ApiToken
from scoring.models.checkins import SessionCheckIn
from scoring.models.clubs import Club, Player
from scoring.models.events import TournamentEvent, TournamentFeed
from scoring.models.idempotency import IdempotencyKey
from scoring.models.imports import TournamentImport
from scoring.models.paper_sheets import PaperSheetJob
from scoring.models.push import PushNotice, PushSubscription
from scoring.models.ratings import PlayerRating, RatedDeal, RatingChange
from scoring.models.referees import TournamentReferee
from scoring.models.rounds import Round, RoundRevision
from scoring.models.seasons import Season, SeasonTournament
from scoring.models.standings import Standing
from scoring.models.tables import Seat, Substitution, Table
from scoring.models.tournaments import GAME_CHOICES, PUBLICLY_VISIBLE, Entry, Session, Tournament, game_name

__all__ = [
    "GAME_CHOICES",
    "ActionLog",
    "Adjustment",
    "ApiToken",
    "Audit",
    "AuditChunk",
    "AuditFinding",
    "Club",
    "Entry",
    "IdempotencyKey",
    "PUBLICLY_VISIBLE",
    "PaperSheetJob",
    "Player",
    "PlayerRating",
    "PushNotice",
    "PushSubscription",
    "RatedDeal",
    "RatingChange",
    "Round",
    "RoundRevision",
    "Seat",
    "Season",
    "SeasonTournament",
    "Session",
    "SessionCheckIn",
    "Standing",
    "Substitution",
    "Table",
    "Tournament",
    "TournamentEvent",
    "TournamentFeed",
    "TournamentImport",
    "TournamentReferee",
    "default_tie_breaks",
    "game_name",
]
