"""Substitutions: another entry takes a seat of a table from a deal on (``Substitution``), and
the ``table_substitute`` action of the log."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0030_tournament_entry_level'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='actionlog',
            name='action',
            field=models.CharField(choices=[('director_create', 'Director Create'), ('auth_token_create', 'Auth Token Create'), ('club_create', 'Club Create'), ('club_director_add', 'Club Director Add'), ('player_create', 'Player Create'), ('tournament_create', 'Tournament Create'), ('tournament_update', 'Tournament Update'), ('tournament_start', 'Tournament Start'), ('tournament_finish', 'Tournament Finish'), ('entry_create', 'Entry Create'), ('session_create', 'Session Create'), ('table_create', 'Table Create'), ('table_scorer_token_rotate', 'Table Scorer Token Rotate'), ('round_record', 'Round Record'), ('round_correct', 'Round Correct'), ('round_confirm', 'Round Confirm'), ('round_void', 'Round Void'), ('round_dispute', 'Round Dispute'), ('round_dispute_resolve', 'Round Dispute Resolve'), ('auth_tokens_revoke', 'Auth Tokens Revoke'), ('idempotency_keys_cleanup', 'Idempotency Keys Cleanup'), ('auth_tokens_cleanup', 'Auth Tokens Cleanup'), ('standings_repair', 'Standings Repair'), ('session_seat', 'Session Seat'), ('session_close', 'Session Close'), ('session_reopen', 'Session Reopen'), ('session_clock_start', 'Session Clock Start'), ('session_clock_stop', 'Session Clock Stop'), ('tournament_import', 'Tournament Import'), ('tournament_import_queue', 'Tournament Import Queue'), ('audit_start', 'Audit Start'), ('audit_resume', 'Audit Resume'), ('audit_finish', 'Audit Finish'), ('entry_code_set', 'Entry Code Set'), ('entry_code_issue', 'Entry Code Issue'), ('entry_code_reset', 'Entry Code Reset'), ('player_rename', 'Player Rename'), ('entry_withdraw', 'Entry Withdraw'), ('entry_reenter', 'Entry Reenter'), ('table_delete', 'Table Delete'), ('table_substitute', 'Table Substitute'), ('tournament_delete', 'Tournament Delete'), ('season_create', 'Season Create'), ('season_update', 'Season Update'), ('season_tournament_add', 'Season Tournament Add'), ('season_tournament_remove', 'Season Tournament Remove'), ('ratings_rebuild', 'Ratings Rebuild'), ('paper_sheets_start', 'Paper Sheets Start'), ('club_ratings_update', 'Club Ratings Update'), ('adjustment_create', 'Adjustment Create'), ('adjustment_delete', 'Adjustment Delete')], max_length=60),
        ),
        migrations.CreateModel(
            name='Substitution',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField()),
                ('from_deal', models.PositiveIntegerField()),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('entry_in', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='substitutions_in', to='scoring.entry')),
                ('entry_out', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='substitutions_out', to='scoring.entry')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='substitutions', to='scoring.table')),
            ],
            options={
                'ordering': ['table', 'id'],
                'indexes': [models.Index(fields=['table', 'seat'], name='scoring_sub_table_i_1ea563_idx')],
                'constraints': [models.CheckConstraint(condition=models.Q(('from_deal__gte', 1)), name='substitution_from_deal_positive'), models.CheckConstraint(condition=models.Q(('entry_in', models.F('entry_out')), _negated=True), name='substitution_other_entry')],
            },
        ),
    ]
