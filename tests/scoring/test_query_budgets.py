"""How many SQL queries the hot paths cost, pinned so that a change cannot slow them silently.

Counts are the work itself: inside a test the service's transaction is a savepoint (SAVEPOINT
and RELEASE count as two); in production it is BEGIN/COMMIT, which Django does not count.
"""

from __future__ import annotations

import pytest

from scoring import services

from .bodies import JIE_LONG

pytestmark = pytest.mark.django_db

#: SAVEPOINT + table and seats (locked) + last deal + deal + revision 1 + the deal's current
#: revision + the players' standings + audit row + RELEASE.
RECORD = 9
#: The table (from the scorer link, not read again) + SAVEPOINT + key + the same work as RECORD
#: without its savepoint + the key's stored answer + RELEASE.
RECORD_OVER_HTTP = 12
#: Table (from the link), seats, the last 10 deals, the next deal's defaults, running totals.
SCORER_PAGE = 5
#: Session, user, tournament, director check, tables, seats, deal counts, last deals, running
#: totals, sessions, disputes, entries, standings, recent actions, players to enter, latest audit.
DASHBOARD = 16


def test_recording_a_deal(jie_long, django_assert_num_queries):
    s = jie_long
    services.round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    with django_assert_num_queries(RECORD):
        services.round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)


def test_recording_a_deal_over_http_with_an_idempotency_key(jie_long, scorer_client_for,
                                                            django_assert_num_queries):
    scorer = scorer_client_for(jie_long.token)
    url = f"/api/v1/tables/{jie_long.table.pk}/rounds/"
    assert scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="first").status_code == 201
    with django_assert_num_queries(RECORD_OVER_HTTP):
        assert scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="second").status_code == 201


def test_the_scorer_page_does_not_grow_with_the_deals(jie_long, client, django_assert_num_queries):
    s = jie_long
    for _ in range(12):
        services.round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    with django_assert_num_queries(SCORER_PAGE):
        assert client.get(f"/s/{s.token}/").status_code == 200


def _dashboard_queries(client, director, tournament, django_assert_num_queries):
    client.force_login(director)
    with django_assert_num_queries(DASHBOARD):
        assert client.get(f"/director/tournaments/{tournament.pk}/").status_code == 200


def test_the_dashboard_does_not_grow_with_tables_and_deals(make_setup, client, director, director_actor, club,
                                                          django_assert_num_queries):
    small = make_setup("jie_long")
    services.round_record(actor=small.scorer_actor, table=small.table, body=JIE_LONG)
    _dashboard_queries(client, director, small.tournament, django_assert_num_queries)

    big = make_setup("jie_long")
    t = big.tournament
    for table_number in range(2, 5):
        entries = []
        for seat in range(4):
            player = services.player_create(actor=director_actor, club=club, name=f"P{table_number}-{seat}")
            entries.append(services.entry_create(actor=director_actor, tournament=t, player=player))
        services.table_create(actor=director_actor, tournament=t, name=f"Table {table_number}", entries=entries)
    for table in t.sessions.get().tables.all():
        for _ in range(3):
            rnd = services.round_record(actor=big.director_actor, table=table, body=JIE_LONG)
        services.round_dispute(actor=big.director_actor, round=rnd, message="check")
    _dashboard_queries(client, director, t, django_assert_num_queries)
