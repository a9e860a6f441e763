"""The app's own rules, pure: no ORM query, no request, no django.db/django.http/DRF import
(tests/architecture/test_imports.py holds every module here to that).

``errors`` (the one error shape), ``inputs`` (what may be stored, and how typed numbers are
read), ``actors`` (who acts), ``statuses``, ``chain`` (revision hashes), ``records`` (a request
body ↔ the engine's record), ``documents`` and ``document_*`` (the export format and the checks
of an import), ``money`` (settle-up), ``seating``, ``replay`` and ``standings`` (which deals
count, the figures, the tie-break keys)."""
