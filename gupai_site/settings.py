"""Settings for Gupai Club, read from the environment.

DATABASE_URL  default: a SQLite file in the project (db.sqlite3)
REDIS_URL     when set: Celery broker/result backend and the cache; when unset: tasks run
              eagerly in-process, the cache local memory (CACHE_IN_DATABASE=1: a database table)
SECRET_KEY    required when DEBUG is off
DEBUG         1/0, true/false (default: off, production-safe)
ALLOWED_HOSTS comma-separated (default with DEBUG: localhost names)
SITE_URL      the site's address as phones reach it, e.g. http://192.168.1.20:8000 (`make club`
              sets it): scorer links and QR codes are built from it, whatever Host a request
              names; unset: from the request's (ALLOWED_HOSTS) host
DB_STATEMENT_TIMEOUT       PostgreSQL: seconds any one statement of a web request may run
                           (default 10; 0: no limit)
DB_TASK_STATEMENT_TIMEOUT  PostgreSQL: the same in a Celery worker (default 300; 0: no limit)
IMPORT_MAX_MB              the largest tournament document an import takes, in whole MB (default 16)
LINK_KEY      the key that keeps open sessions' scorer links readable for the director's sheet
              (any long random text; default: derived from SECRET_KEY). Changing it makes the
              kept links unreadable (the sheet then offers new ones); the links still work
PLAYER_CODE_KEY  the key players' codes are hashed with (default: derived from SECRET_KEY); a
              comma-separated list rotates it: the first hashes, all verify (see code_hashes.py)

Production (DEBUG off), see docs/install.md "Deploy":
BEHIND_PROXY         1 when a reverse proxy terminates TLS in front: then, and only then,
                     X-Forwarded-Proto and X-Forwarded-For are believed (default 0)
PROXY_HOPS           how many proxies of ours append to X-Forwarded-For (default 1)
SECURE_SSL_REDIRECT  redirect http to https (default 1)
SECURE_HSTS_SECONDS  Strict-Transport-Security max-age (default 31536000, one year; 0: none)
SECURE_HSTS_INCLUDE_SUBDOMAINS / SECURE_HSTS_PRELOAD   (default 1 / 0)
SECURE_COOKIES       session and CSRF cookies over https only (default 1)
STATIC_ROOT          where collectstatic writes (default: staticfiles/ in the project)
LOG_LEVEL            root log level (default INFO)
The replica, the probes, the metrics and the backups: gupai_site/operations.py; Web Push (VAPID_*):
gupai_site/push_settings.py.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from scoring.domain.inputs import number_setting

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be 1/0 or true/false, not {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [part.strip() for part in raw.split(",") if part.strip()]


TESTING = "pytest" in sys.modules or (len(sys.argv) > 1 and sys.argv[1] == "test")
DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG or TESTING:
        SECRET_KEY = "insecure-development-key-do-not-use-in-production"
    else:
        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for local development).")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if (DEBUG or TESTING) else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])


def site_url(raw: str) -> str:
    """``SITE_URL`` checked: a scheme, a host and maybe a port, nothing after (scorer links
    append their path)."""
    value = raw.strip().rstrip("/")
    if not value:
        return ""
    parts = urlsplit(value)
    try:
        parts.port  # raises on a port that is not a number
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query \
            or parts.fragment or parts.username or parts.password:
        raise ImproperlyConfigured(f"SITE_URL must be like http://192.168.1.20:8000 (no path), not {raw!r}")
    return value


SITE_URL = site_url(os.environ.get("SITE_URL", ""))
LINK_KEY = os.environ.get("LINK_KEY", "")
PLAYER_CODE_KEY = os.environ.get("PLAYER_CODE_KEY", "")

INSTALLED_APPS = [
    "gupai_site.apps.GupaiSiteConfig",
    "gupai_site.admin.GupaiAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "scoring",
]

MIDDLEWARE = [
    # REMOTE_ADDR is the client's address for everything below (BEHIND_PROXY only).
    "scoring.web.client_address.ClientAddressMiddleware",
    # /metrics' requests and their times (django-prometheus: next to outermost, and last).
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and JSON gzipped for clients that accept it (the demo scorer page: 33 kB → 5 kB). Above every
    # middleware that reads or changes a response's body, so it compresses their result; below
    # WhiteNoise, which serves static files itself (compressed by collectstatic). Compression
    # beside a secret in the body is what BREACH measures: Django masks the CSRF token anew for
    # every response and pads compressed responses with random bytes ("Heal the Breach"), its
    # documented mitigations (Django's docs: csrf/#how-it-works, middleware/#…gzip); a scorer
    # link's token is in pages only a request carrying it gets: another site cannot fetch them.
    "django.middleware.gzip.GZipMiddleware",
    "scoring.web.api_refusals.ApiRefusalsMiddleware",   # Django's refusals under /api/ as the API's JSON
    "csp.middleware.CSPMiddleware",   # after WhiteNoise: pages get the policy, static files need none
    # Scorer and director pages say noindex in a header too (gupai_site/root_files.py).
    "gupai_site.root_files.NoIndexMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the set_language choice (session/cookie), else Accept-Language. After the
    # session it reads, before CommonMiddleware; URLs stay unprefixed (scorer links, QR codes).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "scoring.web.club_scope.ClubScopeMiddleware",   # the request's rows on PostgreSQL (row-level security)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last but the metrics' (theirs return nothing), so the first to see a view's exception: a database
    # that does not answer gives a 503 (the API's error shape under /api/, a page elsewhere), not a 500.
    "scoring.web.unavailable.DatabaseUnavailableMiddleware",
    "gupai_site.metrics.DealsRefusedMiddleware",   # the deals refused, counted at the web edge
    "gupai_site.metrics.RequestsMiddleware",
]

ROOT_URLCONF = "gupai_site.urls"
WSGI_APPLICATION = "gupai_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # noindex: base.html's <meta name="robots"> on scorer and director pages
                "gupai_site.root_files.robots_context",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0 if TESTING else 60,
        # A persistent connection is checked before a request uses it, so that a worker drops one
        # the database closed (a restart) instead of failing its next request with it.
        conn_health_checks=True,
    )
}
from gupai_site.operations import *  # noqa: E402, F403 - the replica's, probes', metrics' and backups' settings
from gupai_site.operations import postgresql_options, replica_databases  # noqa: E402
from gupai_site.queues import BROKER_VISIBILITY_TIMEOUT  # noqa: E402

DATABASES |= replica_databases(DATABASE_REPLICA_URL, testing=TESTING)  # noqa: F405
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Wait for a busy writer instead of failing at once (concurrent scorers on a laptop).
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # BEGIN IMMEDIATE: writers queue instead of failing with "database is locked" (SQLite's
    # lock-upgrade deadlock, when both read first and then write).
    DATABASES["default"]["OPTIONS"].setdefault("transaction_mode", "IMMEDIATE")

#: PostgreSQL cancels any statement that runs longer (seconds; 0: never). A web request is
#: meant to answer within 5 s, and gunicorn kills a worker at 30 s — leaving its statement
#: running in the database (one quadratic UPDATE ran on for 19½ minutes that way): at 10 s the
#: database stops it first, with twice the request budget for a slow moment. Celery tasks
#: (imports, recomputes, audits) take the longer limit: set in the worker (gupai_site/celery.py).
DB_STATEMENT_TIMEOUT = float(os.environ.get("DB_STATEMENT_TIMEOUT", "10"))
DB_TASK_STATEMENT_TIMEOUT = float(os.environ.get("DB_TASK_STATEMENT_TIMEOUT", "300"))
#: A web request waits this long for a row lock (seconds; 0: up to the statement timeout), then
#: answers 503 `busy` with Retry-After (scoring/web/unavailable.py): a scorer behind a long write
#: hears "try again" at once rather than "database unavailable" after 10 s. Workers wait.
DB_LOCK_TIMEOUT = float(os.environ.get("DB_LOCK_TIMEOUT", "3"))

postgresql_options(DATABASES, statement_timeout=DB_STATEMENT_TIMEOUT, lock_timeout=DB_LOCK_TIMEOUT)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

#: The largest tournament document an import takes, in bytes (the API's body and the club page's
#: file alike). Every other request body stays under DATA_UPLOAD_MAX_MEMORY_SIZE (Django's 2.5 MB):
#: a revision takes 1.5–2.5 kB of a document, so 16 MB holds 5,000 deals with their full move
#: logs and 10,000 players, which the import stores well within a minute (docs/benchmarks.md).
IMPORT_MAX_BYTES = number_setting("IMPORT_MAX_MB", os.environ.get("IMPORT_MAX_MB"), 16, low=1) * 1_000_000

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文"), ("zh-hant", "繁體中文"), ("ko", "한국어")]
# The catalogs: the .po files are committed, the .mo files built by `make` (compilemessages).
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "").strip() or BASE_DIR / "staticfiles")
# The project's own CSS and JS (static/); the apps' files (admin, Swagger UI, ReDoc) come from the apps.
STATICFILES_DIRS = [BASE_DIR / "static"]
# Production: the compressed, hashed files that collectstatic wrote (and its manifest). Without
# them (collectstatic not run) the same storage names the plain files, WhiteNoise serves them from
# the apps' folders, and a system check warns (gupai_site/storage.py, gupai_site/checks.py).
STATIC_COLLECTED = (STATIC_ROOT / "staticfiles.json").is_file()
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "gupai_site.storage.StaticFilesStorage"
        if not (DEBUG or TESTING) else "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}
if not (DEBUG or TESTING) and not STATIC_COLLECTED:
    WHITENOISE_USE_FINDERS = True

#: How long a director's API token lives.
API_TOKEN_TTL = timedelta(days=number_setting("API_TOKEN_TTL_DAYS", os.environ.get("API_TOKEN_TTL_DAYS"), 30, low=1))
LOGIN_URL = "/director/login/"
LOGIN_REDIRECT_URL = "/director/"
LOGOUT_REDIRECT_URL = "/"

REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    # Redis may go down mid-event: all that talks to it gives up within a second or two (the site goes on).
    CACHES = {"default": {"BACKEND": "gupai_site.cache.RedisCache", "LOCATION": REDIS_URL,
                          "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
    # Publishing tries to connect twice at most (the worker keeps its own, patient reconnecting).
    CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 1.0, "socket_timeout": 2.0, "max_retries": 1,
                                       "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5,
                                       "visibility_timeout": BROKER_VISIBILITY_TIMEOUT}
    CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1.0
    CELERY_REDIS_SOCKET_TIMEOUT = 2.0
    CELERY_TASK_PUBLISH_RETRY = False
else:
    # make club's gunicorn workers without Redis share a table (gupai_site/cache.py), else each counts every limit apart
    CACHES = {"default": {"BACKEND": "gupai_site.cache.DatabaseCache", "LOCATION": "gupai_cache"} if env_bool(
        "CACHE_IN_DATABASE") else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
# The guessing limits (scoring/web/throttling.py) step aside when the cache cannot count: refusing
# every scorer because Redis died would be worse than a few more guesses.
RATELIMIT_FAIL_OPEN = True
# Results are kept only by tasks that say so: sending a task then never needs the result store.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "scoring.api.errors.api_exception_handler",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "scoring.web.auth.DirectorTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["scoring.api.parsers.SafeJSONParser",
                               "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer",
                                 "rest_framework.renderers.BrowsableAPIRenderer"],
    "DEFAULT_PAGINATION_CLASS": "scoring.api.pagination.Pagination",
    "PAGE_SIZE": 50,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Gupai Club API",
    "DESCRIPTION": "Scoring service for traditional Chinese domino games: the rules engine "
                   "(evaluate), tournaments, tables and deals.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc from drf-spectacular-sidecar's static files, not from a CDN: the docs
    # work at a venue without internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "scoring.api.schema.close_response_objects"],
}

# --- Security headers -------------------------------------------------------------------------

# Content-Security-Policy on every page (django-csp 4): the pages' script and style are files
# from here (static/), never inline. Only the API docs (Swagger UI, ReDoc), whose scripts write
# inline styles, get a looser style-src, per view (gupai_site/urls.py). QR codes are inline SVG
# elements (no image request); data: images are the admin's and the docs' icons.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Browsers honour (and otherwise log an error about) Cross-Origin-Opener-Policy over https only:
# a site served at a plain http address (`make club`) does not send it.
SECURE_CROSS_ORIGIN_OPENER_POLICY = None if SITE_URL.startswith("http://") else "same-origin"

# A reverse proxy in front (it terminates TLS): believe its X-Forwarded-Proto (request.is_secure)
# and X-Forwarded-For (REMOTE_ADDR, scoring/web/client_address.py). Without one, a client could
# send these headers itself, so they are ignored.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
PROXY_HOPS = number_setting("PROXY_HOPS", os.environ.get("PROXY_HOPS"), 1, low=1)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

if not DEBUG and not TESTING:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = number_setting("SECURE_HSTS_SECONDS", os.environ.get("SECURE_HSTS_SECONDS"), 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    # Preloading is a promise to the browsers' built-in list, slow to undo: only on request.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # "security.W021: SECURE_HSTS_PRELOAD is not True" is that choice, not an oversight.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)

# --- Logging ------------------------------------------------------------------------------------

# Every handler masks scorer tokens (/s/<token>/ → /s/****/) and Authorization values
# (gupai_site/logmask.py): request paths are logged by django.request ("Not Found: /s/…/"),
# django.security.csrf and runserver. The "django" logger is redefined without Django's
# mail_admins handler, whose e-mail would carry the whole request (path and headers).
LOG_LEVEL = (os.environ.get("LOG_LEVEL", "").strip() or ("INFO" if not TESTING else "WARNING")).upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"mask_secrets": {"()": "gupai_site.logmask.MaskSecretsFilter"}},
    "formatters": {
        "django.server": {"()": "django.utils.log.ServerFormatter", "format": "[{server_time}] {message}",
                          "style": "{"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["mask_secrets"]},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server", "filters": ["mask_secrets"]},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
        # One line per eager task drowns the demo's output; workers log their own progress.
        "celery": {"level": os.environ.get("CELERY_LOG_LEVEL", "WARNING")},
    },
}
if not REDIS_URL:
    # The in-memory broker has no host; kombu warns about that on every connection.
    LOGGING["loggers"]["kombu.connection"] = {"level": "ERROR"}

from gupai_site.push_settings import *  # noqa: E402, F403 - VAPID keys
from gupai_site.queues import *  # noqa: E402, F403 - Celery's queues, routes, limits and beat (its __all__)
