"""Check-ins per session (``SessionCheckIn``), with row-level security like every club-owned
table (migration 0033): a ``club_id`` and ``tournament_id`` of its own on PostgreSQL, filled from
its session by a trigger on insert; the club's rows in the club's scope; for reading, the rows
of a public tournament that has started (the public check-in page says who is in)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

TABLE = "scoring_sessioncheckin"
ALL = "(SELECT current_setting('gupai.all', true)) = 'on'"
OWN = f"({ALL} OR club_id = ANY ((SELECT gupai_scope_clubs())::bigint[]))"
PUBLIC = (f"EXISTS (SELECT 1 FROM scoring_tournament t WHERE t.id = {TABLE}.tournament_id "
          "AND t.public AND t.status <> 'draft')")

FORWARD = [
    f"ALTER TABLE {TABLE} ADD COLUMN club_id bigint",
    f"ALTER TABLE {TABLE} ADD COLUMN tournament_id bigint",
    f"CREATE FUNCTION gupai_fill_{TABLE}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"SELECT p.club_id, p.tournament_id INTO NEW.club_id, NEW.tournament_id FROM scoring_session p "
    f"WHERE p.id = NEW.session_id; RETURN NEW; END $$",
    f"CREATE TRIGGER gupai_fill BEFORE INSERT ON {TABLE} FOR EACH ROW EXECUTE FUNCTION gupai_fill_{TABLE}()",
    f"ALTER TABLE {TABLE} ENABLE ROW LEVEL SECURITY",
    f"ALTER TABLE {TABLE} FORCE ROW LEVEL SECURITY",
    f"CREATE POLICY club_rows ON {TABLE} USING ({OWN}) WITH CHECK ({OWN})",
    f"CREATE POLICY public_rows ON {TABLE} FOR SELECT USING ({PUBLIC})",
]
BACKWARD = [
    f"DROP POLICY IF EXISTS public_rows ON {TABLE}", f"DROP POLICY IF EXISTS club_rows ON {TABLE}",
    f"ALTER TABLE {TABLE} NO FORCE ROW LEVEL SECURITY", f"ALTER TABLE {TABLE} DISABLE ROW LEVEL SECURITY",
    f"DROP TRIGGER IF EXISTS gupai_fill ON {TABLE}", f"DROP FUNCTION IF EXISTS gupai_fill_{TABLE}()",
    f"ALTER TABLE {TABLE} DROP COLUMN IF EXISTS tournament_id", f"ALTER TABLE {TABLE} DROP COLUMN IF EXISTS club_id",
]


def run(sqls):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in sqls:
            schema_editor.execute(sql)
    return apply


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0035_tournament_referees'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='actionlog',
            name='action',
            field=models.CharField(choices=[('director_create', 'Director Create'), ('auth_token_create', 'Auth Token Create'), ('club_create', 'Club Create'), ('club_director_add', 'Club Director Add'), ('player_create', 'Player Create'), ('tournament_create', 'Tournament Create'), ('tournament_update', 'Tournament Update'), ('tournament_start', 'Tournament Start'), ('tournament_finish', 'Tournament Finish'), ('entry_create', 'Entry Create'), ('session_create', 'Session Create'), ('table_create', 'Table Create'), ('table_scorer_token_rotate', 'Table Scorer Token Rotate'), ('round_record', 'Round Record'), ('round_correct', 'Round Correct'), ('round_confirm', 'Round Confirm'), ('round_void', 'Round Void'), ('round_dispute', 'Round Dispute'), ('round_dispute_resolve', 'Round Dispute Resolve'), ('auth_tokens_revoke', 'Auth Tokens Revoke'), ('idempotency_keys_cleanup', 'Idempotency Keys Cleanup'), ('auth_tokens_cleanup', 'Auth Tokens Cleanup'), ('standings_repair', 'Standings Repair'), ('session_seat', 'Session Seat'), ('session_close', 'Session Close'), ('session_reopen', 'Session Reopen'), ('session_clock_start', 'Session Clock Start'), ('session_clock_stop', 'Session Clock Stop'), ('tournament_import', 'Tournament Import'), ('tournament_import_queue', 'Tournament Import Queue'), ('audit_start', 'Audit Start'), ('audit_resume', 'Audit Resume'), ('audit_finish', 'Audit Finish'), ('entry_code_set', 'Entry Code Set'), ('entry_code_issue', 'Entry Code Issue'), ('entry_code_reset', 'Entry Code Reset'), ('player_rename', 'Player Rename'), ('entry_withdraw', 'Entry Withdraw'), ('entry_reenter', 'Entry Reenter'), ('table_delete', 'Table Delete'), ('table_substitute', 'Table Substitute'), ('tournament_delete', 'Tournament Delete'), ('season_create', 'Season Create'), ('season_update', 'Season Update'), ('season_tournament_add', 'Season Tournament Add'), ('season_tournament_remove', 'Season Tournament Remove'), ('ratings_rebuild', 'Ratings Rebuild'), ('paper_sheets_start', 'Paper Sheets Start'), ('club_ratings_update', 'Club Ratings Update'), ('adjustment_create', 'Adjustment Create'), ('adjustment_delete', 'Adjustment Delete'), ('entry_check_in', 'Entry Check In'), ('entry_check_in_undo', 'Entry Check In Undo')], max_length=60),
        ),
        migrations.CreateModel(
            name='SessionCheckIn',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('checked_in_at', models.DateTimeField()),
                ('how', models.CharField(choices=[('self', 'Self'), ('director', 'Director')], max_length=10)),
                ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('entry', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='check_ins', to='scoring.entry')),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='check_ins', to='scoring.session')),
            ],
            options={
                'ordering': ['session', 'checked_in_at', 'id'],
                'constraints': [models.UniqueConstraint(fields=('session', 'entry'), name='checkin_unique_entry_per_session'), models.CheckConstraint(condition=models.Q(('how__in', ['self', 'director'])), name='checkin_how_valid'), models.CheckConstraint(condition=models.Q(('how', 'director'), ('by__isnull', True), _connector='OR'), name='checkin_self_has_no_user')],
            },
        ),
        migrations.RunPython(run(FORWARD), run(BACKWARD)),
    ]
