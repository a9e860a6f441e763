"""The public pages read on the replica, chosen explicitly; directors read their own writes on
the primary (scoring/selectors/replica.py).

The ``replica`` alias here is a second connection to the test database (as TEST MIRROR makes
it), so that the queries each alias ran can be told apart; the tests commit (transactional_db),
as the replica sees only what the primary committed."""

from __future__ import annotations

import pytest
from django.db import connections, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Tournament
from scoring.selectors.replica import public_db, reading
from scoring.services.rounds import round_record
from tests.conftest import replica_alias


@pytest.fixture
def replica(transactional_db):
    with replica_alias() as alias:
        yield alias


class Queries:
    """The SQL each alias ran inside the block: ``.default``, ``.replica``."""

    def __enter__(self):
        self.captured = {alias: CaptureQueriesContext(connections[alias]) for alias in ("default", "replica")}
        for c in self.captured.values():
            c.__enter__()
        return self

    def __exit__(self, *exc):
        for c in self.captured.values():
            c.__exit__(*exc)
        self.default = [q["sql"] for q in self.captured["default"].captured_queries]
        self.replica = [q["sql"] for q in self.captured["replica"].captured_queries]


def scoring_reads(sqls: list[str]) -> list[str]:
    return [sql for sql in sqls if "scoring_" in sql and sql.lstrip().upper().startswith("SELECT")]


@pytest.mark.parametrize("page", ["public-tournament", "public-tournament-live", "public-table", "public-player",
                                  "public-club-player", "public-club-ratings"])
def test_a_public_page_reads_the_replica(replica, jie_long, client, page):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={"points": [2, 12, 34, 18]})
    t = jie_long.tournament
    if page == "public-club-ratings":
        t.club.__class__.objects.filter(pk=t.club_id).update(ladder_public=True)
    args = {"public-tournament": [t.slug], "public-tournament-live": [t.slug],
            "public-table": [t.slug, jie_long.table.pk], "public-player": [t.slug, jie_long.entries[0].player_id],
            "public-club-player": [jie_long.entries[0].player_id], "public-club-ratings": [t.club_id]}[page]
    with Queries() as q:
        r = client.get(reverse(page, args=args))
    assert r.status_code == 200
    assert scoring_reads(q.replica), "the page read nothing on the replica"
    assert scoring_reads(q.default) == []   # every read of the club's rows on the replica


def test_a_season_page_reads_the_replica(replica, jie_long, client, director_actor):
    from scoring.services.seasons import season_create

    season = season_create(actor=director_actor, club=jie_long.tournament.club, name="Spring", public=True)
    with Queries() as q:
        assert client.get(reverse("public-season", args=[season.pk])).status_code == 200
    assert scoring_reads(q.replica) and scoring_reads(q.default) == []


def test_a_directors_read_after_write_is_on_the_primary(replica, jie_long, client, director):
    client.force_login(director)
    with Queries() as q:
        deal = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body={"points": [2, 12, 34, 18]})
        r = client.get(reverse("director-tournament", args=[jie_long.tournament.pk]))
    assert r.status_code == 200
    assert q.replica == []   # nothing on the replica: not the write, not the director's page
    assert deal.pk and any('"scoring_round"' in sql for sql in scoring_reads(q.default))   # the deals read back


def test_reads_stay_on_the_primary_unless_asked_and_inside_a_transaction(replica, jie_long):
    with Queries() as q:
        Tournament.objects.get(pk=jie_long.tournament.pk)   # not asked: the primary
        with reading(replica=True) as alias:
            assert alias == "replica"
            Tournament.objects.get(pk=jie_long.tournament.pk)
        with transaction.atomic(), reading(replica=True) as alias:
            assert alias == "default"   # its reads may depend on the transaction's writes
            Tournament.objects.get(pk=jie_long.tournament.pk)
    assert len(scoring_reads(q.replica)) == 1 and len(scoring_reads(q.default)) == 2


def test_every_write_goes_to_the_primary_also_of_a_row_read_on_the_replica(replica, jie_long):
    with reading(replica=True):
        t = Tournament.objects.get(pk=jie_long.tournament.pk)
        assert t._state.db == "replica"
        with Queries() as q:
            t.name = "Renamed open"
            t.save(update_fields=["name"])
    assert q.replica == [] and any(sql.startswith("UPDATE") for sql in q.default)
    assert Tournament.objects.get(pk=t.pk).name == "Renamed open"


def test_without_a_replica_everything_reads_the_primary(db, jie_long):
    assert public_db() == "default"
    with reading(replica=True) as alias:
        assert alias == "default"
        assert Tournament.objects.filter(pk=jie_long.tournament.pk).exists()
