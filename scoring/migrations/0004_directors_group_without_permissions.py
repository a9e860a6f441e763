"""Directors no longer hold model permissions: every change goes through a service, and the
Django admin is for superusers only."""

from django.db import migrations


def forward(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for group in Group.objects.filter(name="Directors"):
        group.permissions.clear()


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_actionlog_action_choices"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
