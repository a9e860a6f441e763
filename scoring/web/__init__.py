"""What knows a request or draws a page, shared by ``scoring.api`` and ``scoring.views`` (and
never importing them): ``http`` (errors → status codes, ETag/If-Match), ``auth`` (scorer links
and director API tokens), ``throttling`` (the guessing limits), ``unavailable`` (database
outages answered 503), ``links`` (scorer links and QR codes), the deal form (``deal_form``,
``deal_text``, ``deal_paths``, ``deal_moves``, ``scorer_answers``), ``tournament_form``,
``presentation``, ``rule_messages`` (engine messages translated), ``charts``, ``tile_art`` and
``times``."""
