"""The integration tests' worker: a real ``celery worker`` process (``stack.celery_worker``)."""

from __future__ import annotations

import pytest

from tests.integration import stack


@pytest.fixture
def celery_worker(transactional_db):
    with stack.celery_worker() as worker:
        yield worker
