"""A worker's heartbeat on each queue reaches /readyz through a real worker and Redis: the task
that beat sends every 30 s (gupai_site.queues), sent here to each of the worker's queues."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from gupai_site.health import queue_names
from gupai_site.tasks import queue_heartbeat
from tests.integration.stack import wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (CI sets it; see docs/install.md, Services)"),
    pytest.mark.skipif(not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
                       reason="the worker process needs a database it can share: PostgreSQL (DATABASE_URL)"),
]


def test_each_queue_is_ready_once_its_heartbeat_ran_in_the_worker(celery_worker, client):
    names = queue_names()   # the worker's own queues (the stack's, in place of the site's two)
    assert len(names) == 2
    before = client.get("/readyz")
    assert before.status_code == 503   # no heartbeat yet on these fresh queues
    assert all(before.json()["checks"]["queues"][n]["heartbeat_age_seconds"] is None for n in names)
    for name in names:
        queue_heartbeat.apply_async(args=[name], queue=name)

    def ready():
        return client.get("/readyz").status_code == 200
    assert wait_for(ready), client.get("/readyz").json()
    queues = client.get("/readyz").json()["checks"]["queues"]
    assert all(queues[n]["ok"] and queues[n]["heartbeat_age_seconds"] < 30 for n in names)
