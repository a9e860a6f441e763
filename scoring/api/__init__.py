"""The REST API (``/api/v1/``), one module per domain: tokens, clubs (clubs and players),
tournaments (tournaments, entries), tables, substitutions (another player in a seat), rounds,
sessions (status and clock), checkins (check-in per session), standings (standings, payouts), adjustments (fines and bonuses
outside the deals), referees (a tournament's referees), seating, seasons, ratings (the ladder, a player's history, a rebuild),
exports, audits, evaluate, and events (the events stream when Django itself answers it).

Where a serializer lives: **in the view module of its domain**, above the views that use it
(``scoring.api.clubs`` holds ``ClubSerializer`` and the club views). A domain that needs another
domain's serializer imports it from that module (``tournaments`` renders tables with
``scoring.api.tables.TableSerializer``). What every domain shares is in ``scoring.api.fields``:
the strict input fields, the base input and output serializers, the error answer and the
drf-spectacular extensions. The rules of what can be stored (text, whole numbers, money,
dates) are ``scoring.domain.inputs``'s.

Besides: ``base`` (the view every endpoint extends), ``errors`` (the exception handler),
``parsers``, ``pagination``, ``schema`` (the OpenAPI schema's class and post-processing) and
``urls``.
"""
