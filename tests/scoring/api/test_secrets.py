"""Answers that carry a secret in plain text — a scorer link or token, a director's API token —
are never stored by a browser or a proxy (``Cache-Control: no-store``, ``api.base.NO_STORE``).

The operations are found in the OpenAPI schema (every answer declaring a ``token``,
``scorer_token`` or ``scorer_url`` field, at any depth), so that a new one fails here until it is
called below and answers with no-store (issue 16: the table's link and a new table lacked it)."""

from __future__ import annotations

from functools import cache

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SECRET_FIELDS = {"token", "scorer_token", "scorer_url"}


@cache
def schema() -> dict:
    return Client().get("/api/schema/?format=json").json()


def _fields(node, seen=()) -> set[str]:
    """Every property name in a schema node, following ``$ref``s, nested objects and lists."""
    if isinstance(node, list):
        return set().union(*(_fields(n, seen) for n in node)) if node else set()
    if not isinstance(node, dict):
        return set()
    ref = node.get("$ref")
    if ref:
        if ref in seen:
            return set()
        target = schema()
        for part in ref.lstrip("#/").split("/"):
            target = target[part]
        return _fields(target, (*seen, ref))
    out = set(node.get("properties", {}))
    for value in node.values():
        out |= _fields(value, seen)
    return out


def _keys(data) -> set[str]:
    """Every key of a JSON answer, at any depth."""
    if isinstance(data, list):
        return set().union(set(), *(_keys(x) for x in data))
    if isinstance(data, dict):
        return set(data).union(*(_keys(x) for x in data.values()))
    return set()


def operations_with_secrets() -> set[str]:
    found = set()
    for path in schema()["paths"].values():
        for op in path.values():
            if isinstance(op, dict) and "operationId" in op:
                answers = [r for code, r in op["responses"].items() if code.startswith("2")]
                if _fields(answers) & SECRET_FIELDS:
                    found.add(op["operationId"])
    return found


def _calls(setup, director_client, anon_client) -> dict:
    t, table = setup.tournament, setup.table
    entries = [e.pk for e in setup.entries]
    return {
        "auth_token": lambda: anon_client.post("/api/v1/auth/token/", {"username": "alice",
                                                                       "password": "alice-secret-1"}, format="json"),
        "tables_scorer_token_rotate": lambda: director_client.post(f"/api/v1/tables/{table.pk}/scorer-token/"),
        "tournaments_tables_create": lambda: director_client.post(
            f"/api/v1/tournaments/{t.pk}/tables/", {"name": "Table 9", "entries": entries, "session": 2}, format="json"),
        "tournaments_sessions_seat": lambda: director_client.post(
            f"/api/v1/tournaments/{t.pk}/sessions/", {"method": "random", "table_size": 4, "leftovers": "sit_out"},
            format="json"),
    }


def test_every_answer_with_a_secret_is_never_stored(jie_long, director_client, anon_client):
    calls = _calls(jie_long, director_client, anon_client)
    assert operations_with_secrets() == set(calls)
    for name, call in calls.items():
        response = call()
        assert response.status_code in (200, 201), (name, response.content)
        assert SECRET_FIELDS & _keys(response.json()), name
        assert response["Cache-Control"] == "no-store", name


def test_the_finder_finds_nested_secrets():
    """The seating's links sit in a list of tables: the walk reaches them."""
    assert "tournaments_sessions_seat" in operations_with_secrets()
    assert "tournaments_retrieve" not in operations_with_secrets()
