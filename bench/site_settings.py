"""The site exactly as a club runs it (``gupai_site.settings``: every middleware, sessions,
CSRF, the locale, GZip, CSP, WhiteNoise, the throttling counted in Redis), for ``bench/load.py``.
One change: the per-link allowance of deals is raised out of reach (ten scorer links send hundreds
of deals a second here, a real table one a minute), so that every deal still pays the limit's
round trip to Redis without being refused."""

from gupai_site.settings import *  # noqa: F403

RATE_LIMITS = {"round-create": "100000000/m"}

# The bare rows' table (bench.baseline's one model, no URL, no middleware), for the benches whose
# baseline bulk-inserts the same number of bare rows in the same run (bench/seating.py).
INSTALLED_APPS = [*INSTALLED_APPS, "bench.baseline"]  # noqa: F405
