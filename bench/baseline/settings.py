"""The framework's ceiling for ``bench/load.py``: a bare Django + DRF app with its own minimal
settings — no middleware, no sessions, no authentication, one app — on the same PostgreSQL (and
the same persistent connections) as the site. Served by the same gunicorn (``-w 2``) beside the
site, it answers what Django and DRF cost for "parse a small JSON body, validate it, insert one
row, answer JSON" on this machine at this moment; everything a deal costs beyond that is the
site's own work."""

import os

import dj_database_url

SECRET_KEY = os.environ.get("SECRET_KEY") or "bench-" + "k" * 50
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "bench.baseline"]
MIDDLEWARE: list = []
ROOT_URLCONF = "bench.baseline.urls"
DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60, conn_health_checks=True)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
TIME_ZONE = "UTC"
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
}
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
