"""Settling up: the rules are the engine's (``games.settle``), so that the site's payouts and
``python -m games verify`` run the same code; their names are kept here for the app."""

from games.settle import (
    DEFAULT_DECIMALS,
    EXACT_SEARCH_LIMIT,
    HOUSE,
    Money,
    minor_unit_decimals,
    money_of,
    payouts_of,
    settle_up,
)

__all__ = ["DEFAULT_DECIMALS", "EXACT_SEARCH_LIMIT", "HOUSE", "Money", "minor_unit_decimals", "money_of",
           "payouts_of", "settle_up"]
