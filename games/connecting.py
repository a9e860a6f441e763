"""Placeholder until the connecting games are implemented."""

from __future__ import annotations

from .record import Common, Problems


def _not_implemented(record: dict, common: Common, p: Problems) -> dict | None:
    p.error("game", "not_implemented", "This game is not implemented yet.")
    return None


evaluate_jie_long = evaluate_ce_deng = evaluate_kko_li = _not_implemented
