"""The app's own rules, pure: no ORM query, no request, no django.db/django.http/DRF import
(tests/architecture/test_imports.py holds every module here to that).

``errors`` (the one error shape), ``inputs`` (what may be stored, and how typed numbers are
read), ``actors`` (who acts), ``statuses``, ``lifecycle`` (the moves a tournament, a session
and a deal may make, and their refusals), ``chain`` (revision hashes), ``records`` (a request
body ↔ the engine's record), ``documents`` and ``document_*`` (the export format and the checks
of an import), ``seating``, ``replay`` and ``standings`` (which deals
count, the figures, the tie-break keys).

Besides: ``document_reader`` (an import read and checked), ``document_schema`` (the document's
schema, written once as data: its keys, the API's schema and the served JSON Schema), ``document_shape`` (its shape,
checked before it is kept), ``document_values`` (each value checked at its path),
``document_revisions`` (one revision, believed once checked), ``proof`` (players proving who
they are), ``code_hashes`` (players' codes as stored: a keyed hash), ``link_secrets`` (a scorer
link's secret kept while its session is open), ``clock``
(a session's clock at a given moment), ``outbox`` (a phone's outbox: deals drawn while the
session was open recorded late, the link's allowance counted by drawn minute, when a phone was
heard), ``paging`` (a long list a page at a time),
``player_stats`` (a player's figures from their deals), ``substitutions`` (who sat where at
which deal once players were substituted), ``ratings`` (the club ratings,
Plackett–Luce), ``push`` (Web Push: a subscription checked, the messages, when a clock calls for "5 minutes
left", a push service's answer), ``row_scope`` (whose rows a request or task may reach: the row-level security's scope) and ``seasons`` (a season's standings, weighted and summed)."""
