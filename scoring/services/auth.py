"""Directors and their API tokens."""

from __future__ import annotations

import secrets
from datetime import timedelta
from importlib import import_module
from typing import Any, Iterable

from django.conf import settings
from django.contrib.auth import SESSION_KEY, authenticate, get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from scoring.domain import row_scope
from scoring.domain.actors import Actor
from scoring.domain.chain import sha256_hex
from scoring.domain.errors import Conflict, PermissionDenied, ValidationFailed
from scoring.domain.inputs import MAX_USERNAME, text_problem
from scoring.models import ActionLog, ApiToken, Club
from scoring.selectors.access import is_referee, require_director
from scoring.services.common import action_log, require_text

#: Directors are staff users in this group. It grants no model permissions: every change goes
#: through a service (with its checks and its audit row), and the Django admin is for
#: superusers only.
DIRECTORS_GROUP = "Directors"


def director_create(*, username: str, password: str, email: str = "", clubs: Iterable[Club] = (),
                    actor: Actor | None = None) -> Any:
    """A director: a staff user in the "Directors" group, added as a director of ``clubs``."""
    actor = actor or Actor.system()
    require_director(actor)
    username = require_text(username, "username", "A username", max_length=MAX_USERNAME)
    if not isinstance(password, str) or len(password) < 8:
        raise ValidationFailed(gettext("The password needs at least 8 characters."), path="password", code="too_short")
    User = get_user_model()
    with transaction.atomic():
        if User.objects.filter(username=username).exists():
            raise Conflict(gettext("A user named %(name)s already exists.") % {"name": repr(username)}, path="username",
                           code="exists")
        user = User.objects.create_user(username=username, password=password, email=email, is_staff=True)
        user.groups.add(Group.objects.get_or_create(name=DIRECTORS_GROUP)[0])
        for club in clubs:
            club.directors.add(user)
        action_log(actor, ActionLog.Action.DIRECTOR_CREATE, user,
                   data={"username": username, "clubs": [c.pk for c in clubs]})
    return user


def referee_account_create(*, username: str, password: str, email: str = "", actor: Actor | None = None) -> Any:
    """A referee's account: a user who is no staff and directs no club. It opens nothing until a
    director names it a tournament's referee (``services.referees.referee_add``)."""
    actor = actor or Actor.system()
    require_director(actor)
    username = require_text(username, "username", "A username", max_length=MAX_USERNAME)
    if not isinstance(password, str) or len(password) < 8:
        raise ValidationFailed(gettext("The password needs at least 8 characters."), path="password", code="too_short")
    User = get_user_model()
    with transaction.atomic():
        if User.objects.filter(username=username).exists():
            raise Conflict(gettext("A user named %(name)s already exists.") % {"name": repr(username)}, path="username",
                           code="exists")
        user = User.objects.create_user(username=username, password=password, email=email, is_staff=False)
        action_log(actor, ActionLog.Action.REFEREE_ACCOUNT_CREATE, user, data={"username": username})
    return user


def auth_token_obtain(*, username: Any, password: Any, ip: str | None = None) -> str:
    """A new API token for a director or a referee (it reaches what their pages do; each call makes one; each lives ``API_TOKEN_TTL``).
    Returns the plain token: only its hash is stored, so it cannot be shown again."""
    if not isinstance(username, str) or not isinstance(password, str) or not username or not password:
        raise ValidationFailed(gettext("Send a username and a password."), path="", code="required")
    why = text_problem(username)   # the look-up would send it to the database
    if why:
        raise ValidationFailed(why, path="username", code="bad_text")
    user = authenticate(username=username, password=password)
    if user is None or not user.is_active:
        raise ValidationFailed(gettext("Wrong username or password."), path="", code="bad_credentials")
    actor = Actor(user=user, ip=ip)
    if not actor.is_director and not is_referee(actor):
        raise PermissionDenied(gettext("Only directors and referees get an API token."))
    row_scope.admit_user(user)   # proven by the password: the request reaches the director's rows
    token = secrets.token_urlsafe(32)
    expires_at = timezone.now() + settings.API_TOKEN_TTL
    with transaction.atomic():
        ApiToken.objects.create(user=user, key_hash=sha256_hex(token), expires_at=expires_at)
        action_log(actor, ActionLog.Action.AUTH_TOKEN_CREATE, user, data={"expires_at": expires_at})
    return token


def auth_tokens_revoke(*, actor: Actor, keep_session: str | None = None) -> int:
    """Log out everywhere: every API token of the acting director stops working at once, and
    every browser session of theirs ends, but ``keep_session`` (the session key of the browser
    that asked, which stays logged in). Returns how many tokens were revoked; the log row says
    how many sessions ended too. A referee revokes their own too."""
    if not is_referee(actor):
        require_director(actor)
    if actor.user_or_none is None:
        raise PermissionDenied(gettext("Only a director's own tokens can be revoked."))
    with transaction.atomic():
        revoked, _ = ApiToken.objects.filter(user=actor.user).delete()
        ended = _end_browser_sessions(actor.user, keep=keep_session)
        action_log(actor, ActionLog.Action.AUTH_TOKENS_REVOKE, actor.user,
                   data={"revoked": revoked, "sessions_ended": ended})
    return revoked


def _end_browser_sessions(user: Any, *, keep: str | None) -> int:
    """End the user's browser sessions (all but ``keep``); how many. Sessions are stored by key,
    not by user, so each live one is read; the store's own ``delete`` removes it (from the cache
    too, with ``cached_db``). A session engine without rows (cache only, signed cookies) has
    nothing to list: none is ended there (settings use the database)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not hasattr(store, "get_model_class"):
        return 0
    user_id, ended = str(user.pk), 0
    for row in store.get_model_class().objects.filter(expire_date__gt=timezone.now()).exclude(session_key=keep):
        if row.get_decoded().get(SESSION_KEY) == user_id:
            store(session_key=row.session_key).delete()
            ended += 1
    return ended


def auth_tokens_cleanup(*, actor: Actor | None = None) -> int:
    """Delete API tokens expired for over a day (they no longer work anyway; Celery beat runs
    this daily). Returns how many."""
    actor = actor or Actor.system()
    with transaction.atomic():
        deleted, _ = ApiToken.objects.filter(expires_at__lt=timezone.now() - timedelta(days=1)).delete()
        if deleted:  # as idempotency_keys_cleanup: a daily run that finds nothing leaves no row
            action_log(actor, ActionLog.Action.AUTH_TOKENS_CLEANUP, None, data={"deleted": deleted})
    return deleted
