"""Management commands."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def test_create_director(club):
    call_command("create_director", "dora", "--password", "dora-secret-1", "--club", club.slug)
    user = get_user_model().objects.get(username="dora")
    assert user.is_staff and user.check_password("dora-secret-1")
    assert club.directors.filter(pk=user.pk).exists()


def test_create_director_refusals(director):
    with pytest.raises(CommandError):
        call_command("create_director", "alice", "--password", "alice-secret-2")
    with pytest.raises(CommandError):
        call_command("create_director", "erin", "--password", "erin-secret-1", "--club", "nope")
