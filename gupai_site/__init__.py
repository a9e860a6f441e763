"""The Django project around the ``scoring`` app: settings from the environment, URLs, the Celery
app, WSGI, gunicorn's settings and logging, and the read-only admin site."""

# Load the Celery app with Django so that @shared_task uses it.
from gupai_site.celery import app as celery_app

__all__ = ["celery_app"]
