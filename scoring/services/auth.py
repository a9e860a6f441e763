"""Directors and their API tokens."""

from __future__ import annotations

from typing import Any, Iterable

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from rest_framework.authtoken.models import Token

from ..actors import Actor, require_director
from ..errors import Conflict, PermissionDenied, ValidationFailed
from ..models import ActionLog, Club
from .common import action_log, require_text

#: Directors are staff users in this group. It grants no model permissions: every change goes
#: through a service (with its checks and its audit row), and the Django admin is for
#: superusers only.
DIRECTORS_GROUP = "Directors"


def director_create(*, username: str, password: str, email: str = "", clubs: Iterable[Club] = (),
                    actor: Actor | None = None) -> Any:
    """A director: a staff user in the "Directors" group, added as a director of ``clubs``."""
    actor = actor or Actor.system()
    require_director(actor)
    username = require_text(username, "username", "A username", max_length=150)
    if not isinstance(password, str) or len(password) < 8:
        raise ValidationFailed("The password needs at least 8 characters.", path="password", code="too_short")
    User = get_user_model()
    with transaction.atomic():
        if User.objects.filter(username=username).exists():
            raise Conflict(f"A user named {username!r} already exists.", path="username", code="exists")
        user = User.objects.create_user(username=username, password=password, email=email, is_staff=True)
        user.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
        for club in clubs:
            club.directors.add(user)
        action_log(actor, ActionLog.Action.DIRECTOR_CREATE, user,
                   data={"username": username, "clubs": [c.pk for c in clubs]})
    return user


def auth_token_obtain(*, username: Any, password: Any, ip: str | None = None) -> str:
    """A director's API token (created once, then the same one)."""
    if not isinstance(username, str) or not isinstance(password, str) or not username or not password:
        raise ValidationFailed("Send a username and a password.", path="", code="required")
    user = authenticate(username=username, password=password)
    if user is None or not user.is_active:
        raise ValidationFailed("Wrong username or password.", path="", code="bad_credentials")
    actor = Actor(user=user, ip=ip)
    if not actor.is_director:
        raise PermissionDenied("Only directors get an API token.")
    with transaction.atomic():
        token, created = Token.objects.get_or_create(user=user)
        if created:
            action_log(actor, ActionLog.Action.AUTH_TOKEN_CREATE, user)
    return token.key
