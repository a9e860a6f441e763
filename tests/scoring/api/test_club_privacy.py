"""A club that is not the reader's tells nothing (issue 26): its id answers exactly as an unknown
one (status, body, the queries asked), and a new club's slug is random, so that neither a slug
made from its name (``-2`` when taken) nor a chosen one refused as taken tells a director that a
club of that name or slug exists."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.domain.inputs import CLUB_SLUG_LENGTH
from scoring.models import Club
from scoring.services.auth import auth_token_obtain
from scoring.services.clubs import club_create

from .test_schema import codes

pytestmark = pytest.mark.django_db

API = ["/api/v1/clubs/{}/", "/api/v1/clubs/{}/players/", "/api/v1/clubs/{}/seasons/", "/api/v1/clubs/{}/ratings/"]
PAGES = ["/clubs/{}/ratings/"]
DIRECTOR_PAGES = ["/director/clubs/{}/", "/director/clubs/{}/seasons/", "/director/clubs/{}/ratings/"]


def answer(client, url):
    with CaptureQueriesContext(connection) as queries:
        r = client.get(url)
    return r.status_code, r["Content-Type"], r.content, len(queries)


def test_another_clubs_id_answers_as_an_unknown_one(club, other_director):
    unknown = Club.objects.order_by("-pk").first().pk + 1000
    token = APIClient()
    token.credentials(HTTP_AUTHORIZATION=f"Token {auth_token_obtain(username='bruno', password='bruno-secret-1')}")
    logged_in = Client()
    logged_in.force_login(other_director)
    for client, urls in ((APIClient(), API + PAGES), (token, API), (logged_in, DIRECTOR_PAGES + PAGES)):
        for url in urls:
            answer(client, url.format(unknown))    # a first request warms what is read once per process
            mine, nobodys = answer(client, url.format(club.pk)), answer(client, url.format(unknown))
            assert mine[0] in (401, 404) and mine == nobodys, url   # 401: a login is needed at all


def test_a_new_clubs_slug_tells_nothing(director_actor, director_client):
    first = club_create(actor=director_actor, name="Dragon Club")
    again = club_create(actor=director_actor, name="Dragon Club")
    for c in (first, again):
        assert len(c.slug) == CLUB_SLUG_LENGTH and "dragon" not in c.slug
    assert first.slug != again.slug
    r = director_client.post("/api/v1/clubs/", {"name": "Dragon Club"}, format="json")
    assert r.status_code == 201 and len(r.json()["slug"]) == CLUB_SLUG_LENGTH
    # A chosen slug would answer 409 `slug_taken` for another club's: none is taken.
    assert codes(director_client.post("/api/v1/clubs/", {"name": "Tiger", "slug": first.slug},
                                      format="json")) == [("slug", "unknown_field")]
