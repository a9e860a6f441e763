"""``gupai_scope_clubs()`` (migrations 0033 and 0035) in PL/pgSQL, asking nothing when no user is
in scope (PostgreSQL only; SQLite: nothing).

Every policy calls it once per statement and table (``(SELECT gupai_scope_clubs())``). As a SQL
function holding subqueries it was not inlined, and PostgreSQL planned its body again at every
call: about 0.4 ms each, several a statement — the lock of a table (six tables joined) took
0.9 ms to run as the site's role against 0.07 ms as the owner. PL/pgSQL keeps its statements'
plans for the session, and a scorer link's, a worker's or the public's scope names no user:
then only the settings are read. Same result for every scope.
"""

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION gupai_scope_clubs() RETURNS bigint[] LANGUAGE plpgsql STABLE AS $$
DECLARE
  clubs bigint[] := coalesce(nullif(current_setting('gupai.clubs', true), '')::bigint[], '{}'::bigint[]);
  who bigint := nullif(current_setting('gupai.user', true), '')::bigint;
BEGIN
  IF who IS NULL THEN
    RETURN clubs;
  END IF;
  RETURN clubs
      || coalesce((SELECT array_agg(cd.club_id) FROM scoring_club_directors cd WHERE cd.user_id = who), '{}'::bigint[])
      || coalesce((SELECT array_agg(r.club_id) FROM scoring_tournamentreferee r WHERE r.user_id = who), '{}'::bigint[]);
END
$$
"""

FUNCTION_BEFORE = """
CREATE OR REPLACE FUNCTION gupai_scope_clubs() RETURNS bigint[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('gupai.clubs', true), '')::bigint[], '{}'::bigint[])
      || coalesce((SELECT array_agg(cd.club_id) FROM scoring_club_directors cd
                   WHERE cd.user_id = nullif(current_setting('gupai.user', true), '')::bigint), '{}'::bigint[])
      || coalesce((SELECT array_agg(r.club_id) FROM scoring_tournamentreferee r
                   WHERE r.user_id = nullif(current_setting('gupai.user', true), '')::bigint), '{}'::bigint[])
$$
"""


def run(sql):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)
    return apply


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0038_actionlog_actions'),
    ]

    operations = [
        migrations.RunPython(run(FUNCTION), run(FUNCTION_BEFORE)),
    ]
