"""The director's roster page: rename, withdraw and enter again, a late entry, delete an empty
table, delete a draft tournament; refusals shown under the form that was sent."""

from __future__ import annotations

import re

import pytest

from scoring.models import ActionLog, Entry, Player, Table, Tournament
from scoring.services.clubs import player_create
from scoring.services.roster import entry_withdraw
from scoring.services.rounds import round_record
from scoring.services.tournaments import tournament_finish

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def roster(t) -> str:
    return f"/director/tournaments/{t.pk}/roster/"


def errors(response) -> list[str]:
    return re.findall(r'<p class="field-error"[^>]*>([^<]*)</p>', response.content.decode())


def test_the_page_lists_entries_tables_and_its_forms(dclient, jie_long, director_actor, club):
    player_create(actor=director_actor, club=club, name="Late Lou")
    entry_withdraw(actor=director_actor, entry=jie_long.entries[1])
    response = dclient.get(roster(jie_long.tournament))
    assert response.status_code == 200
    html = response.content.decode()
    for e in jie_long.entries:
        assert f'action="/director/tournaments/{jie_long.tournament.pk}/roster/players/{e.player_id}/rename/"' in html
    assert f"/roster/entries/{jie_long.entries[0].pk}/withdraw/" in html             # playing: withdraw
    assert f"/roster/entries/{jie_long.entries[1].pk}/reenter/" in html              # withdrawn: enter again
    assert "Late entry" in html and "Late Lou" in html
    assert f'action="/director/tables/{jie_long.table.pk}/delete/"' in html           # no deals yet
    assert "data-confirm" in html
    assert f"/director/tournaments/{jie_long.tournament.pk}/delete/" not in html   # running: kept
    # the dashboard links to it
    assert roster(jie_long.tournament) in dclient.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode()


def test_others_and_strangers_do_not_see_it(client, jie_long, other_director):
    assert client.get(roster(jie_long.tournament)).status_code == 302   # the login page
    client.force_login(other_director)
    assert client.get(roster(jie_long.tournament)).status_code == 404
    anna = jie_long.entries[0]
    url = f"/director/tournaments/{jie_long.tournament.pk}/roster/players/{anna.player_id}/rename/"
    assert client.post(url, {"name": "Eve"}).status_code == 404
    assert client.post(f"/director/tables/{jie_long.table.pk}/delete/").status_code == 404
    assert Player.objects.get(pk=anna.player_id).name == "Anna" and Table.objects.filter(pk=jie_long.table.pk).exists()


def test_rename_and_its_refusal_under_the_field(dclient, jie_long):
    t, anna = jie_long.tournament, jie_long.entries[0]
    url = f"/director/tournaments/{t.pk}/roster/players/{anna.player_id}/rename/"
    response = dclient.post(url, {"name": "Bob"})
    assert response.status_code == 409
    assert errors(response) == ["Bob is already a player of this club."]
    assert 'value="Bob"' in response.content.decode() and 'aria-invalid="true"' in response.content.decode()
    response = dclient.post(url, {"name": "Annabel"})
    assert response.status_code == 302 and response["Location"] == roster(t) + f"#player-{anna.player_id}"
    assert Player.objects.get(pk=anna.player_id).name == "Annabel"
    assert ActionLog.objects.filter(action="player_rename").count() == 1
    assert dclient.get(url).status_code == 405


def test_withdraw_and_enter_again(dclient, jie_long):
    t, bob = jie_long.tournament, jie_long.entries[1]
    base = f"/director/tournaments/{t.pk}/roster/entries/{bob.pk}"
    response = dclient.post(f"{base}/withdraw/")
    assert response.status_code == 302 and Entry.objects.get(pk=bob.pk).is_withdrawn
    page = dclient.get(roster(t)).content.decode()
    assert "withdrawn" in page and "still sits at" in page   # their table of this session stays
    response = dclient.post(f"{base}/withdraw/")
    assert response.status_code == 409 and errors(response) == ["Bob has already withdrawn."]
    assert dclient.post(f"{base}/reenter/").status_code == 302 and not Entry.objects.get(pk=bob.pk).is_withdrawn
    response = dclient.post(f"{base}/reenter/")
    assert response.status_code == 409 and errors(response) == ["Bob has not withdrawn."]
    # the dashboard's standings mark a withdrawn player
    dclient.post(f"{base}/withdraw/")
    standings = dclient.get(f"/director/tournaments/{t.pk}/").content.decode().split('id="director-standings"')[1]
    assert "withdrawn" in standings.split("</table>")[0]


def test_a_late_entry(dclient, jie_long, director_actor, club):
    t = jie_long.tournament
    lou = player_create(actor=director_actor, club=club, name="Late Lou")
    url = f"/director/tournaments/{t.pk}/roster/entries/"
    response = dclient.post(url, {"player": "abc"})
    assert response.status_code == 400 and errors(response) == ["Choose a player of the club."]
    response = dclient.post(url, {"player": str(lou.pk)})
    assert response.status_code == 302 and Entry.objects.filter(tournament=t, player=lou).exists()
    response = dclient.post(url, {"player": str(lou.pk)})
    assert response.status_code == 409 and errors(response) == ["Late Lou is already registered."]


def test_delete_an_empty_table_not_one_with_deals(dclient, jie_long, make_setup):
    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    page = dclient.get(roster(jie_long.tournament)).content.decode()
    assert f'action="/director/tables/{jie_long.table.pk}/delete/"' not in page     # a table with deals
    response = dclient.post(f"/director/tables/{jie_long.table.pk}/delete/")
    assert response.status_code == 409
    assert errors(response) == ["Table 1 has deals: a table is deleted only while it has none."]
    empty = make_setup("jie_long", names=["W", "X", "Y", "Z"])
    response = dclient.post(f"/director/tables/{empty.table.pk}/delete/")
    assert response.status_code == 302 and response["Location"] == roster(empty.tournament) + "#tables"
    assert not Table.objects.filter(pk=empty.table.pk).exists()


def test_delete_a_draft_tournament(dclient, make_setup, jie_long):
    draft = make_setup("jie_long", start=False, table_name="Table 2")
    page = dclient.get(roster(draft.tournament)).content.decode()
    assert f'action="/director/tournaments/{draft.tournament.pk}/delete/"' in page and "data-confirm" in page
    response = dclient.post(f"/director/tournaments/{draft.tournament.pk}/delete/")
    assert response.status_code == 302 and response["Location"] == f"/director/clubs/{draft.tournament.club_id}/"
    assert not Tournament.objects.filter(pk=draft.tournament.pk).exists()
    response = dclient.post(f"/director/tournaments/{jie_long.tournament.pk}/delete/")
    assert response.status_code == 409
    assert errors(response) == ["Only a draft tournament can be deleted; this one has started."]


def test_a_finished_tournament_offers_renames_only(dclient, jie_long, director_actor):
    tournament_finish(actor=director_actor, tournament=jie_long.tournament)
    page = dclient.get(roster(jie_long.tournament)).content.decode()
    assert "/rename/" in page and "/withdraw/" not in page and "/delete/" not in page
    assert "Late entry" not in page and "/roster/entries/\"" not in page
    response = dclient.post(f"/director/tournaments/{jie_long.tournament.pk}/roster/entries/"
                            f"{jie_long.entries[0].pk}/withdraw/")
    assert response.status_code == 409 and errors(response) == ["This tournament is finished; it is read-only."]
    response = dclient.post(f"/director/tables/{jie_long.table.pk}/delete/")
    assert response.status_code == 409 and errors(response) == ["This tournament is finished; it is read-only."]


def test_delete_an_imported_copy_never_published(dclient, jie_long, director_actor, club):
    from scoring.selectors.exports import tournament_export
    from scoring.services.exports import tournament_import

    round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    copy_ = tournament_import(actor=director_actor, club=club, document=tournament_export(jie_long.tournament))
    page = dclient.get(f"/director/tournaments/{copy_.pk}/").content.decode()
    assert "Not rated: its deals do not count in the club" in page, re.findall(r"came from a file[^<]*<", page)
    assert "Never published: you may delete this copy." in page
    page = dclient.get(roster(copy_)).content.decode()
    assert "Delete this imported copy" in page and f'action="/director/tournaments/{copy_.pk}/delete/"' in page
    response = dclient.post(f"/director/tournaments/{copy_.pk}/delete/")
    assert response.status_code == 302 and response["Location"] == f"/director/clubs/{club.pk}/"
    assert not Tournament.objects.filter(pk=copy_.pk).exists()
    assert ActionLog.objects.filter(action=ActionLog.Action.TOURNAMENT_DELETE, data__imported=True).exists()
