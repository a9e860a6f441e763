"""Turning an engine result into plain lines for pages: who pays whom."""

from __future__ import annotations


def describe_result(result: dict, names: list[str] | None = None) -> dict:
    """Seats with nets, and transfers as sentences ("Bob pays Anna 10")."""
    seats = result.get("seats", [])
    names = names or [s.get("name", f"Seat {i}") for i, s in enumerate(seats)]

    def who(i):
        return "the house" if i is None else names[i]

    payments = [f"{who(t['from'])} pays {who(t['to'])} {t['amount']}" for t in result.get("transfers", [])]
    return {"seats": seats, "payments": payments, "warnings": result.get("warnings", [])}
