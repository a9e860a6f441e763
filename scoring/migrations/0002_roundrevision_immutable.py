"""The database itself refuses to change a stored round revision (ARCHITECTURE: "a stored
RoundRevision never changes; corrections add one"). The hash chain detects tampering by
someone who gets past this; the trigger stops honest mistakes (a shell, a script, an admin
action) from rewriting history at all. Only the content columns are locked, so deleting a user
can still set ``actor_user`` to NULL."""

from django.db import migrations

CONTENT = "round_id, number, body, record, result, engine_version, actor_label, reason, created_at, prev_hash, hash"
MESSAGE = "round revisions are immutable: record a correction as a new revision"


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(
            "CREATE OR REPLACE FUNCTION scoring_roundrevision_forbid_change() RETURNS trigger "
            f"LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '{MESSAGE}'; END $$;")
        schema_editor.execute(
            f"CREATE TRIGGER scoring_roundrevision_immutable BEFORE UPDATE OF {CONTENT} "
            "ON scoring_roundrevision FOR EACH ROW EXECUTE FUNCTION scoring_roundrevision_forbid_change();")
    elif vendor == "sqlite":
        schema_editor.execute(
            f"CREATE TRIGGER scoring_roundrevision_immutable BEFORE UPDATE OF {CONTENT} "
            f"ON scoring_roundrevision BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END;")


def drop(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute("DROP TRIGGER IF EXISTS scoring_roundrevision_immutable ON scoring_roundrevision;")
        schema_editor.execute("DROP FUNCTION IF EXISTS scoring_roundrevision_forbid_change();")
    elif vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS scoring_roundrevision_immutable;")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]
    operations = [migrations.RunPython(create, drop)]
