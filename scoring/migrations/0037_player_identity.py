"""One identity per player in a club: the personal code moves from ``Entry`` to ``Player``.

Each player gets the code of his entry whose code was set last (``code_set_at``, a code of
unknown time counting as the oldest; then the newest entry), with where it came from; his
version starts at 1 when he has one. Every entry's own code stays as ``legacy_code_*``: it still
proves its player in that tournament until the director sets, issues or resets his code
(``scoring.services.players``). ``Entry.code_version``
goes: phones now remember the player with his version (``scoring.web.player_proof``), so a
phone proven before this asks once more who it speaks for."""

from django.db import migrations, models
from django.db.models import F, OuterRef, Subquery


def codes_to_players(apps, schema_editor):
    Entry = apps.get_model("scoring", "Entry")
    Player = apps.get_model("scoring", "Player")
    latest = {}
    rows = (Entry.objects.exclude(code_hash="")
            .order_by("player_id", F("code_set_at").asc(nulls_first=True), "id")
            .values_list("player_id", "code_hash", "code_origin", "code_set_at", "code_set_on"))
    for player_id, *code in rows.iterator():   # ordered: the last row of a player is his latest code
        latest[player_id] = code
    changed = [Player(pk=pk, code_hash=h, code_origin=origin, code_set_at=at, code_set_on=on, code_version=1)
               for pk, (h, origin, at, on) in latest.items()]
    Player.objects.bulk_update(changed, ["code_hash", "code_origin", "code_set_at", "code_set_on", "code_version"],
                               batch_size=500)


def players_to_entries(apps, schema_editor):
    """Going back: each entry keeps its own code; one without gets its player's (a code set since)."""
    Entry = apps.get_model("scoring", "Entry")
    Player = apps.get_model("scoring", "Player")
    player = Player.objects.filter(pk=OuterRef("player_id"))
    (Entry.objects.filter(code_hash="").exclude(player__code_hash="")
     .update(**{name: Subquery(player.values(name)[:1])
                for name in ("code_hash", "code_origin", "code_set_at", "code_set_on", "code_version")}))


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0036_checkins'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='code_hash',
            field=models.CharField(blank=True, default='', max_length=128),
        ),
        migrations.AddField(
            model_name='player',
            name='code_version',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='player',
            name='code_origin',
            field=models.CharField(blank=True, choices=[('', 'none'), ('director', 'director'), ('first_use', 'first use')], default='', max_length=10),
        ),
        migrations.AddField(
            model_name='player',
            name='code_set_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='player',
            name='code_set_on',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.RunPython(codes_to_players, players_to_entries),
        migrations.RemoveField(
            model_name='entry',
            name='code_version',
        ),
        migrations.RenameField(model_name='entry', old_name='code_hash', new_name='legacy_code_hash'),
        migrations.RenameField(model_name='entry', old_name='code_origin', new_name='legacy_code_origin'),
        migrations.RenameField(model_name='entry', old_name='code_set_at', new_name='legacy_code_set_at'),
        migrations.RenameField(model_name='entry', old_name='code_set_on', new_name='legacy_code_set_on'),
    ]
