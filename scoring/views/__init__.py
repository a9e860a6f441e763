"""The pages, by audience (as ``scoring/urls_public.py``, ``urls_scorer.py`` and
``urls_director.py`` route them): ``public`` (standings, payouts, players, tables, the rules
calculator; no login), ``scorer`` (a table's page behind its scorer link) and ``director/`` (a
package by domain, behind the director's login). Views stay thin: they parse with
``scoring.web``, write through services and read through selectors."""
