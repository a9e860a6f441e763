"""The Django app of Gupai Club: a deal travels from a phone through ``api/`` or ``views/``
(request helpers in ``web/``), to a service in ``services/`` (every write, in one transaction
with its ActionLog row), which asks the pure rules in ``domain/`` and the engine (``games``),
stores ``models/`` rows and enqueues ``tasks``; every read goes through ``selectors/``.

Beside those: ``apps`` (the app config; it registers the tasks), ``admin`` (the read-only
Django admin), ``urls_public``, ``urls_scorer`` and ``urls_director`` (the pages' URLs by
audience), ``templatetags`` (the pages' tags and filters) and ``management`` (its commands).
"""
