"""Tournament slugs (issue 16): a director learns nothing of other clubs' tournaments that only
those clubs see. A slug is unique within its club and among the tournaments anyone may see
(``models.PUBLICLY_VISIBLE``, the public pages' rule, which the API's reads follow too)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from scoring.domain.actors import Actor
from scoring.models import PUBLICLY_VISIBLE, ActionLog, Club, Tournament
from scoring.services.tournaments import tournament_create, tournament_start, tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def other(other_director):
    """Club B, and its director's actor."""
    return Club.objects.get(name="Other Club"), Actor(user=other_director)


def b_tournament(other, slug: str, *, public: bool, start: bool) -> Tournament:
    club, actor = other
    t = tournament_create(actor=actor, club=club, name="B's", game="jie_long", slug=slug, public=public)
    if start:
        tournament_start(actor=actor, tournament=t)
    return t


def create(director_client, club, **body):
    return director_client.post("/api/v1/tournaments/", {"club": club.pk, "name": "Spring open", "game": "jie_long",
                                                         **body}, format="json")


@pytest.mark.parametrize("public, start", [(False, False), (False, True), (True, False)])
def test_another_clubs_unseen_slug_is_as_free_as_one_nobody_has(director_client, club, other, public, start):
    """Club B's private tournament, or its public draft: club A's director gets the very slug
    asked for (or made from the name), as when nobody has it; before, a 409 told them it existed."""
    b_tournament(other, "spring-open", public=public, start=start)
    r = create(director_client, club, slug="spring-open")
    assert r.status_code == 201 and r.json()["slug"] == "spring-open"
    r = create(director_client, club, name="Summer cup")
    b_tournament(other, "summer-cup-2", public=public, start=start)
    assert create(director_client, club, name="Summer cup").json()["slug"] == "summer-cup-2"


def test_a_slug_of_the_same_club_or_of_a_public_page_is_refused(director_client, club, other):
    assert create(director_client, club, slug="spring-open").status_code == 201
    r = create(director_client, club, slug="spring-open")
    assert r.status_code == 409 and r.json()["errors"][0]["code"] == "slug_taken"
    assert create(director_client, club).json()["slug"] == "spring-open-2"   # made from the name
    # One that anyone may see is no secret: its page is at /t/<slug>/.
    b_tournament(other, "autumn", public=True, start=True)
    r = create(director_client, club, slug="autumn")
    assert r.status_code == 409 and r.json()["errors"][0]["code"] == "slug_taken"


def test_the_second_to_become_visible_takes_the_next_free_slug(club, director_actor, other, client):
    mine = tournament_create(actor=director_actor, club=club, name="A's", game="jie_long", slug="open", public=True)
    theirs = b_tournament(other, "open", public=True, start=False)
    tournament_start(actor=other[1], tournament=theirs)   # visible first: keeps its slug
    assert theirs.slug == "open"
    started = tournament_start(actor=director_actor, tournament=mine)
    assert mine.slug == started.slug == "open-2"
    assert ActionLog.objects.get(action="tournament_start", target_id=str(mine.pk)).data == {
        "slug": {"before": "open", "after": "open-2"}}
    assert "A&#x27;s" in client.get("/t/open-2/").content.decode()
    assert "B&#x27;s" in client.get("/t/open/").content.decode()


def test_made_public_once_started_takes_the_next_free_slug(club, director_actor, other):
    mine = tournament_create(actor=director_actor, club=club, name="A's", game="jie_long", slug="cup")
    tournament_start(actor=director_actor, tournament=mine)
    b_tournament(other, "cup", public=True, start=True)
    mine = tournament_update(actor=director_actor, tournament=mine, public=True)
    assert mine.slug == "cup-2"
    assert ActionLog.objects.filter(action="tournament_update").latest("id").data["slug"] == {
        "before": "cup", "after": "cup-2"}


def test_the_database_holds_both_rules(club, director_actor, other):
    def fails(fn):
        with pytest.raises(IntegrityError), transaction.atomic():
            fn()

    b_club = other[0]
    fields = {"name": "x", "game": "jie_long"}
    Tournament.objects.create(club=club, slug="same", **fields)
    Tournament.objects.create(club=b_club, slug="same", **fields)   # unseen: no clash across clubs
    fails(lambda: Tournament.objects.create(club=club, slug="same", **fields))
    Tournament.objects.create(club=club, slug="seen", public=True, status="running", **fields)
    fails(lambda: Tournament.objects.create(club=b_club, slug="seen", public=True, status="finished", **fields))
    Tournament.objects.create(club=b_club, slug="seen", public=True, status="draft", **fields)


def test_the_public_rule_says_the_same_in_both_forms(club):
    """``PUBLICLY_VISIBLE`` (queries, the constraint) and ``Tournament.publicly_visible`` (one
    tournament: the API's reads, the templates) are one rule."""
    for public in (False, True):
        for status in Tournament.Status.values:
            t = Tournament.objects.create(club=club, slug=f"{public}-{status}", name="x", game="jie_long",
                                          public=public, status=status)
            assert Tournament.objects.filter(PUBLICLY_VISIBLE, pk=t.pk).exists() == t.publicly_visible
            assert t.publicly_visible == (public and status != "draft")
