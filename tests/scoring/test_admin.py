"""The Django admin: every model is there for directors; revisions and the log are read-only."""

from __future__ import annotations

import pytest
from django.contrib import admin

from scoring import models, services

from .bodies import JIE_LONG

pytestmark = pytest.mark.django_db

MODELS = [models.Club, models.Player, models.Tournament, models.Entry, models.Session, models.Table, models.Seat,
          models.Round, models.RoundRevision, models.ActionLog, models.Standing, models.IdempotencyKey]


def test_every_model_is_registered():
    for model in MODELS:
        assert admin.site.is_registered(model), model


def test_a_director_can_browse_every_model(client, director, jie_long):
    rnd = services.round_record(actor=jie_long.scorer_actor, table=jie_long.table, body=JIE_LONG)
    client.force_login(director)
    for model in MODELS:
        url = f"/admin/scoring/{model._meta.model_name}/"
        assert client.get(url).status_code == 200, url
    rev = rnd.current_revision
    assert client.get(f"/admin/scoring/roundrevision/{rev.pk}/change/").status_code == 200
    assert client.get("/admin/scoring/roundrevision/add/").status_code == 403
    assert client.get("/admin/scoring/actionlog/add/").status_code == 403
    assert client.post(f"/admin/scoring/roundrevision/{rev.pk}/delete/", {"post": "yes"}).status_code == 403
    assert client.get("/admin/scoring/tournament/add/").status_code == 200
