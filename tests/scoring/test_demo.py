"""python manage.py load_demo: loads once, through the services, and prints a working login and
scorer link."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command

import games
from scoring.models import ActionLog, Club, Entry, Player, Round, RoundRevision, Seat, Table, Tournament
from scoring.selectors.audits import round_verify_chain

pytestmark = pytest.mark.django_db

MODELS = (Club, Player, Tournament, Entry, Table, Seat, Round, RoundRevision, ActionLog)


def run(*args) -> str:
    out = io.StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def counts() -> dict:
    return {m.__name__: m.objects.count() for m in MODELS}


def test_load_demo_twice_changes_nothing(client):
    first = run()
    before = counts()
    hashes = list(Table.objects.order_by("pk").values_list("scorer_token_hash", flat=True))
    second = run()
    assert counts() == before
    assert list(Table.objects.order_by("pk").values_list("scorer_token_hash", flat=True)) == hashes
    assert "nothing changed" in second and "nothing changed" not in first
    assert "username demo" in second and "password gupai-demo" in second

    assert before["Player"] == 12 and before["Table"] == 4
    running = Tournament.objects.filter(status="running", public=True)
    assert sorted(running.values_list("game", flat=True)) == ["ding_niu", "tau_ngau"]
    for table in Table.objects.all():
        n = table.seats.count()
        assert n == 4 if table.session.tournament.game == "ding_niu" else n in (4, 5)
        assert table.rounds.count() >= 3


def test_load_demo_used_the_services():
    run()
    actions = set(ActionLog.objects.values_list("action", flat=True))
    assert {"director_create", "club_create", "player_create", "tournament_create", "entry_create", "table_create",
            "tournament_start", "round_record", "round_confirm"} <= actions
    assert ActionLog.objects.filter(action="round_record", actor_label__startswith="scorer of table").count() == \
        Round.objects.count()
    for rev in RoundRevision.objects.all():
        assert games.evaluate(rev.record)["ok"]
        assert round_verify_chain(rev.round).ok
    assert Round.objects.filter(disputed=True).exists()


def test_printed_login_and_link_work(client):
    out = run()
    link = re.search(r"http://127\.0\.0\.1:8000(/s/[^/\s]+/)", out).group(1)
    assert client.get(link).status_code == 200
    assert client.login(username="demo", password="gupai-demo")
    assert client.get("/director/").status_code == 200
    page = client.get("/").content.decode()
    assert "Ding Niu open (demo)" in page and "Tau Ngau night (demo)" in page


def test_new_link_replaces_the_first_tables_link(client):
    first = re.search(r"(/s/[^/\s]+/)", run()).group(1)
    out = run("--new-link")
    second = re.search(r"(/s/[^/\s]+/)", out).group(1)
    assert "replaced" in out and first != second
    assert client.get(first).status_code == 404
    assert client.get(second).status_code == 200


def test_load_demo_prints_its_links_at_the_address_given():
    """``make run PORT=8311`` passes ``--base-url http://127.0.0.1:8311``: the links printed work."""
    text = run("--base-url", "http://127.0.0.1:8311/")
    assert "http://127.0.0.1:8311/director/login/" in text
    assert re.search(r"Scorer link of .*: http://127\.0\.0\.1:8311/s/[^/\s]+/", text)
    assert "8000" not in text
    again = run("--new-link", "--base-url", "http://127.0.0.1:8311")
    assert re.search(r"http://127\.0\.0\.1:8311/s/[^/\s]+/", again) and "8000" not in again


def test_the_demo_has_a_public_ladder_and_a_season(client, django_capture_on_commit_callbacks):
    from scoring.models import PlayerRating, Season

    with django_capture_on_commit_callbacks(execute=True):   # the ratings follow after the commit
        out = run()
    assert "public rating ladder and a season" in out
    club = Club.objects.get(slug="demo-club")
    assert club.ladder_public
    assert PlayerRating.objects.filter(club=club).count() == 12
    page = client.get(f"/clubs/{club.pk}/ratings/")
    assert page.status_code == 200 and "Anna" in page.content.decode()
    season = Season.objects.get(club=club)
    assert season.public
    assert dict(season.links.values_list("tournament__game", "weight")) == {"ding_niu": 1, "tau_ngau": 2}
    assert client.get(f"/seasons/{season.pk}/").status_code == 200
