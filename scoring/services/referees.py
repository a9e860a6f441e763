"""A tournament's referees: a director of its club adds an existing user as its referee, or takes
one away. What a referee may then do is ``scoring.selectors.access``'s (``REFEREE_MAY``); a
referee adds no referee (403)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, NotFound, ValidationFailed
from scoring.domain.inputs import MAX_ID, MAX_USERNAME, is_int, text_problem
from scoring.models import ActionLog, Tournament, TournamentReferee
from scoring.selectors.access import is_director_of, require_official_of
from scoring.services.common import action_log


def _user(value: Any):
    """The user named by ``value``: a username (text) or an id (a whole number); 400 ``not_found``
    at ``user`` when there is no such active user."""
    User = get_user_model()
    if isinstance(value, str):
        name = value.strip()
        if not name:
            raise ValidationFailed(gettext("Give the referee's username."), path="user", code="required")
        if len(name) > MAX_USERNAME or text_problem(name):
            raise ValidationFailed(gettext("No user has this username."), path="user", code="not_found")
        user = User.objects.filter(username=name, is_active=True).first()
    elif is_int(value):
        user = User.objects.filter(pk=value, is_active=True).first() if 0 < value <= MAX_ID else None
    else:
        raise ValidationFailed(gettext("Give the referee's username."), path="user", code="bad_type")
    if user is None:
        raise ValidationFailed(gettext("No user has this username."), path="user", code="not_found")
    return user


def referee_add(*, actor: Actor, tournament: Tournament, user: Any) -> TournamentReferee:
    """``user`` (a username or a user id) becomes a referee of ``tournament``. Directors of its
    club only (a referee: 403). Refusals: 400 ``not_found`` (no such active user), 409
    ``already_referee``, 409 ``already_director`` (a director of the club may do it all already)."""
    require_official_of(actor, tournament, "referee_add")
    found = _user(user)
    if is_director_of(Actor(user=found), tournament.club):
        raise Conflict(gettext("%(name)s already directs this club.") % {"name": found.get_username()},
                       path="user", code="already_director")
    try:
        with transaction.atomic():
            if TournamentReferee.objects.filter(tournament=tournament, user=found).exists():
                raise IntegrityError
            referee = TournamentReferee.objects.create(tournament=tournament, user=found, added_by=actor.user_or_none)
            action_log(actor, ActionLog.Action.REFEREE_ADD, referee, tournament=tournament,
                       data={"user": found.pk, "username": found.get_username()})
    except IntegrityError:
        raise Conflict(gettext("%(name)s is already a referee of this tournament.") % {"name": found.get_username()},
                       path="user", code="already_referee") from None
    return referee


def referee_remove(*, actor: Actor, tournament: Tournament, user_id: Any) -> None:
    """The user ``user_id`` referees ``tournament`` no more: their pages and token stop reaching it
    at once. Directors of its club only (a referee: 403); not a referee of it: 404."""
    require_official_of(actor, tournament, "referee_remove")
    with transaction.atomic():
        referee = (TournamentReferee.objects.select_for_update().select_related("user")
                   .filter(tournament=tournament, user_id=user_id).first()) if is_int(user_id, 1, MAX_ID) else None
        if referee is None:
            raise NotFound("No such referee.")
        action_log(actor, ActionLog.Action.REFEREE_REMOVE, referee, tournament=tournament,
                   data={"user": referee.user_id, "username": referee.user.get_username()})
        referee.delete()
