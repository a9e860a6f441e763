"""``evaluate(record)``: the one entry point of the rules engine.

Reads the common fields, hands the record to its game's evaluator (from the catalog), and
wraps the answer: ``{"ok": true, "game", "format", ..., "warnings"}`` or ``{"ok": false, "errors"}``.
Pure: no I/O, never raises on bad input (ROUND_RECORD.md §5).
"""

from __future__ import annotations

from typing import Any, Callable

from .catalog import CATALOG
from .record import FORMAT_VERSION, Common, Problems, read_common
from .words import gettext_noop

GameEvaluator = Callable[[dict, Common, Problems], "dict | None"]

#: game -> function(record, common, problems) -> result body, or None when it found errors.
#: Taken from the catalog once, so a record costs one look-up.
EVALUATORS: dict[str, GameEvaluator] = {key: game.evaluator for key, game in CATALOG.items()}


def evaluate(record: Any) -> dict:
    """Check and settle one round record; see ROUND_RECORD.md for the shapes in and out."""
    p = Problems()
    try:
        common = read_common(record, p, CATALOG)
        if common is None:
            return {"ok": False, "errors": p.errors}
        body = EVALUATORS[common.game](record, common, p)
    except RecursionError:  # pathological nesting that slipped past the size guards
        p.error("", "too_complex", gettext_noop("This record is nested too deeply to read."))
        body = None
    if p.errors or body is None:
        if not p.errors:
            p.error("", "invalid", gettext_noop("This record could not be evaluated."))
        return {"ok": False, "errors": p.errors}
    return {"ok": True, "game": common.game, "format": FORMAT_VERSION, **body, "warnings": p.warnings}
