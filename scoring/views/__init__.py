"""The pages, by audience (as ``scoring/urls_public.py``, ``urls_scorer.py`` and
``urls_director.py`` route them): ``public`` (standings, payouts, players, tables, the rules
calculator; no login) with ``public_table`` (a table's page), ``public_players`` (a player's
club-wide page), ``public_room`` (the room display, for a projector), ``public_ratings`` (a club's public ladder) and ``public_seasons`` (a season's
page), ``public_checkin`` (the players' check-in page, from the room's QR code); ``scorer`` (a table's page behind its scorer link) with ``scorer_players`` (its "Who are
you?"), ``scorer_push`` (a proven player's phone allowing notifications, or stopping them) and ``scorer_app`` (the installed scorer app: its manifest, its service worker and the
phone's tables page); ``corrections`` (a deal's correction form, a scorer link's or a director's); ``director/`` (a package by domain, behind the director's login); and ``refusals`` (Django's
own refusals as pages: a host not allowed is told the site's address). Views stay thin: they parse with
``scoring.web``, write through services and read through selectors."""
