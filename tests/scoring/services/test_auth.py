"""Director accounts and API tokens (scoring/services/auth.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.models import ActionLog
from scoring.selectors.auth import user_by_api_token
from scoring.services.auth import (
    DIRECTORS_GROUP,
    auth_token_obtain,
    auth_tokens_cleanup,
    auth_tokens_revoke,
    director_create,
)

pytestmark = pytest.mark.django_db





def test_director_create_makes_a_staff_user_in_the_directors_group(db):
    user = director_create(username="carol", password="carol-secret")
    assert user.is_staff and not user.is_superuser
    assert user.groups.filter(name=DIRECTORS_GROUP).exists()
    assert not user.get_all_permissions()  # every change goes through services; no admin rights
    assert ActionLog.objects.filter(action="director_create", actor_label="system").exists()


def test_director_create_refuses_duplicates_and_short_passwords(director):
    with pytest.raises(Conflict):
        director_create(username="alice", password="another-pass")
    with pytest.raises(ValidationFailed) as e:
        director_create(username="dora", password="short")
    assert e.value.errors[0]["path"] == "password"


def test_director_create_refuses_scorers(jie_long):
    with pytest.raises(PermissionDenied):
        director_create(username="eve", password="eve-secret-1", actor=jie_long.scorer_actor)


def test_auth_token_obtain_makes_a_new_hashed_expiring_token_each_time(director, settings):
    from scoring.models import ApiToken

    token = auth_token_obtain(username="alice", password="alice-secret-1", ip="10.1.1.1")
    other = auth_token_obtain(username="alice", password="alice-secret-1")
    assert token != other and len(token) >= 40
    assert user_by_api_token(token) == director == user_by_api_token(other)
    stored = ApiToken.objects.filter(user=director)
    assert stored.count() == 2 and not stored.filter(key_hash__in=[token, other]).exists()
    assert all(t.expires_at - t.created_at >= settings.API_TOKEN_TTL - timedelta(seconds=5) for t in stored)
    stored.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert user_by_api_token(token) is None
    assert auth_tokens_cleanup() == 0   # expired for less than a day: kept a little
    with pytest.raises(ValidationFailed):
        auth_token_obtain(username="alice", password="wrong")
    get_user_model().objects.create_user(username="plain", password="plain-secret-1")
    with pytest.raises(PermissionDenied):
        auth_token_obtain(username="plain", password="plain-secret-1")


def test_auth_tokens_revoke_logs_out_everywhere(director, director_actor, other_director):
    mine = [auth_token_obtain(username="alice", password="alice-secret-1") for _ in range(2)]
    theirs = auth_token_obtain(username="bruno", password="bruno-secret-1")
    assert auth_tokens_revoke(actor=director_actor) == 2
    assert [user_by_api_token(t) for t in mine] == [None, None]
    assert user_by_api_token(theirs) == other_director
    assert ActionLog.objects.filter(action="auth_tokens_revoke", data__revoked=2).exists()
    with pytest.raises(PermissionDenied):
        auth_tokens_revoke(actor=Actor(table=None))
