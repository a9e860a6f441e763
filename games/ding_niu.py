"""Placeholder until this game is implemented."""

from __future__ import annotations

from .record import Common, Problems


def evaluate(record: dict, common: Common, p: Problems) -> dict | None:
    p.error("game", "not_implemented", "This game is not implemented yet.")
    return None
