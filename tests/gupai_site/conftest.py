"""Fixtures of the site's tests: a ``replica`` database alias."""

from __future__ import annotations

import copy

import pytest
from django.db import connections


@pytest.fixture
def replica(db):
    """A ``replica`` database alias: the primary itself (as DATABASE_REPLICA_URL would add one)."""
    databases = connections.settings
    databases["replica"] = {**copy.deepcopy(databases["default"]), "CONN_MAX_AGE": None}
    # Connected here, kept across the request: the test case allows no new connection to an
    # alias it was not told of (Django's TestCase).
    connections["replica"].connect()
    yield "replica"
    connections["replica"].close()
    del connections["replica"]
    del databases["replica"]
