"""Shared checks for the engine tests."""

from __future__ import annotations

from games import evaluate


def ok(record: dict) -> dict:
    """Evaluate a record that must be valid; its money must balance (nets + house = 0) and
    its transfers must add up to the nets."""
    result = evaluate(record)
    assert result["ok"] is True, result.get("errors")
    nets = [s["net"] for s in result["seats"]]
    assert sum(nets) + result.get("house", 0) == 0
    by_seat = [0] * len(nets)
    for t in result["transfers"]:
        assert t["amount"] > 0 and t["from"] != t["to"]
        by_seat[t["from"]] -= t["amount"]
        if t["to"] is not None:
            by_seat[t["to"]] += t["amount"]
    assert by_seat == nets
    return result


def refused(record: dict) -> list[dict]:
    """Evaluate a record that must be invalid; the answer holds nothing but the errors."""
    result = evaluate(record)
    assert result["ok"] is False, result
    assert set(result) == {"ok", "errors"}
    return result["errors"]


def error_at(record: dict, path: str, code: str | None = None) -> dict:
    """The first error at ``path`` (of ``code``, when given) of an invalid record."""
    errors = refused(record)
    found = [e for e in errors if e["path"] == path]
    assert found, errors
    if code is not None:
        assert found[0]["code"] == code, found
    return found[0]


def error_set(record: dict) -> set[tuple[str, str]]:
    """(path, code) of every error of an invalid record."""
    return {(e["path"], e["code"]) for e in refused(record)}


def nets_by_name(result: dict) -> dict[str, int]:
    return {s["name"]: s["net"] for s in result["seats"]}


def nets_in_order(result: dict) -> list[int]:
    return [s["net"] for s in result["seats"]]
