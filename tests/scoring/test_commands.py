"""Management commands."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from scoring.models import ActionLog

pytestmark = pytest.mark.django_db


def test_create_director(club):
    call_command("create_director", "dora", "--password", "dora-secret-1", "--club", club.slug)
    user = get_user_model().objects.get(username="dora")
    assert user.is_staff and user.check_password("dora-secret-1")
    assert club.directors.filter(pk=user.pk).exists()


def test_create_referee_makes_a_user_who_directs_nothing_and_reaches_nothing_yet(client, director):
    call_command("create_referee", "rita", "--password", "rita-secret-1")
    user = get_user_model().objects.get(username="rita")
    assert not user.is_staff and not user.is_superuser and user.check_password("rita-secret-1")
    assert not user.clubs.exists()
    assert ActionLog.objects.get(action="referee_account_create").data == {"username": "rita"}
    client.force_login(user)
    assert client.get("/director/").status_code == 403   # a referee of nothing yet
    with pytest.raises(CommandError):
        call_command("create_referee", "alice", "--password", "alice-secret-2")
    with pytest.raises(CommandError):
        call_command("create_referee", "rex", "--password", "short")


def test_create_director_refusals(director):
    with pytest.raises(CommandError):
        call_command("create_director", "alice", "--password", "alice-secret-2")
    with pytest.raises(CommandError):
        call_command("create_director", "erin", "--password", "erin-secret-1", "--club", "nope")


def test_vapid_keys_prints_a_pair_that_signs_and_subscribes():
    """``manage.py vapid_keys``: a P-256 pair, the public key as a browser's applicationServerKey
    takes it (65 bytes), the private key as pywebpush signs with it."""
    import base64
    from io import StringIO

    from django.core.management import call_command
    from py_vapid import Vapid

    out = StringIO()
    call_command("vapid_keys", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    public, private = lines["VAPID_PUBLIC_KEY"], lines["VAPID_PRIVATE_KEY"]
    assert len(base64.urlsafe_b64decode(public + "=" * (-len(public) % 4))) == 65
    headers = Vapid.from_string(private_key=private).sign({"sub": "mailto:a@example.org", "aud": "https://p.example"})
    assert headers["Authorization"].endswith(f"k={public}")
