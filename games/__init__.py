"""Gupai Club's rules engine: pure Python, no Django, no I/O.

``evaluate(record) -> result`` is the whole interface (and ``deal_balance(result)``, the
zero-sum rule that stored results are audited against); see ROUND_RECORD.md. What the engine
knows of each game is in ``CATALOG`` (games/catalog.py).

The modules:

- ``tiles`` (the tiles and their spellings), ``decks`` (decks and deals by game and player
  count), ``words`` (the marker of the words the site translates)
- ``record`` and ``engine`` (reading a record and its error paths; ``evaluate``), ``settlement``
  (transfers, nets, ranking with the tie rules), ``places`` (a settled deal's places and wins)
- ``connecting`` (the three record levels the connecting games share), ``moves`` (a move log
  read) and ``layout`` (the line of tiles: a move log replayed)
- one module per game: ``jie_long``, ``ce_deng``, ``kko_li_but_i_gi``, ``ding_niu``,
  ``tau_ngau`` (with ``bulls``, its hand values) and ``da_ling``
- ``catalog`` (each game's facts as data) and ``entry`` (each game's deal form, as data)
- ``samples`` (sample records for the calculator and the docs), ``simulate`` (random legal
  records), ``cli`` (``python -m games evaluate|simulate|verify``) and ``__main__`` (its entry
  point)
- the tournament's rules, which the site runs too: ``chain`` (the revisions' hash chain),
  ``standings`` (which deals count, the figures, the tie-breaks), ``seating`` (who sat where at
  which deal, once players were substituted) and ``settle`` (settling up);
  ``verify`` (a tournament export checked with them, no database, no site)
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
