"""A tournament of thousands of players: every public page and live fragment stays small (a page
of rows, never the whole list), says where it stands among the pages, and a player finds their
row by name or rank."""

from __future__ import annotations

import re
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.models import Entry, Player, Standing, Table
from scoring.services.rounds import round_record
from scoring.views.public import PAYOUTS_PAGE_SIZE, STANDINGS_PAGE_SIZE, TABLES_PAGE_SIZE

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db

#: Enough players for twenty pages of standings; the bound holds whatever the count (the bench
#: measures 10,000: docs/benchmarks.md).
PLAYERS = 2000
TABLES = 600
#: Every public page, as sent (uncompressed).
MOST_BYTES = 300_000


@pytest.fixture
def big(jie_long):
    """``jie_long`` grown to PLAYERS entries with distinct totals and TABLES tables, and a deal."""
    t = jie_long.tournament
    club = t.club
    players = Player.objects.bulk_create([Player(club=club, name=f"Player {i:04d}") for i in range(len(jie_long.entries),
                                                                                                     PLAYERS)])
    entries = Entry.objects.bulk_create([Entry(tournament=t, player=p) for p in players])
    # Distinct totals, so that ranks run 1, 2, … (the deal below moves the first four).
    Standing.objects.bulk_create([Standing(tournament=t, entry=e, total=PLAYERS - i, rounds_counted=1)
                                  for i, e in enumerate(entries)])
    now = timezone.now()
    Table.objects.bulk_create([Table(session=jie_long.table.session, name=f"Table {i + 2}",
                                     scorer_token_hash=f"{i:064x}", scorer_token_created_at=now)
                               for i in range(TABLES - 1)])
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    return jie_long


def _rows(page: str) -> list[str]:
    return re.findall(r'<tr data-entry="\d+">(.*?)</tr>', page, re.S)


def _ranks(page: str) -> list[int]:
    return [int(r) for r in re.findall(r'<td class="num rank">(?:<span title="[^"]*">=)?(\d+)', page)]


def _get(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    body = response.content
    assert len(body) <= MOST_BYTES, (url, len(body))
    return body.decode()


def test_every_public_page_and_live_fragment_of_a_big_tournament_is_small(client, big):
    t = big.tournament
    slug = t.slug
    player = big.entries[0].player_id
    for url in (f"/t/{slug}/", f"/t/{slug}/live/", f"/t/{slug}/?page=20", f"/t/{slug}/live/?page=20",
                f"/t/{slug}/?tables_page=3", f"/t/{slug}/?q=Player", f"/t/{slug}/payouts/",
                f"/t/{slug}/payouts/?session=1", f"/t/{slug}/payouts/?page=20", f"/t/{slug}/players/{player}/",
                f"/t/{slug}/tables/{big.table.pk}/", f"/t/{slug}/tables/{big.table.pk}/live/"):
        _get(client, url)


def test_the_standings_come_a_page_at_a_time_and_the_live_fragment_follows_the_page_shown(client, big):
    slug = big.tournament.slug
    first = _get(client, f"/t/{slug}/")
    assert len(_rows(first)) == STANDINGS_PAGE_SIZE
    assert _ranks(first) == list(range(1, STANDINGS_PAGE_SIZE + 1))
    assert f"1–{STANDINGS_PAGE_SIZE} of {PLAYERS}" in first
    assert 'href="?page=2#standings-heading" rel="next"' in first
    assert f'data-live-src="/t/{slug}/live/"' in first

    last = _get(client, f"/t/{slug}/?page=20")
    assert _ranks(last) == list(range(PLAYERS - STANDINGS_PAGE_SIZE + 1, PLAYERS + 1))
    assert f'data-live-src="/t/{slug}/live/?page=20"' in last
    standings = last.split('id="tables-heading"')[0]
    assert 'rel="prev"' in standings and 'rel="next"' not in standings
    fragment = _get(client, f"/t/{slug}/live/?page=20")
    assert _rows(fragment) == _rows(last)    # the poll keeps page 20 up to date, not page 1
    assert f"{PLAYERS - STANDINGS_PAGE_SIZE + 1}–{PLAYERS} of {PLAYERS}" in fragment

    # A page past the last shows the last (a bookmark of a list that shrank); nonsense, the first.
    assert _ranks(_get(client, f"/t/{slug}/?page=999")) == _ranks(last)
    assert _ranks(_get(client, f"/t/{slug}/?page=x")) == _ranks(first)


def test_a_player_finds_their_row_by_name_or_by_rank(client, big):
    slug = big.tournament.slug
    found = _get(client, f"/t/{slug}/?q=player+1500")   # any case
    rows = _rows(found)
    assert len(rows) == 1 and ">Player 1500</a>" in rows[0]
    assert 'name="q" value="player 1500"' in found
    assert f'data-live-src="/t/{slug}/live/?q=player+1500"' in found   # the live part keeps the search
    assert len(_rows(_get(client, f"/t/{slug}/live/?q=player+1500"))) == 1
    by_rank = _get(client, f"/t/{slug}/?q=1234")
    assert 1234 in _ranks(by_rank)
    nobody = _get(client, f"/t/{slug}/?q=nobody+here")
    assert _rows(nobody) == [] and "No player’s name or rank matches" in nobody.replace("'", "’")


def test_the_tables_and_the_payouts_come_a_page_at_a_time(client, big):
    slug = big.tournament.slug
    first = _get(client, f"/t/{slug}/")
    assert first.count(f'href="/t/{slug}/tables/') == TABLES_PAGE_SIZE
    assert f"1–{TABLES_PAGE_SIZE} of {TABLES}" in first
    assert 'href="?tables_page=2#tables-heading"' in first
    both = _get(client, f"/t/{slug}/?page=3&tables_page=2")
    assert 'href="?page=3&amp;tables_page=3#tables-heading" rel="next"' in both   # the standings' page kept
    # The standings' pager is the same in the live fragment, which knows no tables page.
    assert 'href="?page=4#standings-heading" rel="next"' in both
    last_tables = _get(client, f"/t/{slug}/?tables_page=3")
    assert last_tables.count(f'href="/t/{slug}/tables/') == TABLES - 2 * TABLES_PAGE_SIZE

    payouts = _get(client, f"/t/{slug}/payouts/")
    players = re.search(r'<table id="payout-players">.*?</table>', payouts, re.S).group(0)
    assert players.count(f'href="/t/{slug}/players/') == PAYOUTS_PAGE_SIZE
    assert f"1–{PAYOUTS_PAGE_SIZE} of {PLAYERS}" in payouts
    second = _get(client, f"/t/{slug}/payouts/?page=2&q=player")
    assert f"{PAYOUTS_PAGE_SIZE + 1}–{2 * PAYOUTS_PAGE_SIZE} of" in second
    assert 'href="?q=player&amp;page=3#players-heading"' in second   # the search kept
    anna = _get(client, f"/t/{slug}/payouts/?q=anna")
    players = re.search(r'<table id="payout-players">.*?</table>', anna, re.S).group(0)
    assert players.count(f'href="/t/{slug}/players/') == 1 and ">Anna</a>" in players


def test_the_live_fragment_is_drawn_once_per_version_for_every_spectator(client, big, django_assert_max_num_queries,
                                                                          settings):
    # An empty cache of this test's own: ids repeat across the parallel test databases, and a
    # cache.clear() would empty the Redis that the other test processes count in (CI).
    default = settings.CACHES["default"]
    settings.CACHES = {**settings.CACHES, "default": {**default, "KEY_PREFIX": f"live-{uuid.uuid4().hex}"}}
    url = f"/t/{big.tournament.slug}/live/?page=2"
    first = _get(client, url)
    with django_assert_max_num_queries(2):   # the tournament and its version; the rows come drawn
        again = client.get(url).content.decode()
    assert again == first
    round_record(actor=big.scorer_actor, table=big.table, body=JIE_LONG)   # a new version: drawn again
    with CaptureQueriesContext(connection) as drawn:
        assert client.get(url).status_code == 200
    assert len(drawn) > 2


def test_with_the_cache_down_the_live_fragment_is_drawn_each_time(client, jie_long, settings):
    from tests.integration.stack import free_port

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}}
    for _ in range(2):
        page = _get(client, f"/t/{jie_long.tournament.slug}/live/")
        assert len(_rows(page)) == 4
