"""The statuses a tournament, a session and a deal can have: the values the database stores, named once.
The models' choices and the pure rules (``scoring.domain.standings``) both read them."""

TOURNAMENT_DRAFT = "draft"
TOURNAMENT_RUNNING = "running"
TOURNAMENT_FINISHED = "finished"

ROUND_RECORDED = "recorded"
ROUND_CONFIRMED = "confirmed"
ROUND_VOIDED = "voided"

SESSION_OPEN = "open"
SESSION_CLOSED = "closed"
