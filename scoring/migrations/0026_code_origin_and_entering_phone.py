"""Where a player's code came from, and which phone entered a deal.

``Entry.code_origin`` / ``code_set_at`` / ``code_set_on``: a code from the director proves the
player; one set at first use on a scorer page confirms only deals entered after it, on another
phone (``scoring.domain.proof.confirm_refusal``). ``Round.entered_on``: the phone that entered it.

Codes already set are read from their latest ActionLog row (``entry_code_set`` / ``entry_code_issue``,
``data.by``): the director's stay the director's; the rest count as set at first use on a phone
not known, so they confirm nothing until the director issues a card (they still prove the
player who enters a deal)."""

from django.db import migrations, models
from django.db.models import CharField, OuterRef, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast


def origins_from_the_log(apps, schema_editor):
    Entry = apps.get_model("scoring", "Entry")
    ActionLog = apps.get_model("scoring", "ActionLog")
    latest = (ActionLog.objects.filter(action__in=["entry_code_set", "entry_code_issue"], target_model="Entry",
                                       target_id=Cast(OuterRef("pk"), output_field=CharField()))
              .order_by("-created_at", "-id"))
    rows = (Entry.objects.exclude(code_hash="")
            .annotate(set_at=Subquery(latest.values("created_at")[:1]),
                      by=Subquery(latest.annotate(by=KT("data__by")).values("by")[:1]))
            .values_list("pk", "set_at", "by"))
    changed = [Entry(pk=pk, code_set_at=set_at, code_origin="director" if by == "director" else "first_use")
               for pk, set_at, by in rows.iterator()]
    Entry.objects.bulk_update(changed, ["code_set_at", "code_origin"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0025_rating_change_indexes'),
    ]

    operations = [
        migrations.AddField(
            model_name='entry',
            name='code_origin',
            field=models.CharField(blank=True, choices=[('', 'none'), ('director', 'director'), ('first_use', 'first use')], default='', max_length=10),
        ),
        migrations.AddField(
            model_name='entry',
            name='code_set_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='entry',
            name='code_set_on',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.AddField(
            model_name='round',
            name='entered_on',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.RunPython(origins_from_the_log, migrations.RunPython.noop, elidable=True),
    ]
