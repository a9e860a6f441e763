"""Every write of Gupai Club (HackSoft style: ``<thing>_<action>``, keyword-only arguments),
one module per domain. Each service

- checks who may do it (``actor``: a ``scoring.domain.actors.Actor``) and the state of the thing
  (``lifecycle``),
- runs in one ``transaction.atomic()``,
- writes one ActionLog row (who, what, target, data, ip),
- enqueues follow-up Celery tasks with ``transaction.on_commit`` (standings after deal writes),
- raises ``scoring.domain.errors`` exceptions, which the API and the pages turn into HTTP answers.

The modules:

- ``common`` (the audit row, follow-up tasks after commit, checked text, an entry's locked
  read), ``lifecycle`` (the guards that read a thing's state from the database and ask
  ``scoring.domain.lifecycle``'s table of moves), ``idempotency`` (exactly-once by
  Idempotency-Key), ``events`` (each committed change becomes one live event), ``jobs`` (what
  every long job's worker does alike)
- ``auth`` (directors and API tokens), ``clubs`` (clubs, directors, players), ``players``
  (players' personal codes), ``seasons``
- ``tournaments`` (create, settings, start, finish; entries), ``roster`` (withdraw, re-enter,
  deletions), ``seating`` (the next session, its tables and links), ``sessions`` (close,
  reopen, the clock), ``checkins`` (check-in per session, a session opened ahead of seating), ``tables`` (tables, seats, scorer links), ``substitutions`` (another
  player in a seat from the next deal on), ``referees`` (a tournament's referees named and
  taken away)
- ``rounds`` (record, correct, confirm, void, dispute, resolve), ``round_rows`` (how a deal's
  rows are written beneath them), ``paper_sheet_entry`` (a paper sheet typed in, all or none),
  ``confirm_shown`` (the paper-sheet and late deals a table page showed, confirmed at once)
- ``standings`` (the kept figures moved and refreshed), ``adjustments`` (a fine or bonus outside
  the deals, and its deletion), ``ratings`` (follow and rebuild)
- ``exports`` (a document imported into a new tournament), ``imports`` (an upload imported off
  the request path), ``paper_sheets`` (paper sheets rendered by a worker), ``audits`` (replay
  audits)
- ``push`` (a phone allowing notifications, and the messages sent by Web Push)
"""
