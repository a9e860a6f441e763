"""The Django project around the ``scoring`` app; it only wires the site together:

- ``settings`` (from the environment), ``urls`` (the root URLs by audience), ``apps`` (the site
  as an app, for its system checks in ``checks``), ``admin`` (the read-only admin site)
- ``celery`` (the Celery app; tasks eager without a broker), ``queues`` (its queues, the
  tasks' routes and beat's schedule, read by the settings), ``dbtimeout`` (PostgreSQL's
  ``statement_timeout`` and ``lock_timeout`` in a connection's options), ``cache`` (the
  database's cache, shared by the processes of a site without Redis)
- ``asgi`` (the ASGI router: the events stream, then Django), ``wsgi_bridge`` (Django under it,
  in a thread pool, a response handed to the event loop at once), ``asgi_worker`` (gunicorn's
  uvicorn worker), ``wsgi`` (the plain WSGI application)
- ``body_deadline`` (a request's body read in the event loop under a deadline and its route's
  size limit, before a thread is given to Django), ``head_deadline`` (uvicorn's protocol with a
  deadline for a request's head)
- ``gunicorn.conf`` (gunicorn's settings), ``gunicorn_logging`` (its logger, tokens masked),
  ``logmask`` (secrets out of every log line)
- ``root_files`` (robots.txt and the favicon), ``storage`` (static files with or without
  ``collectstatic``)
- ``postgresql`` (Django's PostgreSQL backend, its health check of a persistent connection
  without a round trip)
- ``row_security`` (each PostgreSQL statement sent within its request's or task's row scope, and
  the site's database role, made by the ``site_role`` command)
- ``operations`` (the settings of the replica, the probes, the metrics and the backups),
  ``push_settings`` (Web Push's VAPID keys),
  ``health`` (``/healthz`` and ``/readyz``), ``metrics`` (``/metrics``), ``tasks`` (the queues'
  heartbeats and the nightly backup), ``backups`` (backup, restore, the restore drill) and
  ``management`` (their commands: ``backup``, ``restore``, ``restore_drill``,
  ``audit_tournaments``, ``site_role``)
"""

# Load the Celery app with Django so that @shared_task uses it.
from gupai_site.celery import app as celery_app

__all__ = ["celery_app"]
