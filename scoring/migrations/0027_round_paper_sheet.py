"""``Round.paper_sheet``: the deal was typed in by a director from the table's paper score sheet.

Sheets recorded before are found by their idempotency key: a sheet's stored answer lists the
deals it recorded (``{"rounds": [...], "numbers": [...]}``); a phone's deal's answer is the deal."""

from django.db import migrations, models


def sheets_from_their_keys(apps, schema_editor):
    IdempotencyKey = apps.get_model("scoring", "IdempotencyKey")
    Round = apps.get_model("scoring", "Round")
    ids: list[int] = []
    for answer in IdempotencyKey.objects.filter(response_body__has_key="rounds").values_list("response_body", flat=True):
        rounds = answer.get("rounds") if isinstance(answer, dict) else None
        if isinstance(rounds, list):
            ids.extend(r for r in rounds if isinstance(r, int))
    for start in range(0, len(ids), 1000):
        Round.objects.filter(pk__in=ids[start:start + 1000]).update(paper_sheet=True)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0026_code_origin_and_entering_phone")]

    operations = [
        migrations.AddField(model_name="round", name="paper_sheet", field=models.BooleanField(default=False)),
        migrations.RunPython(sheets_from_their_keys, migrations.RunPython.noop),
    ]
