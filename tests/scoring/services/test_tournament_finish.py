"""Finishing a tournament: unconfirmed and disputed deals are named; open disputes need an
explicit choice, refused in the service without it."""

from __future__ import annotations

import re

import pytest

from scoring.domain.errors import Conflict
from scoring.models import Table, Tournament
from scoring.services.rounds import round_dispute, round_record
from scoring.services.tournaments import tournament_finish

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


def deals(setup, n):
    return [round_record(actor=setup.scorer_actor, table=setup.table, body={**JIE_LONG, "entered_by": 1})
            for _ in range(n)]


def test_open_disputes_need_the_explicit_choice(jie_long):
    first, _second = deals(jie_long, 2)
    round_dispute(actor=jie_long.scorer_actor, round=first, message="Bob had 6:6")
    with pytest.raises(Conflict) as e:
        tournament_finish(actor=jie_long.director_actor, tournament=jie_long.tournament)
    assert [(x["path"], x["code"]) for x in e.value.errors] == [("disputes_stay", "open_disputes")]
    jie_long.tournament.refresh_from_db()
    assert jie_long.tournament.status == Tournament.Status.RUNNING
    tournament_finish(actor=jie_long.director_actor, tournament=jie_long.tournament, disputes_stay=True)
    jie_long.tournament.refresh_from_db()
    assert jie_long.tournament.status == Tournament.Status.FINISHED


def test_the_dashboard_warns_and_lists_the_deals_and_the_view_needs_the_checkbox(client, make_setup, director):
    s = make_setup("jie_long", require_confirmation=True)
    first, second = deals(s, 2)
    round_dispute(actor=s.scorer_actor, round=second, message="check")
    client.force_login(director)
    url = f"/director/tournaments/{s.tournament.pk}/"
    page = client.get(url).content.decode()
    assert "2 deals are not confirmed" in page and "1 dispute stays open" in page
    # the dialog names what the finish leaves, the session it closes too
    confirm = re.search(r'data-confirm="([^"]*)"', page).group(1)
    assert "1 dispute stays open" in confirm and "2 deals are not confirmed" in confirm
    assert "Session 1 is open: finishing closes it." in confirm
    assert f'href="/director/tables/{s.table.pk}/?deal=1#deal-1"' in page and "Table 1, deal 2" in page
    assert 'name="disputes_stay"' in page and "Finish anyway: open disputes stay as they are" in page
    page = client.post(f"{url}finish/", follow=True).content.decode()
    assert "1 dispute is open" in page
    s.tournament.refresh_from_db()
    assert s.tournament.status == Tournament.Status.RUNNING
    client.post(f"{url}finish/", {"disputes_stay": "on"})
    s.tournament.refresh_from_db()
    assert s.tournament.status == Tournament.Status.FINISHED


def test_a_finish_closes_the_open_sessions_each_logged(jie_long):
    from scoring.models import ActionLog, Session

    deals(jie_long, 1)
    tournament_finish(actor=jie_long.director_actor, tournament=jie_long.tournament)
    session = Session.objects.get(tournament=jie_long.tournament)
    assert session.status == Session.Status.CLOSED and session.closed_at is not None
    log = ActionLog.objects.filter(action=ActionLog.Action.SESSION_CLOSE).get()
    assert log.data == {"number": 1, "with": "tournament_finish"}


def test_without_confirmation_required_the_finish_tells_no_unconfirmed_deal(client, jie_long, director):
    deals(jie_long, 2)
    client.force_login(director)
    page = client.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode()
    assert "not confirmed" not in page and "Session 1 is open: finishing closes it." in page


@pytest.mark.parametrize(("url", "loopback"), [("http://127.0.0.1:8000/s/x/", True), ("http://localhost/s/x/", True),
                                               ("http://[::1]:8000/s/x/", True), ("http://192.168.1.20:8000/s/x/", False),
                                               ("https://club.example/s/x/", False)])
def test_a_loopback_address_is_named(url, loopback):
    from scoring.web.links import is_loopback

    assert is_loopback(url) is loopback


def test_a_link_made_at_localhost_warns_and_one_made_at_the_network_address_does_not(client, jie_long, director):
    client.force_login(director)
    at_loopback = client.post(f"/director/tables/{jie_long.table.pk}/rotate/", HTTP_HOST="127.0.0.1")
    assert "Phones cannot open these links" in at_loopback.content.decode()


def test_a_session_sheet_gets_new_links_when_asked(client, jie_long, director):
    client.force_login(director)
    url = f"/director/tournaments/{jie_long.tournament.pk}/sessions/1/sheet/"
    assert f'href="{url}"' in client.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode()
    ask = client.get(url)
    assert ask["Cache-Control"] == "no-store"
    assert f'href="http://testserver/s/{jie_long.token}/"' in ask.content.decode()   # the kept link, shown again
    assert "stop working" in ask.content.decode() and client.get(f"/s/{jie_long.token}/").status_code == 200
    sheet = client.post(url, follow=True)
    page = sheet.content.decode()
    assert sheet.status_code == 200 and sheet["Cache-Control"] == "no-store"
    assert "<svg" in page and jie_long.table.name in page and all(n in page for n in jie_long.names)
    new = re.search(r'href="http://testserver/s/([^/"]+)/"', page).group(1)
    assert new != jie_long.token and "A new link for 1 table: the old one stopped working." in page
    assert client.get(f"/s/{jie_long.token}/").status_code == 404  # the old card stopped working
    assert client.get(f"/s/{new}/").status_code == 200
    assert client.get(f"/director/tournaments/{jie_long.tournament.pk}/sessions/9/sheet/").status_code == 404


def test_a_finished_tournaments_sheet_shows_no_links(client, jie_long, director):
    client.force_login(director)
    tournament_finish(actor=jie_long.director_actor, tournament=jie_long.tournament)
    assert Table.objects.get(pk=jie_long.table.pk).scorer_token_secret is None   # erased
    page = client.get(f"/director/tournaments/{jie_long.tournament.pk}/sessions/1/sheet/").content.decode()
    assert jie_long.token not in page and "/s/" not in page and 'id="new-links"' not in page
    assert all(n in page for n in jie_long.names)


def test_the_api_finish_needs_the_same_explicit_choice(jie_long, director):
    from rest_framework.test import APIClient

    first, _ = deals(jie_long, 2)
    round_dispute(actor=jie_long.scorer_actor, round=first, message="Bob had 6:6")
    c = APIClient()
    c.force_authenticate(director)
    url = f"/api/v1/tournaments/{jie_long.tournament.pk}/finish/"
    refused = c.post(url, format="json")
    assert refused.status_code == 409
    assert [(e["path"], e["code"]) for e in refused.json()["errors"]] == [("disputes_stay", "open_disputes")]
    assert c.post(url, {"disputes_stay": "yes"}, format="json").status_code == 400  # a flag, not text
    jie_long.tournament.refresh_from_db()
    assert jie_long.tournament.status == Tournament.Status.RUNNING
    assert c.post(url, {"disputes_stay": True}, format="json").json()["status"] == "finished"
