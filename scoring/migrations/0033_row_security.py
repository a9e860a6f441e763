"""Row-level security on PostgreSQL (SQLite: nothing): every club-owned table is readable and
writable only within the scope of the current transaction (``scoring.domain.row_scope``):

- ``gupai.all = 'on'``: every row (management commands, housekeeping tasks);
- the club's rows when the club is in ``gupai_scope_clubs()``: the ids in ``gupai.clubs`` (a
  scorer link's club, a worker's job's club) and the clubs the user ``gupai.user`` directs
  (read from ``scoring_club_directors`` once per statement);
- for reading only, what the public pages show: a public tournament that has started and what
  hangs from it, public seasons, the players of visible entries, a public ladder.

A table with a ``club_id`` is checked on that column (indexed); a child table through its
parent's key (an ``EXISTS`` on the parent's primary key), and reading it follows the parent's
own policies. Tables no public page reads (audits, imports, the action log, idempotency keys,
paper sheets, rated deals) have no public policy. ``FORCE``: the tables' owner is bound too
(only a superuser or a ``BYPASSRLS`` role is not).

Each setting is read as ``(SELECT …)``: PostgreSQL evaluates it once per statement (an
InitPlan), and ``club_id = ANY (…)`` keeps the index usable.
"""

from django.db import migrations

ALL = "(SELECT current_setting('gupai.all', true)) = 'on'"
USER = "(SELECT nullif(current_setting('gupai.user', true), '')::bigint)"

FUNCTION = """
CREATE OR REPLACE FUNCTION gupai_scope_clubs() RETURNS bigint[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('gupai.clubs', true), '')::bigint[], '{}'::bigint[])
      || coalesce((SELECT array_agg(cd.club_id) FROM scoring_club_directors cd
                   WHERE cd.user_id = nullif(current_setting('gupai.user', true), '')::bigint), '{}'::bigint[])
$$
"""


def in_scope(column: str) -> str:
    return f"({ALL} OR {column} = ANY ((SELECT gupai_scope_clubs())::bigint[]))"


#: table → (its key to the parent, the parent) for child tables; None: the table has club_id.
PARENTS = {
    "scoring_tournament": None, "scoring_player": None, "scoring_season": None, "scoring_tournamentimport": None,
    "scoring_playerrating": None, "scoring_ratingchange": None, "scoring_rateddeal": None,
    "scoring_entry": ("tournament_id", "scoring_tournament"),
    "scoring_session": ("tournament_id", "scoring_tournament"),
    "scoring_standing": ("tournament_id", "scoring_tournament"),
    "scoring_adjustment": ("tournament_id", "scoring_tournament"),
    "scoring_tournamentfeed": ("tournament_id", "scoring_tournament"),
    "scoring_tournamentevent": ("tournament_id", "scoring_tournament"),
    "scoring_seasontournament": ("tournament_id", "scoring_tournament"),
    "scoring_audit": ("tournament_id", "scoring_tournament"),
    "scoring_actionlog": ("tournament_id", "scoring_tournament"),
    "scoring_table": ("session_id", "scoring_session"),
    "scoring_papersheetjob": ("session_id", "scoring_session"),
    "scoring_seat": ("table_id", "scoring_table"),
    "scoring_substitution": ("table_id", "scoring_table"),
    "scoring_round": ("table_id", "scoring_table"),
    "scoring_roundrevision": ("round_id", "scoring_round"),
    "scoring_auditchunk": ("audit_id", "scoring_audit"),
    "scoring_auditfinding": ("audit_id", "scoring_audit"),
    "scoring_idempotencykey": ("table_id", "scoring_table"),
}

LADDER = "EXISTS (SELECT 1 FROM scoring_club c WHERE c.id = {t}.club_id AND c.ladder_public)"
#: What anyone may read: SQL on the table's row, or "parent" (the row whose parent they may read).
PUBLIC = {
    "scoring_tournament": "public AND status <> 'draft'",
    "scoring_season": "public",
    "scoring_player": "EXISTS (SELECT 1 FROM scoring_entry e WHERE e.player_id = scoring_player.id) OR "
                      + LADDER.format(t="scoring_player"),
    "scoring_playerrating": LADDER.format(t="scoring_playerrating"),
    "scoring_ratingchange": LADDER.format(t="scoring_ratingchange"),
    **{t: "parent" for t in ("scoring_entry", "scoring_session", "scoring_standing", "scoring_adjustment",
                             "scoring_tournamentfeed", "scoring_tournamentevent", "scoring_seasontournament",
                             "scoring_table", "scoring_seat", "scoring_substitution", "scoring_round",
                             "scoring_roundrevision")},
}


def club_check(table: str, alias: str, depth: int = 0) -> str:
    """SQL true when the row ``alias`` of ``table`` belongs to a club in scope."""
    parent = PARENTS[table]
    if parent is None:
        return in_scope(f"{alias}.club_id")
    key, parent_table = parent
    p = f"p{depth}"
    return (f"EXISTS (SELECT 1 FROM {parent_table} {p} WHERE {p}.id = {alias}.{key} AND "
            f"{club_check(parent_table, p, depth + 1)})")


def own_rows(table: str) -> str:
    if table == "scoring_idempotencykey":   # a table's key or a tournament's (a seating's)
        return (f"({ALL} OR {club_check(table, table)} OR EXISTS (SELECT 1 FROM scoring_tournament p0 "
                f"WHERE p0.id = {table}.tournament_id AND {in_scope('p0.club_id')}))")
    if table == "scoring_actionlog":   # a change of no tournament (a club made): its actor's, and the system's
        return (f"({ALL} OR {club_check(table, table)} OR "
                f"({table}.tournament_id IS NULL AND {table}.actor_user_id = {USER}))")
    return club_check(table, table)


def public_rows(table: str) -> str | None:
    rule = PUBLIC.get(table)
    if rule != "parent":
        return rule
    key, parent_table = PARENTS[table]
    # The parent's own policies decide: a row hangs from a parent the reader may read.
    return f"EXISTS (SELECT 1 FROM {parent_table} p WHERE p.id = {table}.{key})"


def statements() -> list[str]:
    out = [FUNCTION]
    for table in PARENTS:
        out += [f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY", f"ALTER TABLE {table} FORCE ROW LEVEL SECURITY",
                f"CREATE POLICY club_rows ON {table} USING ({own_rows(table)}) WITH CHECK ({own_rows(table)})"]
        if (public := public_rows(table)) is not None:
            out.append(f"CREATE POLICY public_rows ON {table} FOR SELECT USING ({public})")
    return out


def reverse_statements() -> list[str]:
    out = []
    for table in PARENTS:
        out += [f"DROP POLICY IF EXISTS public_rows ON {table}", f"DROP POLICY IF EXISTS club_rows ON {table}",
                f"ALTER TABLE {table} NO FORCE ROW LEVEL SECURITY", f"ALTER TABLE {table} DISABLE ROW LEVEL SECURITY"]
    return out + ["DROP FUNCTION IF EXISTS gupai_scope_clubs()"]


def run(sqls):
    def apply(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in sqls():
            schema_editor.execute(sql)
    return apply


class Migration(migrations.Migration):

    dependencies = [("scoring", "0032_table_phone_heard")]

    operations = [migrations.RunPython(run(statements), run(reverse_statements))]
