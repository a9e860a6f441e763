"""Fixtures of the site's tests: a ``replica`` database alias."""

from __future__ import annotations

import pytest

from tests.conftest import replica_alias


@pytest.fixture
def replica(db):
    with replica_alias() as alias:
        yield alias
