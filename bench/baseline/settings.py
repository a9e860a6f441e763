"""The site's own settings plus the ceiling endpoint, for ``bench/load.py`` only. Rate limits are
off: the benchmark sends hundreds of deals a second through ten scorer links, far past what a
real table sends (a deal a minute) and what the limits allow."""

from gupai_site.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "bench.baseline"]  # noqa: F405
ROOT_URLCONF = "bench.baseline.urls"
RATELIMIT_ENABLE = False
