"""Clubs, their directors and their players."""

from __future__ import annotations

from django.utils.translation import gettext
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from scoring.domain.actors import Actor

from scoring.selectors.access import require_director, require_director_of
from scoring.domain.errors import Conflict
from scoring.domain.inputs import MAX_CLUB_NAME, MAX_PLAYER_NAME
from scoring.models import ActionLog, Club, Player
from scoring.services.common import action_log, require_text, unique_slug


def club_create(*, actor: Actor, name: str, slug: str | None = None) -> Club:
    """A club; the director who creates it becomes one of its directors."""
    require_director(actor)
    name = require_text(name, "name", "A club name", max_length=MAX_CLUB_NAME)
    with transaction.atomic():
        if slug:
            slug = slugify(slug)
            if not slug or Club.objects.filter(slug=slug).exists():
                raise Conflict(gettext("This slug is taken or empty."), path="slug", code="slug_taken")
        slug = slug or unique_slug(name, lambda s: Club.objects.filter(slug=s).exists())
        club = Club.objects.create(name=name, slug=slug)
        if actor.user_or_none is not None:
            club.directors.add(actor.user)
        action_log(actor, ActionLog.Action.CLUB_CREATE, club, data={"name": name, "slug": club.slug})
    return club


def club_director_add(*, actor: Actor, club: Club, user: Any) -> None:
    require_director_of(actor, club)
    with transaction.atomic():
        club.directors.add(user)
        action_log(actor, ActionLog.Action.CLUB_DIRECTOR_ADD, club,
                   data={"user": user.pk, "username": user.get_username()})


def player_create(*, actor: Actor, club: Club, name: str) -> Player:
    require_director_of(actor, club)
    name = require_text(name, "name", "A player name", max_length=MAX_PLAYER_NAME)
    with transaction.atomic():
        if Player.objects.filter(club=club, name=name).exists():
            raise Conflict(f"{name} is already a player of this club.", path="name", code="exists")
        player = Player.objects.create(club=club, name=name)
        action_log(actor, ActionLog.Action.PLAYER_CREATE, player, data={"club": club.pk, "name": name})
    return player
