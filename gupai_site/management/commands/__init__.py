"""The site's commands: ``backup`` (the database and stored files into ``BACKUP_DIR``),
``restore`` (a backup into an empty database), ``restore_drill`` (the latest backup restored into a
scratch database and audited there) and ``audit_tournaments`` (the replay audit of every
tournament, run in-process: the drill's check); ``site_role`` (the PostgreSQL role the site connects
as, bound by row-level security)."""
