"""The Django admin: superusers only, and read-only even for them (every change goes through a
service, with its checks and its audit row)."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model

from scoring import models
from scoring.services.rounds import round_record

from .bodies import JIE_LONG

pytestmark = pytest.mark.django_db

MODELS = [models.Club, models.Player, models.Tournament, models.Entry, models.Session, models.Table, models.Seat,
          models.Round, models.RoundRevision, models.ActionLog, models.Standing, models.IdempotencyKey,
          models.Audit, models.AuditChunk, models.AuditFinding, models.TournamentImport]


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("root", "root@example.org", "root-secret-1")


def test_every_model_is_registered():
    for model in MODELS:
        assert admin.site.is_registered(model), model


def test_a_superuser_can_browse_every_model_but_change_nothing(client, superuser, jie_long):
    rnd = round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    client.force_login(superuser)
    for model in MODELS:
        url = f"/admin/scoring/{model._meta.model_name}/"
        assert client.get(url).status_code == 200, url
        assert client.get(f"{url}add/").status_code == 403, url
    t = jie_long.tournament
    assert client.get(f"/admin/scoring/tournament/{t.pk}/change/").status_code == 200
    name = t.name
    client.post(f"/admin/scoring/tournament/{t.pk}/change/", {"name": "Renamed", "club": t.club_id, "game": t.game})
    t.refresh_from_db()
    assert t.name == name
    assert client.post(f"/admin/scoring/round/{rnd.pk}/delete/", {"post": "yes"}).status_code == 403
    assert models.Round.objects.filter(pk=rnd.pk).exists()


def test_the_scorer_token_hash_is_not_shown(client, superuser, jie_long):
    client.force_login(superuser)
    page = client.get(f"/admin/scoring/table/{jie_long.table.pk}/change/").content.decode()
    assert jie_long.table.scorer_token_hash not in page


def test_directors_hold_no_model_permissions_and_are_kept_out(client, director, jie_long):
    assert not director.get_all_permissions()
    client.force_login(director)
    for url in ["/admin/", "/admin/scoring/tournament/", f"/admin/scoring/tournament/{jie_long.tournament.pk}/change/"]:
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"], url
