"""Migration 0037_player_identity: each player gets the code of his entry whose code was set last
(with where it came from, version 1); every entry keeps its own code as its legacy code, so no
code in use stops proving its player."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("scoring", "0036_checkins")]
AFTER = [("scoring", "0037_player_identity")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_the_latest_code_goes_to_the_player_and_every_entry_keeps_its_own():
    apps = migrate(BEFORE)
    Club, Player = apps.get_model("scoring", "Club"), apps.get_model("scoring", "Player")
    Tournament, Entry = apps.get_model("scoring", "Tournament"), apps.get_model("scoring", "Entry")
    club = Club.objects.create(name="C", slug="c")
    anna, bob = Player.objects.create(club=club, name="Anna"), Player.objects.create(club=club, name="Bob")
    older, newer = (Tournament.objects.create(club=club, name=n, slug=n, game="jie_long") for n in ("t1", "t2"))
    at = [datetime(2026, 1, d, tzinfo=timezone.utc) for d in (1, 2)]
    e1 = Entry.objects.create(tournament=newer, player=anna, code_hash="h-new", code_origin="first_use",
                              code_set_at=at[1], code_set_on="phone-1", code_version=3)
    e2 = Entry.objects.create(tournament=older, player=anna, code_hash="h-old", code_origin="director",
                              code_set_at=at[0], code_version=1)
    Entry.objects.create(tournament=older, player=bob)   # no code: none for Bob
    celine = Player.objects.create(club=club, name="Celine")
    Entry.objects.create(tournament=older, player=celine, code_hash="h-dated", code_origin="director", code_set_at=at[0])
    # a code of unknown time (set before times were kept) counts as older than any dated one
    Entry.objects.create(tournament=newer, player=celine, code_hash="h-undated", code_origin="first_use")
    try:
        apps = migrate(AFTER)
        Player, Entry = apps.get_model("scoring", "Player"), apps.get_model("scoring", "Entry")
        a, b = Player.objects.get(name="Anna"), Player.objects.get(name="Bob")
        assert (a.code_hash, a.code_origin, a.code_set_at, a.code_set_on, a.code_version) == (
            "h-new", "first_use", at[1], "phone-1", 1)
        assert (b.code_hash, b.code_version) == ("", 0)
        assert Player.objects.get(name="Celine").code_hash == "h-dated"
        assert Entry.objects.get(pk=e1.pk).legacy_code_hash == "h-new"
        kept = Entry.objects.get(pk=e2.pk)
        assert (kept.legacy_code_hash, kept.legacy_code_origin, kept.legacy_code_set_at) == ("h-old", "director", at[0])
    finally:
        migrate(AFTER)
