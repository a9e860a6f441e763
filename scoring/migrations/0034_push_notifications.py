"""Web Push: players' subscriptions and the notices sent (``scoring.models.push``), with row-level
security as every club-owned table has (0033_row_security): a ``club_id`` column of their own on
PostgreSQL, filled from the parent (the player's club, the tournament's) by a trigger on insert,
and the club's policy. No public policy: no public page reads them."""

import django.db.models.deletion
from django.db import migrations, models

ALL = "(SELECT current_setting('gupai.all', true)) = 'on'"
OWN = f"({ALL} OR club_id = ANY ((SELECT gupai_scope_clubs())::bigint[]))"
#: table → (its key to the parent, the parent): both parents have club_id.
PARENTS = {"scoring_pushsubscription": ("player_id", "scoring_player"),
           "scoring_pushnotice": ("tournament_id", "scoring_tournament")}


def statements() -> list[str]:
    out = []
    for table, (key, parent) in PARENTS.items():
        out += [f"ALTER TABLE {table} ADD COLUMN club_id bigint",
                f"UPDATE {table} SET club_id = p.club_id FROM {parent} p WHERE p.id = {table}.{key}",
                f"CREATE FUNCTION gupai_fill_{table}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"SELECT p.club_id INTO NEW.club_id FROM {parent} p WHERE p.id = NEW.{key}; RETURN NEW; END $$",
                f"CREATE TRIGGER gupai_fill BEFORE INSERT OR UPDATE OF {key} ON {table} FOR EACH ROW "
                f"EXECUTE FUNCTION gupai_fill_{table}()",
                f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY", f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY",
                f"CREATE POLICY club_rows ON {table} USING ({OWN}) WITH CHECK ({OWN})"]
    return out


def reverse_statements() -> list[str]:
    out = []
    for table in PARENTS:
        out += [f"DROP POLICY IF EXISTS club_rows ON {table}", f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY",
                f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY", f"DROP TRIGGER IF EXISTS gupai_fill ON {table}",
                f"DROP FUNCTION IF EXISTS gupai_fill_{table}()", f"ALTER TABLE {table} DROP COLUMN IF EXISTS club_id"]
    return out


def run(sqls):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in sqls():
            schema_editor.execute(sql)
    return apply


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0033_row_security'),
    ]

    operations = [
        migrations.AlterField(
            model_name='actionlog',
            name='action',
            field=models.CharField(choices=[('director_create', 'Director Create'), ('auth_token_create', 'Auth Token Create'), ('club_create', 'Club Create'), ('club_director_add', 'Club Director Add'), ('player_create', 'Player Create'), ('tournament_create', 'Tournament Create'), ('tournament_update', 'Tournament Update'), ('tournament_start', 'Tournament Start'), ('tournament_finish', 'Tournament Finish'), ('entry_create', 'Entry Create'), ('session_create', 'Session Create'), ('table_create', 'Table Create'), ('table_scorer_token_rotate', 'Table Scorer Token Rotate'), ('round_record', 'Round Record'), ('round_correct', 'Round Correct'), ('round_confirm', 'Round Confirm'), ('round_void', 'Round Void'), ('round_dispute', 'Round Dispute'), ('round_dispute_resolve', 'Round Dispute Resolve'), ('auth_tokens_revoke', 'Auth Tokens Revoke'), ('idempotency_keys_cleanup', 'Idempotency Keys Cleanup'), ('auth_tokens_cleanup', 'Auth Tokens Cleanup'), ('standings_repair', 'Standings Repair'), ('session_seat', 'Session Seat'), ('session_close', 'Session Close'), ('session_reopen', 'Session Reopen'), ('session_clock_start', 'Session Clock Start'), ('session_clock_stop', 'Session Clock Stop'), ('tournament_import', 'Tournament Import'), ('tournament_import_queue', 'Tournament Import Queue'), ('audit_start', 'Audit Start'), ('audit_resume', 'Audit Resume'), ('audit_finish', 'Audit Finish'), ('entry_code_set', 'Entry Code Set'), ('entry_code_issue', 'Entry Code Issue'), ('entry_code_reset', 'Entry Code Reset'), ('player_rename', 'Player Rename'), ('entry_withdraw', 'Entry Withdraw'), ('entry_reenter', 'Entry Reenter'), ('table_delete', 'Table Delete'), ('table_substitute', 'Table Substitute'), ('tournament_delete', 'Tournament Delete'), ('season_create', 'Season Create'), ('season_update', 'Season Update'), ('season_tournament_add', 'Season Tournament Add'), ('season_tournament_remove', 'Season Tournament Remove'), ('ratings_rebuild', 'Ratings Rebuild'), ('paper_sheets_start', 'Paper Sheets Start'), ('club_ratings_update', 'Club Ratings Update'), ('adjustment_create', 'Adjustment Create'), ('adjustment_delete', 'Adjustment Delete'), ('push_subscribe', 'Push Subscribe'), ('push_unsubscribe', 'Push Unsubscribe'), ('push_notice_send', 'Push Notice Send')], max_length=60),
        ),
        migrations.CreateModel(
            name='PushSubscription',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('endpoint', models.CharField(max_length=1000, unique=True)),
                ('p256dh', models.CharField(max_length=200)),
                ('auth', models.CharField(max_length=100)),
                ('language', models.CharField(blank=True, default='', max_length=10)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('last_result', models.CharField(blank=True, default='', max_length=40)),
                ('last_sent_at', models.DateTimeField(blank=True, null=True)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='push_subscriptions', to='scoring.player')),
            ],
            options={
                'ordering': ['id'],
            },
        ),
        migrations.CreateModel(
            name='PushNotice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('seated', 'Seated'), ('five_minutes', 'Five Minutes'), ('standings', 'Standings')], max_length=20)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('sent', models.PositiveIntegerField(default=0)),
                ('delivered', models.PositiveIntegerField(default=0)),
                ('failed', models.PositiveIntegerField(default=0)),
                ('session', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='push_notices', to='scoring.session')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='push_notices', to='scoring.tournament')),
            ],
            options={
                'ordering': ['tournament', 'id'],
                'constraints': [models.UniqueConstraint(condition=models.Q(('session__isnull', False)), fields=('session', 'kind'), name='push_notice_once_per_session'), models.UniqueConstraint(condition=models.Q(('session__isnull', True)), fields=('tournament', 'kind'), name='push_notice_once_per_tournament'), models.CheckConstraint(condition=models.Q(('kind__in', ['seated', 'five_minutes', 'standings'])), name='push_notice_kind_valid')],
            },
        ),
        migrations.RunPython(run(statements), run(reverse_statements)),
    ]
