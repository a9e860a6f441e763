"""The site's settings for a Celery worker started by a test: the tasks the worker enqueues
itself (an audit's chunks, its finish) go to the test's own queue (``GUPAI_TEST_QUEUE``), which
only that worker reads, rather than to the default queue shared by every worker on the Redis."""

import os

from gupai_site.settings import *  # noqa: F403

CELERY_TASK_DEFAULT_QUEUE = os.environ["GUPAI_TEST_QUEUE"]
