"""The director's pages: login, club membership, building a tournament, the dashboard, tables and
their one-time scorer links, deal history with revisions, and the director's deal actions."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session as SessionRow

from scoring.models import ActionLog, Entry, Player, Round, Table, Tournament
from scoring.services.clubs import player_create
from scoring.services.rounds import round_correct, round_dispute, round_record
from scoring.services.tournaments import entry_create, tournament_start, tournament_update

from ..bodies import JIE_LONG

pytestmark = pytest.mark.django_db


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def record(setup, body=None) -> Round:
    return round_record(actor=setup.scorer_actor, table=setup.table, body={**(body or JIE_LONG), "entered_by": 1})


# --- access -----------------------------------------------------------------------------------------

def test_pages_need_a_login(client, jie_long):
    rnd = record(jie_long)
    for path in ["/director/", f"/director/clubs/{jie_long.tournament.club_id}/",
                 f"/director/tournaments/{jie_long.tournament.pk}/", f"/director/tables/{jie_long.table.pk}/",
                 f"/director/deals/{rnd.pk}/correct/"]:
        response = client.get(path)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/director/login/?next=")
    response = client.post(f"/director/deals/{rnd.pk}/void/", {"reason": "x"})
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RECORDED


def test_login_and_logout(client, director):
    assert client.get("/director/login/").status_code == 200
    response = client.post("/director/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 200 and "errors" in response.content.decode()
    response = client.post("/director/login/", {"username": "alice", "password": "alice-secret-1"})
    assert response.status_code == 302 and response["Location"] == "/director/"
    assert client.get("/director/").status_code == 200
    assert client.post("/director/logout/").status_code == 302
    assert client.get("/director/").status_code == 302


def test_directors_of_another_club_are_refused(client, jie_long, other_director):
    rnd = record(jie_long)
    client.force_login(other_director)
    assert client.get("/director/").status_code == 200
    assert jie_long.tournament.name not in client.get("/director/").content.decode()
    for path in [f"/director/clubs/{jie_long.tournament.club_id}/", f"/director/tournaments/{jie_long.tournament.pk}/",
                 f"/director/tables/{jie_long.table.pk}/", f"/director/deals/{rnd.pk}/correct/"]:
        # another club's things are not found, like ids that do not exist
        assert client.get(path).status_code == 404, path
        assert client.get(path).status_code == client.get(path.replace(str(path.split("/")[3]), "999999")).status_code
    assert client.post(f"/director/deals/{rnd.pk}/void/", {"reason": "mine now"}).status_code == 404
    assert client.post(f"/director/tables/{jie_long.table.pk}/rotate/").status_code == 404
    assert client.post(f"/director/clubs/{jie_long.tournament.club_id}/players/", {"names": "Spy"}).status_code == 404
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.RECORDED
    assert not Player.objects.filter(name="Spy").exists()
    assert client.get(f"/s/{jie_long.token}/").status_code == 200  # the old link still works


def test_non_director_users_are_refused(client, db):
    user = get_user_model().objects.create_user(username="visitor", password="visitor-pass-1")
    client.force_login(user)
    assert client.get("/director/").status_code == 403


def test_unknown_things_are_404(dclient):
    assert dclient.get("/director/tournaments/999/").status_code == 404
    assert dclient.get("/director/tables/999/").status_code == 404


# --- building a tournament through the pages ------------------------------------------------------------

def test_club_players_tournament_entries_table_start(dclient, director):
    response = dclient.post("/director/clubs/new/", {"name": "Jade Club"})
    assert response.status_code == 302
    club = director.clubs.get(name="Jade Club")
    assert response["Location"] == f"/director/clubs/{club.pk}/"

    response = dclient.post(f"/director/clubs/{club.pk}/players/", {"names": "Anna\nBob\n\nCeline\nDominic\nAnna"})
    assert response.status_code == 400  # the second Anna is refused, the others are added
    assert "Anna: Anna is already a player" in response.content.decode()
    assert sorted(club.players.values_list("name", flat=True)) == ["Anna", "Bob", "Celine", "Dominic"]

    base = {"name": "Spring cup", "game": "jie_long", "public": "on"}
    page = dclient.get(f"/director/clubs/{club.pk}/").content.decode()
    # Every game's rule options as controls, from the catalog (no typed JSON).
    assert 'name="variant"' not in page
    assert '<select id="variant-jie_long-arms" name="variant-jie_long-arms">' in page
    assert 'name="variant-ce_deng-redeal_doubles" type="number"' in page
    assert 'type="checkbox" name="variant-ding_niu-blame_needs_choice" id="variant-ding_niu-blame_needs_choice" checked' in page
    assert page.count('name="variant-da_ling-stakes-') == 3
    response = dclient.post(f"/director/clubs/{club.pk}/tournaments/new/",
                            {**base, "variant-jie_long-arms": "3", "variant-jie_long-settlement": "chip"})
    assert response.status_code == 400
    page = response.content.decode()
    # The engine's wording, under the control it is about; the rest as sent.
    assert re.search(r'id="variant-jie_long-arms"[^>]*aria-invalid="true"', page)
    assert 'id="variant-jie_long-arms-error">arms must be 1 or 2.' in page
    assert '<option value="chip" selected>' in page
    assert not Tournament.objects.exists()
    response = dclient.post(f"/director/clubs/{club.pk}/tournaments/new/",
                            {**base, "variant-jie_long-arms": "2", "variant-jie_long-voluntary_pass": "on",
                             "variant-ce_deng-redeal_doubles": "5"})  # another game's options are ignored
    t = Tournament.objects.get()
    assert response["Location"] == f"/director/tournaments/{t.pk}/"
    assert t.variant == {"voluntary_pass": True, "arms": 2, "settlement": "difference"}
    assert t.variant["arms"] == 2 and t.public and not t.require_confirmation

    players = list(club.players.order_by("name"))
    response = dclient.post(f"/director/tournaments/{t.pk}/entries/", {"player": [p.pk for p in players]})
    assert response.status_code == 302
    entries = {e.player.name: e for e in Entry.objects.filter(tournament=t)}
    assert len(entries) == 4

    order = ["Celine", "Anna", "Dominic", "Bob"]
    data = {"name": "Table 1", **{f"seat_{i}": entries[n].pk for i, n in enumerate(order)}}
    response = dclient.post(f"/director/tournaments/{t.pk}/tables/new/", data)
    assert response.status_code == 200 and "Scorer link of Session 1 · Table 1" in response.content.decode()
    table = Table.objects.get()
    assert [s.entry.player.name for s in table.seats.order_by("position")] == order

    response = dclient.post(f"/director/tournaments/{t.pk}/start/")
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.is_running
    assert ActionLog.objects.filter(action="tournament_start", actor_label="director alice").exists()


def test_table_creation_shows_the_link_and_qr_once(client, dclient, make_setup):
    setup = make_setup("jie_long", start=False)
    t = setup.tournament
    extra = [entry_create(actor=setup.director_actor, tournament=t,
                                   player=player_create(actor=setup.director_actor, club=t.club, name=n))
             for n in ("Wu", "Xi", "Yan")]
    response = dclient.post(f"/director/tournaments/{t.pk}/tables/new/",
                            {"name": "Table 2", "seat_0": extra[0].pk, "seat_1": extra[1].pk, "seat_2": extra[2].pk})
    table = Table.objects.get(name="Table 2")
    # The answer to the POST is the link page itself: the link exists nowhere else.
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    page = response.content.decode()
    link = re.search(r'href="(http://testserver/s/[^"]+/)"', page).group(1)
    assert "<svg" in page and "Table Table 2 created." in page
    assert f'data-replace-url="/director/tables/{table.pk}/link/"' in page
    tournament_start(actor=setup.director_actor, tournament=t)
    assert client.get(link.replace("http://testserver", "")).status_code == 200
    # The link page's own address shows it no more (what a reload asks for).
    again = dclient.get(f"/director/tables/{table.pk}/link/")
    assert again["Cache-Control"] == "no-store"
    again = again.content.decode()
    assert "/s/" not in again and "<svg" not in again and "shown only once" in again
    assert "New scorer link + QR" in again


def test_the_plain_scorer_link_is_never_kept_in_the_session(dclient, make_setup):
    setup = make_setup("jie_long", start=False)
    t = setup.tournament
    extra = [entry_create(actor=setup.director_actor, tournament=t,
                                   player=player_create(actor=setup.director_actor, club=t.club, name=n))
             for n in ("Wu", "Xi", "Yan")]
    created = dclient.post(f"/director/tournaments/{t.pk}/tables/new/",
                           {"name": "Table 2", "seat_0": extra[0].pk, "seat_1": extra[1].pk, "seat_2": extra[2].pk})
    table = Table.objects.get(name="Table 2")
    rotated = dclient.post(f"/director/tables/{table.pk}/rotate/")
    tokens = [re.search(r'href="http://testserver/s/([^"/]+)/"', r.content.decode()).group(1)
              for r in (created, rotated)]
    assert len(set(tokens)) == 2

    def stored() -> str:
        """Everything kept for this browser: the session's data as stored (and decoded) and the cookies."""
        rows = [f"{row.session_data} {row.get_decoded()!r}" for row in SessionRow.objects.all()]
        return " ".join(rows + [f"{morsel.key}={morsel.value}" for morsel in dclient.cookies.values()])

    assert dclient.session.session_key and SessionRow.objects.exists()
    for token in tokens:
        assert token not in stored()
        assert token[:8] not in stored()
    for key in dclient.session.keys():
        assert "link" not in key.lower() and "token" not in key.lower(), key


def test_a_create_form_sent_twice_makes_one_table_and_says_so(dclient, make_setup):
    setup = make_setup("jie_long", start=False)
    t = setup.tournament
    extra = [entry_create(actor=setup.director_actor, tournament=t,
                                   player=player_create(actor=setup.director_actor, club=t.club, name=n))
             for n in ("Wu", "Xi", "Yan")]
    form = {"name": "Table 2", "seat_0": extra[0].pk, "seat_1": extra[1].pk, "seat_2": extra[2].pk}
    first = dclient.post(f"/director/tournaments/{t.pk}/tables/new/", form)
    assert first.status_code == 200 and "<svg" in first.content.decode()
    table = Table.objects.get(name="Table 2")
    token_hash = table.scorer_token_hash

    again = dclient.post(f"/director/tournaments/{t.pk}/tables/new/", form)  # reload: the browser sends it again
    assert again.status_code == 409
    page = again.content.decode()
    assert "already created by this form" in page
    assert "/s/" not in page and "<svg" not in page and "New scorer link + QR" in page
    assert Table.objects.filter(name="Table 2").count() == 1
    table.refresh_from_db()
    assert table.scorer_token_hash == token_hash  # the link just shown still works
    # The same name with other players is a mistake to correct, not a resubmission.
    other = dclient.post(f"/director/tournaments/{t.pk}/tables/new/", {"name": "Table 2"})
    assert other.status_code == 400 and "already created" not in other.content.decode()
    # The answer's address, opened again later: back to the dashboard's form.
    response = dclient.get(f"/director/tournaments/{t.pk}/tables/new/")
    assert response.status_code == 302 and response["Location"] == f"/director/tournaments/{t.pk}/#new-table"


def test_a_rotate_form_sent_twice_replaces_the_link_once(client, dclient, jie_long):
    table = jie_long.table
    page = dclient.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode()
    made = re.search(rf'action="/director/tables/{table.pk}/rotate/"[^>]*>.*?name="made" value="([^"]+)"', page,
                     re.S).group(1)
    first = dclient.post(f"/director/tables/{table.pk}/rotate/", {"made": made})
    assert first.status_code == 200
    new_path = re.search(r'href="http://testserver(/s/[^"]+/)"', first.content.decode()).group(1)

    again = dclient.post(f"/director/tables/{table.pk}/rotate/", {"made": made})  # the same form, again
    assert again.status_code == 409
    assert "already replaced" in again.content.decode() and "<svg" not in again.content.decode()
    assert client.get(new_path).status_code == 200  # the link just shown still works
    assert ActionLog.objects.filter(action="table_scorer_token_rotate").count() == 1
    # The page offers a fresh form, which does replace it.
    fresh = re.search(r'name="made" value="([^"]+)"', again.content.decode()).group(1)
    assert fresh != made
    assert dclient.post(f"/director/tables/{table.pk}/rotate/", {"made": fresh}).status_code == 200
    assert client.get(new_path).status_code == 404
    assert dclient.post(f"/director/tables/{table.pk}/rotate/", {"made": "not a time"}).status_code == 409
    # The answer's address, opened again later: the link page.
    response = dclient.get(f"/director/tables/{table.pk}/rotate/")
    assert response.status_code == 302 and response["Location"] == f"/director/tables/{table.pk}/link/"


def test_table_form_errors_point_at_the_seat(dclient, make_setup):
    setup = make_setup("jie_long", start=False)
    t = setup.tournament
    seated = setup.entries[0]
    response = dclient.post(f"/director/tournaments/{t.pk}/tables/new/", {"name": "Table 2", "seat_0": seated.pk})
    assert response.status_code == 400
    assert "played by 2 to 4 players" in response.content.decode()
    assert Table.objects.count() == 1


def test_rotating_gives_a_new_link_and_kills_the_old(client, dclient, jie_long):
    response = dclient.post(f"/director/tables/{jie_long.table.pk}/rotate/")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    page = response.content.decode()
    new_path = re.search(r'href="http://testserver(/s/[^"]+/)"', page).group(1)
    assert client.get(f"/s/{jie_long.token}/").status_code == 404
    assert client.get(new_path).status_code == 200


def test_start_and_finish_buttons(dclient, make_setup):
    setup = make_setup("jie_long", start=False)
    t = setup.tournament
    assert "Start the tournament" in dclient.get(f"/director/tournaments/{t.pk}/").content.decode()
    dclient.post(f"/director/tournaments/{t.pk}/start/")
    page = dclient.get(f"/director/tournaments/{t.pk}/").content.decode()
    assert "Finish the tournament" in page
    dclient.post(f"/director/tournaments/{t.pk}/finish/")
    t.refresh_from_db()
    assert t.is_finished
    page = dclient.get(f"/director/tournaments/{t.pk}/").content.decode()
    assert "New table" not in page and "New scorer link" not in page
    response = dclient.post(f"/director/tournaments/{t.pk}/finish/", follow=True)
    assert "Only a running" in response.content.decode() or "finished" in response.content.decode()


# --- dashboard and history ------------------------------------------------------------------------

def test_dashboard_lists_disputed_rounds_first(dclient, jie_long):
    record(jie_long)
    second = record(jie_long)
    round_dispute(actor=jie_long.scorer_actor, round=second, message="Celine had a double left")
    page = dclient.get(f"/director/tournaments/{jie_long.tournament.pk}/").content.decode()
    assert page.index("Celine had a double left") < page.index('id="tables"') < page.index('id="standings"')
    assert "deal 2" in page
    assert "Anna" in page[page.index('id="standings"'):]


def test_dashboard_resolve_dispute(dclient, jie_long):
    rnd = record(jie_long)
    round_dispute(actor=jie_long.scorer_actor, round=rnd, message="check")
    response = dclient.post(f"/director/deals/{rnd.pk}/resolve/", {"note": "checked the tiles"})
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert not rnd.disputed
    assert ActionLog.objects.get(action="round_dispute_resolve").data["note"] == "checked the tiles"


def test_round_history_shows_every_revision_and_the_chain(dclient, jie_long):
    rnd = record(jie_long)
    round_correct(actor=jie_long.scorer_actor, round=rnd, body={**JIE_LONG, "points": [2, 12, 30, 18]},
                           reason="Celine recounted", expected_revision=1)
    table_page = dclient.get(f"/director/tables/{jie_long.table.pk}/").content.decode()
    assert "2 revisions" in table_page and f'href="/director/deals/{rnd.pk}/revisions/"' in table_page
    page = dclient.get(f"/director/deals/{rnd.pk}/revisions/").content.decode()   # asked for
    assert "Revision 2 (current)" in page and "Revision 1" in page
    assert "Celine recounted" in page
    assert "chain ok (2)" in page
    assert "scorer of table" in page  # who
    assert "&quot;points&quot;" in page  # the record as sent to the engine


def test_director_void_confirm_and_correct(dclient, jie_long):
    a, b, c = record(jie_long), record(jie_long), record(jie_long)
    assert dclient.post(f"/director/deals/{a.pk}/void/", {"reason": ""}).status_code == 400
    assert dclient.post(f"/director/deals/{a.pk}/void/", {"reason": "dealt twice"}).status_code == 302
    assert dclient.post(f"/director/deals/{b.pk}/confirm/", {"confirmed_by": ""}).status_code == 302
    a.refresh_from_db(), b.refresh_from_db()
    assert a.status == Round.Status.VOIDED and a.void_reason == "dealt twice"
    assert b.status == Round.Status.CONFIRMED and b.confirmed_by_user.username == "alice"
    # a director may correct a confirmed deal
    form = dclient.get(f"/director/deals/{b.pk}/correct/").content.decode()
    assert 'name="revision" value="1"' in form
    data = {"level": "points", "leader": "0", "entered_by": "1", "points_0": "2", "points_1": "12",
            "points_2": "30", "points_3": "18", "revision": "1", "reason": "referee", "action": "save"}
    response = dclient.post(f"/director/deals/{b.pk}/correct/", data)
    assert response.status_code == 302 and response["Location"].startswith(f"/director/tables/{jie_long.table.pk}/")
    b.refresh_from_db()
    assert b.current_revision.number == 2 and b.status == Round.Status.CONFIRMED
    assert b.current_revision.actor_label == "director alice"
    # stale
    response = dclient.post(f"/director/deals/{b.pk}/correct/", {**data, "points_2": "26"})
    assert response.status_code == 409 and "Someone changed this deal" in response.content.decode()
    assert c.status == Round.Status.RECORDED


def test_home_page_lists_public_tournaments(client, jie_long, make_setup):
    private = make_setup("jie_long", table_name="T")
    tournament_update(actor=private.director_actor, tournament=private.tournament, public=False)
    page = client.get("/").content.decode()
    assert jie_long.tournament.name in page
    assert private.tournament.name not in page
    assert "Jie Long" in page and "Rules calculator" in page


def test_page_selectors(make_setup, club, director_actor):
    from scoring.domain.errors import NotFound
    from scoring.selectors.rounds import round_of_table, round_revisions_checked, round_rows, table_deals_page
    from scoring.selectors.tournaments import players_not_entered, tournament_list_for_club

    a = make_setup("jie_long", table_name="A")
    b = make_setup("jie_long", table_name="B")
    player_create(actor=director_actor, club=club, name="Newcomer")
    assert [p.name for p in players_not_entered(a.tournament)] == ["Newcomer"]
    assert list(tournament_list_for_club(club)) == [b.tournament, a.tournament]
    rnd = record(b)
    assert round_of_table(b.table, rnd.pk) == rnd
    with pytest.raises(NotFound):
        round_of_table(a.table, rnd.pk)
    row = round_rows(b.table)[0]
    assert row["entered_by_name"] == "Bob" and [p for p, _ in row["confirm_options"]] == [0, 2, 3]
    page = table_deals_page(b.table, None)
    assert [d["number"] for d in page] == [1] and page[0]["revision"] == 1
    revisions, chain = round_revisions_checked(rnd)
    assert chain.ok and [r["number"] for r in revisions] == [1]
