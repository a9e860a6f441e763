"""A tournament's referees (``scoring.models.referees``), and their rows under row-level security
(migration 0033; PostgreSQL only, SQLite: nothing).

``scoring_tournamentreferee`` gets a ``club_id`` filled from its tournament by a trigger, as the
tables below a tournament do, and its policy: the system, the rows of the clubs in scope
(``gupai.clubs`` and the clubs ``gupai.user`` directs, read here directly) and the user's own
referee rows. It never calls ``gupai_scope_clubs()``, because that function now reads this
table: a referee (``gupai.user``) reaches the clubs of the tournaments they referee. The row
security is per club; the services' checks (``scoring.selectors.access``) keep a referee to the
one tournament and to its disputes, adjustments and substitutions.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

TABLE = "scoring_tournamentreferee"
ALL = "(SELECT current_setting('gupai.all', true)) = 'on'"
USER = "(SELECT nullif(current_setting('gupai.user', true), '')::bigint)"
DIRECTED = ("coalesce(nullif(current_setting('gupai.clubs', true), '')::bigint[], '{}'::bigint[]) || "
            "coalesce((SELECT array_agg(cd.club_id) FROM scoring_club_directors cd "
            "WHERE cd.user_id = nullif(current_setting('gupai.user', true), '')::bigint), '{}'::bigint[])")
OWN = f"({ALL} OR club_id = ANY (({DIRECTED})::bigint[]) OR user_id = {USER})"

FUNCTION = """
CREATE OR REPLACE FUNCTION gupai_scope_clubs() RETURNS bigint[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('gupai.clubs', true), '')::bigint[], '{}'::bigint[])
      || coalesce((SELECT array_agg(cd.club_id) FROM scoring_club_directors cd
                   WHERE cd.user_id = nullif(current_setting('gupai.user', true), '')::bigint), '{}'::bigint[])
      || coalesce((SELECT array_agg(r.club_id) FROM scoring_tournamentreferee r
                   WHERE r.user_id = nullif(current_setting('gupai.user', true), '')::bigint), '{}'::bigint[])
$$
"""

FUNCTION_BEFORE = """
CREATE OR REPLACE FUNCTION gupai_scope_clubs() RETURNS bigint[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('gupai.clubs', true), '')::bigint[], '{}'::bigint[])
      || coalesce((SELECT array_agg(cd.club_id) FROM scoring_club_directors cd
                   WHERE cd.user_id = nullif(current_setting('gupai.user', true), '')::bigint), '{}'::bigint[])
$$
"""


def statements() -> list[str]:
    return [f"ALTER TABLE {TABLE} ADD COLUMN club_id bigint",
            f"UPDATE {TABLE} SET club_id = p.club_id FROM scoring_tournament p WHERE p.id = {TABLE}.tournament_id",
            f"CREATE FUNCTION gupai_fill_{TABLE}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"SELECT p.club_id INTO NEW.club_id FROM scoring_tournament p WHERE p.id = NEW.tournament_id; "
            f"RETURN NEW; END $$",
            f"CREATE TRIGGER gupai_fill BEFORE INSERT ON {TABLE} FOR EACH ROW EXECUTE FUNCTION gupai_fill_{TABLE}()",
            f"CREATE INDEX scoring_tournamentreferee_club ON {TABLE} (club_id)",
            f"ALTER TABLE {TABLE} ENABLE ROW LEVEL SECURITY", f"ALTER TABLE {TABLE} FORCE ROW LEVEL SECURITY",
            f"CREATE POLICY club_rows ON {TABLE} USING ({OWN}) WITH CHECK ({OWN})",
            FUNCTION]


def reverse_statements() -> list[str]:
    return [FUNCTION_BEFORE, f"DROP POLICY IF EXISTS club_rows ON {TABLE}",
            f"ALTER TABLE {TABLE} NO FORCE ROW LEVEL SECURITY", f"ALTER TABLE {TABLE} DISABLE ROW LEVEL SECURITY",
            f"DROP TRIGGER IF EXISTS gupai_fill ON {TABLE}", f"DROP FUNCTION IF EXISTS gupai_fill_{TABLE}()",
            f"ALTER TABLE {TABLE} DROP COLUMN IF EXISTS club_id"]


def run(sqls):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in sqls():
            schema_editor.execute(sql)
    return apply


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0034_push_notifications'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='actionlog',
            name='action',
            field=models.CharField(choices=[('director_create', 'Director Create'), ('auth_token_create', 'Auth Token Create'), ('club_create', 'Club Create'), ('club_director_add', 'Club Director Add'), ('player_create', 'Player Create'), ('tournament_create', 'Tournament Create'), ('tournament_update', 'Tournament Update'), ('tournament_start', 'Tournament Start'), ('tournament_finish', 'Tournament Finish'), ('entry_create', 'Entry Create'), ('session_create', 'Session Create'), ('table_create', 'Table Create'), ('table_scorer_token_rotate', 'Table Scorer Token Rotate'), ('round_record', 'Round Record'), ('round_correct', 'Round Correct'), ('round_confirm', 'Round Confirm'), ('round_void', 'Round Void'), ('round_dispute', 'Round Dispute'), ('round_dispute_resolve', 'Round Dispute Resolve'), ('auth_tokens_revoke', 'Auth Tokens Revoke'), ('idempotency_keys_cleanup', 'Idempotency Keys Cleanup'), ('auth_tokens_cleanup', 'Auth Tokens Cleanup'), ('standings_repair', 'Standings Repair'), ('session_seat', 'Session Seat'), ('session_close', 'Session Close'), ('session_reopen', 'Session Reopen'), ('session_clock_start', 'Session Clock Start'), ('session_clock_stop', 'Session Clock Stop'), ('tournament_import', 'Tournament Import'), ('tournament_import_queue', 'Tournament Import Queue'), ('audit_start', 'Audit Start'), ('audit_resume', 'Audit Resume'), ('audit_finish', 'Audit Finish'), ('entry_code_set', 'Entry Code Set'), ('entry_code_issue', 'Entry Code Issue'), ('entry_code_reset', 'Entry Code Reset'), ('player_rename', 'Player Rename'), ('entry_withdraw', 'Entry Withdraw'), ('entry_reenter', 'Entry Reenter'), ('table_delete', 'Table Delete'), ('table_substitute', 'Table Substitute'), ('tournament_delete', 'Tournament Delete'), ('season_create', 'Season Create'), ('season_update', 'Season Update'), ('season_tournament_add', 'Season Tournament Add'), ('season_tournament_remove', 'Season Tournament Remove'), ('ratings_rebuild', 'Ratings Rebuild'), ('paper_sheets_start', 'Paper Sheets Start'), ('club_ratings_update', 'Club Ratings Update'), ('adjustment_create', 'Adjustment Create'), ('adjustment_delete', 'Adjustment Delete'), ('referee_add', 'Referee Add'), ('referee_remove', 'Referee Remove'), ('referee_account_create', 'Referee Account Create')], max_length=60),
        ),
        migrations.CreateModel(
            name='TournamentReferee',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('added_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='referees', to='scoring.tournament')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='refereeing', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['tournament', 'created_at', 'id'],
                'indexes': [models.Index(fields=['user', 'tournament'], name='scoring_tou_user_id_8dc18f_idx')],
                'constraints': [models.UniqueConstraint(fields=('tournament', 'user'), name='referee_once_per_tournament')],
            },
        ),
        migrations.RunPython(run(statements), run(reverse_statements)),
    ]
