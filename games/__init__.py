"""Gupai Club's rules engine: pure Python, no Django, no I/O.

``evaluate(record) -> result`` is the whole interface; see ROUND_RECORD.md.
"""

from .engine import evaluate
from .record import CONNECTING_GAMES, GAME_NAMES, GAMES, VARIANTS, variant_defaults

#: Stored with every evaluated revision, so audits know which rules produced a result.
ENGINE_VERSION = "1.0.0"

__all__ = ["evaluate", "ENGINE_VERSION", "GAMES", "GAME_NAMES", "CONNECTING_GAMES", "VARIANTS",
           "variant_defaults"]
