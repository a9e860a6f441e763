"""The Celery app. Broker and result backend come from REDIS_URL (see settings); without it,
tasks run eagerly in-process, which is enough for a laptop and for plain test runs."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gupai_site.settings")

app = Celery("gupai_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
