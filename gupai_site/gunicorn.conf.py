"""gunicorn's settings for the site: ``gunicorn -c gupai_site/gunicorn.conf.py gupai_site.asgi``
(the Dockerfile, docker-compose.yml, ``make club`` and the tests' stack use it; command-line
flags override it). Each worker process is uvicorn (``gupai_site.asgi_worker.UvicornWorker``)
serving ``gupai_site.asgi``: the events streams held in its event loop, Django's views in a pool
of ``threads`` threads beside it.

From the environment, with defaults for a small club server:

GUNICORN_BIND     address to listen on (default 0.0.0.0:$PORT, PORT default 8000)
GUNICORN_WORKERS  worker processes (default WEB_CONCURRENCY, else 2 per core + 1, at most 8)
GUNICORN_THREADS  threads per worker running Django's views (default 2; the a2wsgi pool,
                  ``WSGI_THREADS`` for gupai_site.asgi)
GUNICORN_WORKER_CLASS  default gupai_site.asgi_worker.UvicornWorker (``sync`` serves
                  gupai_site.wsgi without the events stream)
GUNICORN_TIMEOUT  seconds before a silent worker is restarted (default 30)
ACCESS_LOG        where the access log goes: a file, "-" for stdout (the default) or "" for none
ERROR_LOG         where the error log goes (default "-", stderr)
LOG_LEVEL         the error log's level (default info)
GUNICORN_CONTROL_SOCKET   a path for gunicorn's control socket (gunicornc); default: none
BEHIND_PROXY      1: a reverse proxy is in front; then, and only then, its X-Forwarded-Proto and
                  X-Forwarded-For are believed (from FORWARDED_ALLOW_IPS, default any address: the
                  proxy must be the only way in)

gunicorn's own refusals (the ASGI router's, ``gupai_site.asgi``, with the same numbers, under
uvicorn: the API's JSON error shape under /api/, plain text elsewhere; with the ``sync`` worker,
gunicorn's own HTML, which it writes itself), before Django, at limits set here
explicitly so that no real client meets them: a request line over 8190 bytes (gunicorn's
maximum; its default is 4094) answers 414, more than 100 header fields or one over 8190 bytes
answers 431. The longest real request line is a scorer's correction page with its token, far
under 200 bytes; phones send some 15 headers. See docs/reliability.md.

Every log line has scorer tokens masked (``/s/****/``) and credentials left out
(``gupai_site.gunicorn_logging.MaskingLogger``): see docs/reliability.md.
"""

import multiprocessing
import os

# No Django settings here: this reader needs none (gunicorn has put the project on sys.path).
from scoring.domain.inputs import positive_setting


def _env_int(name: str, default: int) -> int:
    return positive_setting(os.environ.get(name), default)


def _behind_proxy() -> bool:
    return os.environ.get("BEHIND_PROXY", "").strip().lower() in ("1", "true", "yes", "on")


bind = [os.environ.get("GUNICORN_BIND") or f"0.0.0.0:{_env_int('PORT', 8000)}"]
workers = _env_int("GUNICORN_WORKERS", _env_int("WEB_CONCURRENCY", min(2 * multiprocessing.cpu_count() + 1, 8)))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "").strip() or "gupai_site.asgi_worker.UvicornWorker"
threads = _env_int("GUNICORN_THREADS", 2)
# The ASGI router's pool for Django's views (read in the worker processes, forked from here).
os.environ["WSGI_THREADS"] = str(threads)
timeout = _env_int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _env_int("GUNICORN_GRACEFUL_TIMEOUT", 30)
# Restart workers now and then, so that a slow leak never grows large (jittered: not all at once);
# sync workers only: an ASGI worker's restart would drop every held events stream (asgi_worker).
max_requests = _env_int("GUNICORN_MAX_REQUESTS", 2000)
max_requests_jitter = max_requests // 10

# gunicorn's limits on a request's head (see the docstring): the largest it allows for the line,
# its defaults for the headers, written out so that they are a decision rather than an accident.
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190

logger_class = "gupai_site.gunicorn_logging.MaskingLogger"
accesslog = os.environ.get("ACCESS_LOG", "-") or None
errorlog = os.environ.get("ERROR_LOG", "-")
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# The combined log format and the time taken (ms). %(h)s is the client (the proxy's
# X-Forwarded-For with BEHIND_PROXY), the request line and referer come masked.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'

# Without a proxy nobody may set the scheme or forwarding headers (gunicorn trusts 127.0.0.1 by
# default, which is also where a local attacker sits).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "*") if _behind_proxy() else ""

# gunicorn's control socket (for gunicornc) only where one is asked for (GUNICORN_CONTROL_SOCKET):
# by default every gunicorn of the machine would claim the same $HOME/.gunicorn/gunicorn.ctl.
_control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "").strip()
if _control_socket:
    control_socket = _control_socket
else:
    control_socket_disable = True


# /metrics across the workers (gupai_site.metrics): with PROMETHEUS_MULTIPROC_DIR set (before
# the workers import prometheus_client), each worker keeps its values in files there and a scrape
# adds them up. The folder is emptied at start (an earlier run's counts are not this one's) and a
# dead worker's live gauges (the streams it held) are dropped.
def _metrics_dir() -> str:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "").strip()


def on_starting(server) -> None:
    folder = _metrics_dir()
    if folder:
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            if name.endswith(".db"):
                os.remove(os.path.join(folder, name))


def child_exit(server, worker) -> None:
    if _metrics_dir():
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
