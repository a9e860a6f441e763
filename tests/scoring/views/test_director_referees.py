"""Referees on the director's pages: the referees box of the tournament page
(scoring/views/director/referees.py), the referee's page and its forms
(scoring/views/director/referee.py), and the one rule of access: a referee signs in at the
director's login and is answered 403 by every director route but the referee's own (a walk of
every named director route), 404 for another tournament's."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import (
    ActionLog,
    Adjustment,
    PaperSheetJob,
    Round,
    Substitution,
    TournamentImport,
    TournamentReferee,
)
from scoring.services.audits import audit_start
from scoring.services.clubs import player_create
from scoring.services.referees import referee_add
from scoring.services.rounds import round_dispute, round_record
from scoring.services.seasons import season_create
from scoring.services.sessions import session_close
from scoring.services.tournaments import entry_create
from tests.scoring.bodies import JIE_LONG
from tests.scoring.test_hostile_parameters import ROUTES

pytestmark = pytest.mark.django_db

#: The director routes a referee may open (every other answers them 403).
REFEREE_ROUTES = {"director-login", "director-logout", "director-home", "director-referee-page",
                  "director-referee-resolve", "director-referee-adjustment-add",
                  "director-referee-adjustment-delete", "director-referee-table"}


@pytest.fixture
def rita(jie_long, referee_user):
    referee_add(actor=jie_long.director_actor, tournament=jie_long.tournament, user="rita")
    return referee_user


@pytest.fixture
def disputed(jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    return round_dispute(actor=jie_long.scorer_actor, round=rnd, message="a double left")


def page_url(s) -> str:
    return f"/director/tournaments/{s.tournament.pk}/referee/"


# --- the director's referees box ----------------------------------------------------------------

def test_the_director_adds_and_removes_a_referee_from_the_tournament_page(client, jie_long, referee_user):
    s = jie_long
    client.force_login(s.director)
    page = client.get(f"/director/tournaments/{s.tournament.pk}/").content.decode()
    assert 'id="referees"' in page and 'id="referee-username"' in page
    r = client.post(f"/director/tournaments/{s.tournament.pk}/referees/", {"username": "rita"})
    assert r.status_code == 302 and r["Location"].endswith("#referees")
    page = client.get(f"/director/tournaments/{s.tournament.pk}/").content.decode()
    remove = f"/director/tournaments/{s.tournament.pk}/referees/{referee_user.pk}/remove/"
    assert f'action="{remove}"' in page
    assert client.post(remove).status_code == 302
    assert not TournamentReferee.objects.exists()
    assert [a.actor_user for a in ActionLog.objects.filter(action__startswith="referee_")] == [s.director] * 2


@pytest.mark.parametrize(("username", "status", "message"), [
    ("nobody", 400, "No user has this username."),
    ("", 400, "Give the referee&#x27;s username."),
    ("alice", 409, "alice already directs this club."),
])
def test_a_refused_referee_shows_at_the_form(client, jie_long, username, status, message):
    client.force_login(jie_long.director)
    r = client.post(f"/director/tournaments/{jie_long.tournament.pk}/referees/", {"username": username})
    page = r.content.decode()
    assert r.status_code == status and message in page and 'id="referee-error"' in page
    assert not TournamentReferee.objects.exists()


# --- the referee's page -------------------------------------------------------------------------

def test_a_referee_signs_in_and_finds_their_tournament(client, jie_long, rita):
    r = client.post("/director/login/", {"username": "rita", "password": "rita-secret-1"})
    assert r.status_code == 302
    home = client.get("/director/")
    assert home.status_code == 200
    assert f'href="{page_url(jie_long)}"' in home.content.decode()
    assert "director-club-create" not in home.content.decode() and 'id="club-name"' not in home.content.decode()


def test_a_user_who_referees_nothing_is_refused_home(client, referee_user):
    client.force_login(referee_user)
    assert client.get("/director/").status_code == 403


def test_a_referee_settles_a_dispute_logged_under_their_name(client, jie_long, rita, disputed):
    client.force_login(rita)
    page = client.get(page_url(jie_long)).content.decode()
    resolve = f"/director/tournaments/{jie_long.tournament.pk}/referee/deals/{disputed.pk}/resolve/"
    assert "a double left" in page and f'action="{resolve}"' in page
    refused = client.post(resolve, {"note": "  "})
    assert refused.status_code == 400 and "Write a note" in refused.content.decode()
    assert Round.objects.get(pk=disputed.pk).disputed
    r = client.post(resolve, {"note": "tiles checked"})
    assert r.status_code == 302 and r["Location"].endswith("#disputed")
    assert not Round.objects.get(pk=disputed.pk).disputed
    log = ActionLog.objects.get(action="round_dispute_resolve")
    assert (log.actor_user, log.actor_label, log.data["note"]) == (rita, "referee rita", "tiles checked")


def test_a_referee_records_and_deletes_an_adjustment(client, jie_long, rita):
    s = jie_long
    client.force_login(rita)
    add = f"/director/tournaments/{s.tournament.pk}/referee/adjustments/"
    assert f'action="{add}"' in client.get(page_url(s)).content.decode()
    assert client.post(add, {"entry": s.entries[0].pk, "amount": "x", "reason": "late"}).status_code == 400
    assert client.post(add, {"entry": s.entries[0].pk, "amount": "-5", "reason": "late"}).status_code == 302
    adj = Adjustment.objects.get()
    assert (adj.created_by, adj.created_by_label) == (rita, "referee rita")
    delete = f"/director/tournaments/{s.tournament.pk}/referee/adjustments/{adj.pk}/delete/"
    assert f'action="{delete}"' in client.get(page_url(s)).content.decode()
    assert client.post(delete).status_code == 302
    assert Adjustment.objects.get().deleted_by == rita


def test_a_referee_substitutes_a_player(client, jie_long, rita):
    s = jie_long
    eve = entry_create(actor=s.director_actor, tournament=s.tournament,
                       player=player_create(actor=s.director_actor, club=s.tournament.club, name="Eve"))
    client.force_login(rita)
    table_url = f"/director/tournaments/{s.tournament.pk}/referee/tables/{s.table.pk}/"
    assert f'href="{table_url}"' in client.get(page_url(s)).content.decode()
    page = client.get(table_url).content.decode()
    assert 'id="substitute-player"' in page and "Eve" in page
    refused = client.post(table_url, {"seat": "0", "player": ""})
    assert refused.status_code == 400 and 'id="substitute-error"' in refused.content.decode()
    assert client.post(table_url, {"seat": "0", "player": str(eve.pk)}).status_code == 302
    assert Substitution.objects.get().entry_in == eve
    assert ActionLog.objects.get(action="table_substitute").actor_user == rita


def test_only_the_tables_of_open_sessions_are_listed(client, jie_long, rita):
    client.force_login(rita)
    table_url = f"/director/tournaments/{jie_long.tournament.pk}/referee/tables/{jie_long.table.pk}/"
    assert f'href="{table_url}"' in client.get(page_url(jie_long)).content.decode()
    session_close(actor=jie_long.director_actor, session=jie_long.table.session)
    page = client.get(page_url(jie_long)).content.decode()
    assert f'href="{table_url}"' not in page and "No table of an open session." in page
    assert "no substitution" in client.get(table_url).content.decode()


def test_a_referee_of_one_tournament_finds_no_other(client, jie_long, rita, make_setup):
    other = make_setup("jie_long")
    client.force_login(rita)
    assert client.get(page_url(other)).status_code == 404
    assert client.post(f"/director/tournaments/{other.tournament.pk}/referee/adjustments/",
                       {"entry": other.entries[0].pk, "amount": "-5", "reason": "x"}).status_code == 404
    assert client.get(f"/director/tournaments/{jie_long.tournament.pk}/referee/tables/{other.table.pk}/") \
        .status_code == 404
    assert not Adjustment.objects.exists()


def test_a_referee_taken_away_finds_the_page_no_more(client, jie_long, rita):
    client.force_login(rita)
    assert client.get(page_url(jie_long)).status_code == 200
    TournamentReferee.objects.all().delete()
    assert client.get(page_url(jie_long)).status_code == 404


def test_the_page_needs_a_login_and_another_clubs_director_finds_nothing(client, jie_long, other_director):
    r = client.get(page_url(jie_long))
    assert r.status_code == 302 and "/director/login/" in r["Location"]
    client.force_login(other_director)
    assert client.get(page_url(jie_long)).status_code == 404


def test_the_tournaments_director_opens_the_referees_page_too(client, jie_long, disputed):
    client.force_login(jie_long.director)
    page = client.get(page_url(jie_long)).content.decode()
    assert "a double left" in page and f'href="/director/tournaments/{jie_long.tournament.pk}/"' in page


# --- the walk: every director route, as a referee -------------------------------------------------

@pytest.fixture
def everything(jie_long, rita, disputed):
    """An id for every kind of path parameter, each a thing of the referee's own tournament (or
    its club): the refusals are the role's, not another club's 404."""
    s = jie_long
    actor = s.director_actor
    club = s.tournament.club
    now = timezone.now()
    adjustment = Adjustment.objects.create(tournament=s.tournament, entry=s.entries[0], amount=-1, reason="x",
                                           created_by_label="director alice")
    return {"club_id": club.pk, "player_id": s.entries[0].player_id, "table_id": s.table.pk,
            "round_id": disputed.pk, "season_id": season_create(actor=actor, club=club, name="Spring").pk,
            "tournament_id": s.tournament.pk, "entry_id": s.entries[0].pk, "number": 1,
            "session_id": s.table.session_id, "audit_id": audit_start(actor=actor, tournament=s.tournament).pk,
            "adjustment_id": adjustment.pk, "user_id": rita.pk,
            "import_id": TournamentImport.objects.create(club=club, requested_label="alice", updated_at=now).pk,
            "job_id": PaperSheetJob.objects.create(session=s.table.session, languages="en", base_url="http://x",
                                                   requested_label="alice", updated_at=now).pk}


def director_paths(ids: dict) -> list[tuple[str, str]]:
    routes = [r for r in ROUTES if r.kind == "director"]
    assert len(routes) > 60
    return [(r.name, reverse(r.name, kwargs={name: ids[name] for _, name in r.params})) for r in routes]


def test_every_director_route_refuses_a_referee_but_theirs(client, everything, rita):
    """GET and POST on every named director route, with the ids of the referee's own tournament
    and club: 403 unless the route is one of ``REFEREE_ROUTES`` (which answer otherwise: a page,
    a redirect after a form, 405 for a method it does not take, 400 for an empty form)."""
    client.force_login(rita)
    before = ActionLog.objects.order_by("-pk").first().pk
    refused, allowed = [], []
    for name, path in director_paths(everything):
        if name in ("director-logout", "director-login"):
            continue   # walked below: they end or start the session
        for method in ("get", "post"):
            status = getattr(client, method)(path).status_code
            (allowed if name in REFEREE_ROUTES else refused).append((name, method, status))
    assert [r for r in refused if r[2] != 403] == []
    assert all(status != 403 for _, _, status in allowed), allowed
    # What the walk did: the referee's page's empty forms are refused; its delete button deleted.
    assert list(ActionLog.objects.filter(pk__gt=before).values_list("action", "actor_user")) == [
        ("adjustment_delete", rita.pk)]
    assert {r[0] for r in refused} | {a[0] for a in allowed} | {"director-login", "director-logout"} == \
        {r.name for r in ROUTES if r.kind == "director"}


def test_a_director_of_another_club_who_referees_here_is_refused_the_directors_pages(client, everything, jie_long,
                                                                                     other_director):
    """A staff user (a director elsewhere) named referee: 403 on every route of the tournament
    and of its tables, sessions and deals but the referee's."""
    referee_add(actor=jie_long.director_actor, tournament=jie_long.tournament, user="bruno")
    client.force_login(other_director)
    tournament_scoped = re.compile(r"<int:(tournament_id|table_id|round_id|session_id)>")
    walked = 0
    for route in (r for r in ROUTES if r.kind == "director" and tournament_scoped.search(r.route)
                  and r.name not in REFEREE_ROUTES and r.name != "director-season-tournament-remove"):
        path = reverse(route.name, kwargs={name: everything[name] for _, name in route.params})
        answers = {client.get(path).status_code, client.post(path).status_code}
        assert 403 in answers and answers <= {403, 405}, (route.name, answers)   # 405: the method it does not take
        walked += 1
    assert walked > 30
    assert client.get(page_url(jie_long)).status_code == 200


def test_login_and_logout_stay_open_to_a_referee(client, rita):
    client.force_login(rita)
    assert client.get("/director/login/").status_code == 302
    assert client.post("/director/logout/").status_code == 302


# --- what it costs ------------------------------------------------------------------------------

#: session, user, tournament, the referee check (a director: the director check instead), the
#: disputes' count, the page of disputes, the disputed tables' seats, their revisions, entries,
#: tables of open sessions, adjustments: whatever the disputes.
REFEREE_PAGE = 11


def test_the_referee_page_costs_the_same_whatever_the_disputes(client, jie_long, rita, django_assert_num_queries):
    client.force_login(rita)
    client.get(page_url(jie_long))
    with django_assert_num_queries(REFEREE_PAGE):
        assert client.get(page_url(jie_long)).status_code == 200
    for _ in range(3):
        rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
        round_dispute(actor=jie_long.scorer_actor, round=rnd, message="again")
    with django_assert_num_queries(REFEREE_PAGE):
        assert client.get(page_url(jie_long)).status_code == 200


def test_the_referee_home_and_table_pages_budgets(client, jie_long, rita, django_assert_max_num_queries):
    client.force_login(rita)
    with django_assert_max_num_queries(4):   # session, user, refereed tournaments (with clubs)
        assert client.get("/director/").status_code == 200
    with django_assert_max_num_queries(12):
        assert client.get(f"/director/tournaments/{jie_long.tournament.pk}/referee/tables/{jie_long.table.pk}/") \
            .status_code == 200


def test_a_referee_refused_costs_no_look_up(client, jie_long, rita, django_assert_max_num_queries):
    client.force_login(rita)
    with django_assert_max_num_queries(3):   # session, user, whether they referee (for the message)
        assert client.get(f"/director/tournaments/{jie_long.tournament.pk}/settings/").status_code == 403
