"""The site's settings for a Celery worker started by a test: the tasks the worker enqueues
itself (an audit's chunks, its finish) go to the test's own queues (``GUPAI_TEST_QUEUE``, and
``-documents`` after it for the long jobs), which only that worker reads, rather than to the
queues shared by every worker on the Redis."""

import os

from gupai_site.settings import *  # noqa: F403
from tests.integration.stack import own_queues

CELERY_TASK_DEFAULT_QUEUE, CELERY_TASK_QUEUES, CELERY_TASK_ROUTES = own_queues(os.environ["GUPAI_TEST_QUEUE"])
# The test's own marks of queued follow-ups (scoring.services.common.enqueue_once_on_commit): the
# worker clears the mark the test process set.
QUEUED_TASKS_CACHE_PREFIX = os.environ.get("GUPAI_TEST_QUEUED_PREFIX", "queued:")
