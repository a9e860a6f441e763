"""What knows a request or draws a page, shared by ``scoring.api`` and ``scoring.views`` (and
never importing them): ``http`` (errors → status codes, ETag/If-Match), ``auth`` (scorer links
and director API tokens), ``throttling`` (the guessing limits), ``unavailable`` (database
outages answered 503), ``links`` (scorer links and QR codes), the deal form (``deal_form``,
``deal_text``, ``deal_paths``, ``deal_moves``, ``scorer_answers``), ``tournament_form``,
``presentation``, ``rule_messages`` (engine messages translated), ``charts``, ``tile_art`` and
``times``.

Besides: ``club_scope`` (each request's row scope on PostgreSQL), ``client_address`` (the client's address behind our proxy, and its middleware),
``events`` (who may read a tournament's events stream, and its frames) and ``event_stream``
(that stream as a native ASGI handler), ``deal_inputs`` (the deal form's tapped inputs and seat numbers),
``path_words`` (where an engine message points, in words), ``api_refusals`` (Django's own
refusals under /api/ in the API's error shape), ``player_proof`` (the phone that
remembers a proven player) and ``scorer_proof`` (the scorer page's players' proof),
``scorer_app`` (what the scorer app's service worker keeps, and its version),
``scorer_forms`` (the scorer's and correction pages' deal form and tournament state),
``move_answers`` (a deal's moves answered in JSON to the page's scripts), ``phone_outbox`` (what
a phone says of its outbox: its size, when a deal was drawn, the server's clock it draws by),
``document_problems`` (a refused document's problem, as a director reads it), ``paper_sheets``
(printable paper score sheets), ``paper_sheet_form`` (the director's grid of a typed-in sheet)
and ``report_pdf`` (the tournament report as a PDF)."""
