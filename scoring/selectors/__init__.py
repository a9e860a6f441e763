"""Every read of Gupai Club beyond a plain get, one module per domain. Plain data out (dicts,
lists, model objects), no writes.

- ``common`` (look-ups every domain shares), ``access`` (who may do what), ``auth`` (whose API
  token it is)
- ``clubs``, ``players`` (players' proof at a seat or on their page, their seats to come),
  ``tournaments``, ``sessions``, ``checkins`` (who is checked in for a session), ``tables``,
  ``referees`` (a tournament's referees, a referee's tournaments and tables),
  ``substitutions`` (who sat where at which deal), ``rounds`` (a deal, a table's list,
  revisions, previews), ``roster`` (the roster page)
- ``standings`` (the kept rows ranked, and their recomputation), ``adjustments`` (fines and
  bonuses outside the deals, and what they add), ``payouts`` (the settle-up
  list), ``seasons``, ``seating`` (what seating the next session needs, a session's sheet)
- ``ratings`` (the deals and results the ratings count), ``rating_pages`` (the ratings as the
  pages show them), ``player_stats`` (a player's statistics), ``report`` (the tournament report)
- ``dashboards`` (the director's console), ``public`` (what the public pages read), ``room`` (the room
  display's clock, seats, top rows and latest deals), ``events``
  (the live feed's missed events or a snapshot)
- ``exports`` (a tournament as one document), ``imports`` and ``paper_sheets`` (their jobs),
  ``jobs`` (whether a club has a long job under way, whatever its kind),
  ``audits`` (the hash chain checked, and the replay audits' reads)
- ``push`` (whether notifications are on, whose phones a message goes to, the counts)
- ``replica`` (which database a read goes to: the public pages' to the streaming replica)
"""
