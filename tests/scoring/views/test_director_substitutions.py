"""Substitutions on the pages: the director's form (scoring/views/director/substitutions.py) and
each seat's players with their deals on the director's table page, the console and the public
table page."""

from __future__ import annotations

import pytest

from scoring.models import Seat
from scoring.services.clubs import player_create
from scoring.services.rounds import round_record
from scoring.services.substitutions import table_substitute
from scoring.services.tournaments import entry_create

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def _newcomer(s, name="Eve"):
    player = player_create(actor=s.director_actor, club=s.tournament.club, name=name)
    return entry_create(actor=s.director_actor, tournament=s.tournament, player=player)


def test_the_directors_form_substitutes_and_every_page_shows_the_seats_history(client, director, jie_long):
    s = jie_long
    eve = _newcomer(s)
    for _ in range(7):
        round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    client.force_login(director)
    page = client.get(f"/director/tables/{s.table.pk}/").content.decode()
    assert 'action="/director/tables/%d/substitute/"' % s.table.pk in page and ">Eve</option>" in page
    assert ">Anna</option>" not in page   # seated already: not offered
    r = client.post(f"/director/tables/{s.table.pk}/substitute/", {"seat": "0", "player": str(eve.pk)})
    assert r.status_code == 302
    assert Seat.objects.get(table=s.table, position=0).entry_id == eve.pk
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    history = "Seat 1: Anna (deals 1–7), Eve (from deal 8)"
    assert history in client.get(f"/director/tables/{s.table.pk}/").content.decode()
    assert history in client.get(f"/director/tournaments/{s.tournament.pk}/").content.decode()
    public = client.get(f"/t/{s.tournament.slug}/tables/{s.table.pk}/").content.decode()
    assert history in public
    # the scorer's page shows who sits there now
    assert "Eve" in client.get(f"/s/{s.token}/").content.decode()


def test_a_refused_substitution_is_said_at_the_form(client, director, jie_long):
    s = jie_long
    client.force_login(director)
    r = client.post(f"/director/tables/{s.table.pk}/substitute/", {"seat": "0", "player": str(s.entries[1].pk)})
    assert r.status_code == 400
    assert 'id="substitute-error"' in r.content.decode() and "already sits at" in r.content.decode()


def test_the_history_is_translated(client, director, jie_long):
    s = jie_long
    eve = _newcomer(s)
    round_record(actor=s.scorer_actor, table=s.table, body=JIE_LONG)
    table_substitute(actor=s.director_actor, table=s.table, seat=1, entry=eve)
    page = client.get(f"/t/{s.tournament.slug}/tables/{s.table.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "Bob（第 1 局）" in page and "Eve（自第 2 局起）" in page
