"""How many SQL queries the hot paths cost, pinned so that a change cannot slow them silently.

Counts are the work itself: inside a test the service's transaction is a savepoint (SAVEPOINT
and RELEASE count as two); in production it is BEGIN/COMMIT, which Django does not count.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from scoring.models import Round
from scoring.services.clubs import player_create
from scoring.services.rounds import round_dispute, round_record
from scoring.services.tables import table_create
from scoring.services.tournaments import entry_create, tournament_update

from .bodies import DING_NIU_FULL_LOG, JIE_LONG
from .many_deals import add_deals

pytestmark = pytest.mark.django_db

#: On PostgreSQL a new deal is inserted already pointing at its first revision (the id drawn in
#: the same INSERT, the foreign key checked at commit): no UPDATE of its pointer.
POSTGRES = connection.vendor == "postgresql"
#: SAVEPOINT + table and seats (locked) + last deal + deal + revision 1 + the deal's current
#: revision (SQLite only) + the players' standings (their new rows read back by the same UPDATE,
#: for the live event) + audit row + the tournament's next version (an UPSERT … RETURNING) and the
#: live event (one statement on PostgreSQL, two on SQLite) + RELEASE.
RECORD = 9 if POSTGRES else 11
#: The table with its session, tournament and club (from the scorer link, one statement, not read
#: again) + SAVEPOINT + key (inserted first: whether it was stored already, so a retry is not
#: counted by the deal limit, comes from this insert, not from a query before it) + the same work
#: as RECORD without its savepoint + the key's stored answer + RELEASE. (Before issue 19: 13, the
#: stored key asked first, and the deal's pointer updated on PostgreSQL too; before 30 November
#: 2026, 13 on PostgreSQL: the version and the event two statements.)
RECORD_OVER_HTTP = 12 if POSTGRES else 14
#: The scorer page's own form (posted by deal-drafts.js, answered in JSON): RECORD_OVER_HTTP and
#: the seats with their players, which the form reads the inputs by (before issue 19: 16).
RECORD_FROM_THE_PAGE = RECORD_OVER_HTTP + 1
#: Table (from the link), seats, the seats' substitutions (the players of each deal), the last 10
#: deals, the next deal's defaults, running totals.
SCORER_PAGE = 6
#: Once every 10 s a request of the link also notes that the table's phone was heard (issue 28:
#: one conditional UPDATE; the requests between write nothing, judged from the table as read).
PHONE_HEARD = 1
#: The director's console, whatever the deals, tables and sessions: session, user, tournament,
#: director check, sessions, deal counts by table, the shown session's tables and their seats (and
#: whether each had a substitution: the seats' histories are read only then), a page of disputes,
#: the disputed tables' seats, entries, kept standings, a page of unsettled deals, the log's count
#: and a page of it, players to enter, latest audit, whether it came by import (its "imported"
#: mark). (Before the console
#: it was 17 too, made otherwise: every table with its running totals, which read every deal,
#: the last deals, every dispute and every unsettled deal, no counts.)
#: Disputes (issue 27): one more, the revisions of the disputed deals; adjustments: two more, the
#: lines under the standings rows and the director's list. (Substitutions cost none without one.)
#: Referees (issue 30): one more, the tournament's referees; check-in (issue 30): one more,
#: whether a session is open for check-in (while one is, its check-ins, entries and tables:
#: ``DASHBOARD_CHECKING_IN``).
DASHBOARD = 23
DASHBOARD_CHECKING_IN = DASHBOARD + 3
#: The console's live parts: session, user, tournament, director check, the version (one query,
#: as public LIVE_NOT_MODIFIED), then the sessions, deal counts by table, the shown session's tables
#: and their seats (and whether each had a substitution), a page of disputes, the disputed tables'
#: seats, the disputed deals' revisions, the standings, their adjustments.
DIRECTOR_LIVE_NOT_MODIFIED = 5
DIRECTOR_LIVE = 14
#: Public pages, for a visitor without a login. Tournament + kept standings (with entries and
#: players) + their adjustments + how many tables + a page of them (a 10,000-player tournament has
#: 2,500 a session).
STANDINGS_PAGE = 5
#: Tournament + table + seats + every deal's status, change time and nets (the seats' totals, the
#: deals' count, the live cursor) + the seats' substitutions (each deal's players, the seats'
#: history) + one page of deals (with their current revisions).
TABLE_PAGE = 6
#: Tournament + the deals' count and latest change.
LIVE_NOT_MODIFIED = 2
#: A table's live answer after a cursor: tournament + table + its version + the deals changed since
#: (with their current revisions) + seats + every deal's status, change time and nets + the seats'
#: substitutions.
TABLE_LIVE_CHANGES = 7
#: The room display (/t/<slug>/room/): tournament + the newest session with tables + its seats (with
#: players and tables) + the kept standings (with entries and players) + the latest deals + their
#: tables' seats and substitutions (the players of each deal).
ROOM_PAGE = 7
#: Its live parts unchanged: tournament + the deals' count and latest change + the feed's version.
ROOM_LIVE_NOT_MODIFIED = 3
#: A director's private tournament: the public look-up first (none), the login's session and user,
#: the club's tournament by slug.
ROOM_PAGE_DIRECTOR = ROOM_PAGE + 3



def test_recording_a_deal(jie_long, django_assert_num_queries):
    s = jie_long
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    with django_assert_num_queries(RECORD):
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)


def test_recording_a_deal_over_http_with_an_idempotency_key(jie_long, scorer_client_for,
                                                            django_assert_num_queries):
    scorer = scorer_client_for(jie_long.token)
    url = f"/api/v1/tables/{jie_long.table.pk}/rounds/"
    assert scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="first").status_code == 201
    with django_assert_num_queries(RECORD_OVER_HTTP):
        assert scorer.post(url, JIE_LONG, format="json", HTTP_IDEMPOTENCY_KEY="second").status_code == 201


def test_recording_a_deal_from_the_scorer_page(jie_long, client, django_assert_num_queries):
    url = f"/s/{jie_long.token}/"
    form = {"level": "points", "leader": "0", "entered_by": "1", "action": "submit", "points_0": "2",
            "points_1": "12", "points_2": "34", "points_3": "18"}
    assert client.post(url, {**form, "idem_key": "first"}, HTTP_ACCEPT="application/json").status_code == 201
    with django_assert_num_queries(RECORD_FROM_THE_PAGE):
        r = client.post(url, {**form, "idem_key": "second"}, HTTP_ACCEPT="application/json")
    assert r.status_code == 201 and r.json()["status"] == "saved"


def test_the_scorer_page_does_not_grow_with_the_deals(jie_long, client, django_assert_num_queries):
    s = jie_long
    for _ in range(12):
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    with django_assert_num_queries(SCORER_PAGE + PHONE_HEARD):   # the phone's first request: heard
        assert client.get(f"/s/{s.token}/").status_code == 200
    with django_assert_num_queries(SCORER_PAGE):
        assert client.get(f"/s/{s.token}/").status_code == 200


def _dashboard_queries(client, director, tournament, django_assert_num_queries):
    client.force_login(director)
    with django_assert_num_queries(DASHBOARD):
        assert client.get(f"/director/tournaments/{tournament.pk}/").status_code == 200


@pytest.mark.parametrize("deals", [30, 3000])
def test_the_console_costs_the_same_at_30_and_3000_deals(make_setup, client, director, django_assert_num_queries,
                                                         monkeypatch, deals):
    s = make_setup("jie_long")
    ids = add_deals(s, deals)
    for pk in ids[:3]:
        round_dispute(actor=s.director_actor, round=Round.objects.get(pk=pk), message="check")
    _dashboard_queries(client, director, s.tournament, django_assert_num_queries)
    for page in ("?deals_page=7", "?actions_page=999&disputes_page=2"):   # a page further on costs the same
        with django_assert_num_queries(DASHBOARD):
            assert client.get(f"/director/tournaments/{s.tournament.pk}/{page}").status_code == 200
    live = f"/director/tournaments/{s.tournament.pk}/live/"
    moment = timezone.now()   # the live version takes in the minute: none passes between the two asks
    monkeypatch.setattr(timezone, "now", lambda: moment)
    with django_assert_num_queries(DIRECTOR_LIVE):
        tag = client.get(live)["ETag"]
    with django_assert_num_queries(DIRECTOR_LIVE_NOT_MODIFIED):
        assert client.get(live, HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_the_dashboard_does_not_grow_with_tables_and_deals(make_setup, client, director, director_actor, club,
                                                          django_assert_num_queries):
    small = make_setup("jie_long")
    round_record(actor=small.scorer_actor, table=small.table, body=JIE_LONG)
    _dashboard_queries(client, director, small.tournament, django_assert_num_queries)

    big = make_setup("jie_long")
    t = big.tournament
    for table_number in range(2, 5):
        entries = []
        for seat in range(4):
            player = player_create(actor=director_actor, club=club, name=f"P{table_number}-{seat}")
            entries.append(entry_create(actor=director_actor, tournament=t, player=player))
        table_create(actor=director_actor, tournament=t, name=f"Table {table_number}", entries=entries)
    for table in t.sessions.get().tables.all():
        for _ in range(3):
            rnd = round_record(actor=big.director_actor, table=table, body=JIE_LONG)
        round_dispute(actor=big.director_actor, round=rnd, message="check")
    _dashboard_queries(client, director, t, django_assert_num_queries)


# --- the standings read -------------------------------------------------------------------------

#: The kept rows with their entries and players: one query, whatever the deals and entries.
STANDINGS = 1
#: Over HTTP, a director with an API token, a private tournament: the token with its user, the
#: tournament with its club, the director check, the rows.
STANDINGS_OVER_HTTP = 4
#: Over HTTP, anyone, a public tournament: the tournament, the rows.
STANDINGS_PUBLIC = 2
#: Head-to-head, reached with a tie left: the seats and the substitutions of the tied entries'
#: tables, then the counted deals of the tables where two of them met.
HEAD_TO_HEAD = 3


def _tournament_with(make_setup, director_actor, club, *, tables: int, deals: int):
    """A running Jie Long tournament with ``tables`` tables of four and ``deals`` deals in all."""
    s = make_setup("jie_long", names=[f"T{tables}-{i}" for i in range(4)])
    t = s.tournament
    all_tables = [s.table]
    for n in range(2, tables + 1):
        entries = [entry_create(actor=director_actor, tournament=t,
                                         player=player_create(actor=director_actor, club=club,
                                                                       name=f"T{tables}-{n}-{i}"))
                   for i in range(4)]
        all_tables.append(table_create(actor=director_actor, tournament=t, name=f"Table {n}",
                                                entries=entries)[0])
    for i in range(deals):
        round_record(actor=director_actor, table=all_tables[i % tables], body=JIE_LONG)
    return t


@pytest.mark.parametrize("tables, deals", [(1, 1), (3, 200)])
def test_the_standings_read_does_not_grow_with_deals_or_entries(make_setup, director_actor, club, director_client,
                                                                anon_client, django_assert_num_queries, tables, deals):
    from scoring.selectors.standings import standings_for

    t = _tournament_with(make_setup, director_actor, club, tables=tables, deals=deals)
    t.refresh_from_db()
    with django_assert_num_queries(STANDINGS):
        rows = standings_for(t)
    assert len(rows) == 4 * tables and sum(r["deals"] for r in rows) == 4 * deals
    tournament_update(actor=director_actor, tournament=t, public=False)
    with django_assert_num_queries(STANDINGS_OVER_HTTP):
        assert director_client.get(f"/api/v1/tournaments/{t.pk}/standings/").status_code == 200
    tournament_update(actor=director_actor, tournament=t, public=True)
    with django_assert_num_queries(STANDINGS_PUBLIC):
        assert anon_client.get(f"/api/v1/tournaments/{t.pk}/standings/").status_code == 200
    with django_assert_num_queries(STANDINGS_PUBLIC):
        assert anon_client.get(f"/api/v1/tournaments/{t.pk}/standings.csv").status_code == 200


@pytest.mark.parametrize("deals", [1, 40])
def test_head_to_head_costs_three_queries_whatever_the_deals(make_setup, django_assert_num_queries, deals):
    from scoring.selectors.standings import standings_for

    s = make_setup("jie_long")
    tournament_update(actor=s.director_actor, tournament=s.tournament, tie_breaks=["deals", "head_to_head"])
    s.tournament.refresh_from_db()
    for _ in range(deals):
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    with django_assert_num_queries(STANDINGS + HEAD_TO_HEAD):
        rows = standings_for(s.tournament)
    # Everyone played every deal; at one table of four, head-to-head is the net itself.
    assert [r["head_to_head"] for r in rows] == [58 * deals, 18 * deals, -6 * deals, -70 * deals]


def _grow(setup, body, count):
    for _ in range(count):
        round_record(actor=setup.scorer_actor, table=setup.table, body=body)


def test_the_standings_page_costs_the_same_whatever_the_deals(client, jie_long, django_assert_num_queries):
    url = f"/t/{jie_long.tournament.slug}/"
    _grow(jie_long, JIE_LONG, 1)
    with django_assert_num_queries(STANDINGS_PAGE):
        assert client.get(url).status_code == 200
    _grow(jie_long, JIE_LONG, 8)
    with django_assert_num_queries(STANDINGS_PAGE):
        assert client.get(url).status_code == 200


def test_a_table_page_costs_the_same_whatever_the_deals(client, ding_niu, django_assert_num_queries):
    url = f"/t/{ding_niu.tournament.slug}/tables/{ding_niu.table.pk}/"
    _grow(ding_niu, DING_NIU_FULL_LOG, 1)
    with django_assert_num_queries(TABLE_PAGE):
        assert client.get(url).status_code == 200
    _grow(ding_niu, DING_NIU_FULL_LOG, 6)
    with django_assert_num_queries(TABLE_PAGE):
        assert client.get(url).status_code == 200


def test_an_unchanged_live_fragment_costs_two_queries(client, jie_long, django_assert_num_queries):
    url = f"/t/{jie_long.tournament.slug}/live/"
    _grow(jie_long, JIE_LONG, 3)
    tag = client.get(url)["ETag"]
    with django_assert_num_queries(LIVE_NOT_MODIFIED):
        assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304


# --- the roster page ------------------------------------------------------------------------------

#: Session, user, tournament, director check, latest session, its tables (with deal counts), their
#: seats, entries, players to enter; and for a draft, whether it has deals, for a started one,
#: whether it came by import (an imported copy never published may be deleted: one more when it
#: did). Not the hot path, but a long tournament's roster must not read one row at a time.
ROSTER_PAGE = 10


@pytest.mark.parametrize("tables, deals", [(1, 0), (3, 30)])
def test_the_roster_page_does_not_grow_with_entries_tables_or_deals(make_setup, director_actor, club, client,
                                                                    director, django_assert_num_queries,
                                                                    tables, deals):
    t = _tournament_with(make_setup, director_actor, club, tables=tables, deals=deals)
    client.force_login(director)
    with django_assert_num_queries(ROSTER_PAGE):
        assert client.get(f"/director/tournaments/{t.pk}/roster/").status_code == 200


def test_a_tables_live_changes_cost_the_same_whatever_the_deals(client, jie_long, django_assert_num_queries):
    url = f"/t/{jie_long.tournament.slug}/tables/{jie_long.table.pk}/live/?after=1"
    for grown in (1, 6):
        _grow(jie_long, JIE_LONG, grown)
        with django_assert_num_queries(TABLE_LIVE_CHANGES):
            assert client.get(url).status_code == 200


@pytest.mark.parametrize("tables", [1, 12])
def test_the_room_display_costs_the_same_whatever_the_tables_and_deals(make_setup, client, director,
                                                                      django_assert_num_queries, monkeypatch, tables):
    from scoring.services.tournaments import tournament_update

    s = make_setup("jie_long")
    actor, t = s.director_actor, s.tournament
    for i in range(1, tables):
        entries = [entry_create(actor=actor, tournament=t, player=player_create(actor=actor, club=t.club,
                                                                                 name=f"R{i}-{n}"))
                   for n in range(4)]
        table_create(actor=actor, tournament=t, name=f"Table {i + 1}", entries=entries)
    _grow(s, JIE_LONG, 6)
    url = f"/t/{t.slug}/room/"
    with django_assert_num_queries(ROOM_PAGE):
        assert client.get(url).status_code == 200
    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)
    tag = client.get(url + "live/")["ETag"]
    with django_assert_num_queries(ROOM_LIVE_NOT_MODIFIED):
        assert client.get(url + "live/", HTTP_IF_NONE_MATCH=tag).status_code == 304
    tournament_update(actor=actor, tournament=t, public=False)
    client.force_login(director)
    with django_assert_num_queries(ROOM_PAGE_DIRECTOR):
        assert client.get(url).status_code == 200
