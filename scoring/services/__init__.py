"""Every write of Gupai Club (HackSoft style: ``<thing>_<action>``, keyword-only arguments),
one module per domain. Each service

- checks who may do it (``actor``: a ``scoring.domain.actors.Actor``) and the state of the thing
  (``lifecycle``),
- runs in one ``transaction.atomic()``,
- writes one ActionLog row (who, what, target, data, ip),
- enqueues follow-up Celery tasks with ``transaction.on_commit`` (standings after deal writes),
- raises ``scoring.domain.errors`` exceptions, which the API and the pages turn into HTTP answers.
"""
