# Seating takes an Idempotency-Key (keys per tournament beside the keys per table) and keeps
# an open session's scorer links readable for the director's sheet (Table.scorer_token_secret).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0017_events'),
    ]

    operations = [
        migrations.AddField(
            model_name='idempotencykey',
            name='session',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scoring.session'),
        ),
        migrations.AddField(
            model_name='idempotencykey',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scoring.tournament'),
        ),
        migrations.AddField(
            model_name='table',
            name='scorer_token_secret',
            field=models.TextField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='idempotencykey',
            name='table',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='idempotency_keys', to='scoring.table'),
        ),
        migrations.AddConstraint(
            model_name='idempotencykey',
            constraint=models.UniqueConstraint(fields=('tournament', 'key'), name='idempotency_unique_key_per_tournament'),
        ),
        migrations.AddConstraint(
            model_name='idempotencykey',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('table__isnull', False), ('tournament__isnull', True)), models.Q(('table__isnull', True), ('tournament__isnull', False)), _connector='OR'), name='idempotency_table_or_tournament'),
        ),
    ]
