"""``Tournament.entry_level``: the level of detail a phone with none of its own starts a deal on;
the tournaments made until now start on their game's first, as they did."""

from django.db import migrations, models

import games


def the_games_first(apps, schema_editor):
    Tournament = apps.get_model("scoring", "Tournament")
    for key, game in games.CATALOG.items():
        Tournament.objects.filter(game=key, entry_level="").update(entry_level=game.entry.ways_of_entering()[0][0])


class Migration(migrations.Migration):

    dependencies = [("scoring", "0029_import_rated")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="entry_level",
            field=models.CharField(blank=True, default="", max_length=20, choices=[
                ("points", "Points"), ("unplayed_tiles", "Unplayed tiles"), ("moves", "Full move log"),
                ("hands", "Hands"), ("values", "Values only"), ("groups", "Groups"), ("winners", "Winners only")]),
        ),
        migrations.RunPython(the_games_first, migrations.RunPython.noop),
    ]
