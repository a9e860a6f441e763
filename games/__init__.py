"""Gupai Club's rules engine: pure Python, no Django, no I/O.

``evaluate(record) -> result`` is the whole interface (and ``deal_balance(result)``, the
zero-sum rule that stored results are audited against); see ROUND_RECORD.md. What the engine
knows of each game is in ``CATALOG`` (games/catalog.py).
"""

from .catalog import (
                      CATALOG,
                      CONNECTING_GAMES,
                      GAME_NAMES,
                      GAMES,
                      MAX_PLAYERS,
                      VARIANTS,
                      Game,
                      Variant,
                      get_game,
                      variant_defaults,
)
from .engine import evaluate
from .settlement import deal_balance

#: Stored with every evaluated revision, so audits know which rules produced a result.
ENGINE_VERSION = "1.0.0"

__all__ = ["evaluate", "deal_balance", "ENGINE_VERSION", "CATALOG", "MAX_PLAYERS", "Game", "Variant", "get_game",
           "GAMES", "GAME_NAMES", "CONNECTING_GAMES", "VARIANTS", "variant_defaults"]
