"""``manage.py`` commands: ``create_director`` (a director user, with their clubs), ``create_referee``
(a referee's account: no staff, no club), ``load_demo`` (a small demo club and tournaments, written
through the services) and ``vapid_keys`` (a new key pair for Web Push, printed)."""
