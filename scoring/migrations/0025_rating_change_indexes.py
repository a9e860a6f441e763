# A rating change's round and player have no index of their own: the unique (round, player) and
# the (player, round) index lead with them, and a rebuild writes every index 400,000 times.
# Django's AlterField drops nothing for a foreign key without a database constraint, so the two
# indexes (named as Django named them, the same on every database) are dropped here.

import django.db.models.deletion
from django.db import migrations, models

INDEXES = {"scoring_ratingchange_round_id_bdb38296": "round_id",
           "scoring_ratingchange_player_id_7b8f4d08": "player_id"}


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0024_paper_sheets_tables_changed'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(f'DROP INDEX IF EXISTS "{name}"',
                                  f'CREATE INDEX "{name}" ON "scoring_ratingchange" ("{column}")')
                for name, column in INDEXES.items()
            ],
            state_operations=[
                migrations.AlterField(
                    model_name='ratingchange',
                    name='player',
                    field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='rating_changes', to='scoring.player'),
                ),
                migrations.AlterField(
                    model_name='ratingchange',
                    name='round',
                    field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scoring.round'),
                ),
            ],
        ),
    ]
