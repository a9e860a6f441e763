"""Clubs, their directors and their players."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext

import games
from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, NotFound, ValidationFailed
from scoring.domain.inputs import MAX_CLUB_NAME, MAX_PLAYER_NAME, new_club_slug
from scoring.models import ActionLog, Club, Player
from scoring.selectors.access import require_director, require_director_of
from scoring.selectors.payouts import payouts_names_changed
from scoring.services.common import action_log, enqueue_once_on_commit, require_text


def club_create(*, actor: Actor, name: str, slug: str | None = None) -> Club:
    """A club; the director who creates it becomes one of its directors. Its slug tells nothing
    (``new_club_slug``): slugs are unique among all clubs, so one made from the name (``-2`` when
    taken) or a chosen one refused as taken would tell any director that a club of that name or
    slug exists. ``slug``: a fixed one for the demo loader only (the API takes none)."""
    require_director(actor)
    name = require_text(name, "name", "A club name", max_length=MAX_CLUB_NAME)
    with transaction.atomic():
        if slug:
            slug = slugify(slug)
            if not slug or Club.objects.filter(slug=slug).exists():
                raise Conflict(gettext("This slug is taken or empty."), path="slug", code="slug_taken")
        slug = slug or _unique_club_slug()
        club = Club.objects.create(name=name, slug=slug)
        if actor.user_or_none is not None:
            club.directors.add(actor.user)
        action_log(actor, ActionLog.Action.CLUB_CREATE, club, data={"name": name, "slug": club.slug})
    return club


def _unique_club_slug() -> str:
    slug = new_club_slug()
    while Club.objects.filter(slug=slug).exists():   # all but never: a fresh draw
        slug = new_club_slug()
    return slug


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
            raise Conflict(gettext("%(name)s is already a player of this club.") % {"name": name}, path="name",
                           code="exists")
        player = Player.objects.create(club=club, name=name)
        action_log(actor, ActionLog.Action.PLAYER_CREATE, player, data={"club": club.pk, "name": name})
    return player


def player_rename(*, actor: Actor, player: Player, name: Any) -> Player:
    """Rename a club's player everywhere (every tournament shows the new name; deals already
    recorded keep, in their stored records, the name they were recorded under). Names stay
    unique in the club: another player's name is refused (409 ``exists``). The same name again
    changes and logs nothing; the row keeps ``before`` and ``after``."""
    require_director_of(actor, player.club)
    name = require_text(name, "name", "A player name", max_length=MAX_PLAYER_NAME)
    with transaction.atomic():
        p = Player.objects.select_for_update().filter(pk=player.pk).first()
        if p is None:
            raise NotFound(gettext("No such player."))
        if p.name == name:
            return p
        taken = Conflict(gettext("%(name)s is already a player of this club.") % {"name": name}, path="name",
                         code="exists")
        if Player.objects.filter(club_id=p.club_id, name=name).exclude(pk=p.pk).exists():
            raise taken
        before, p.name = p.name, name
        try:
            with transaction.atomic():   # a clash committed since the check: the constraint says so
                p.save(update_fields=["name"])
        except IntegrityError:
            raise taken from None
        action_log(actor, ActionLog.Action.PLAYER_RENAME, p, data={"club": p.club_id, "before": before, "after": name})
        club_id = p.club_id
        transaction.on_commit(lambda: payouts_names_changed(club_id))   # cached payouts name them
    player.name = p.name
    return p


def club_ratings_update(*, actor: Actor, club: Club, ladder_public: Any, unrated_games: Any) -> Club:
    """The club's ratings settings: whether its ladder is public (its page and API, for
    everyone) and the games its ratings leave out (``games.GAMES`` keys; an unknown key is
    refused at ``unrated_games``, nothing changed). The ratings are followed again after the
    commit, so a game left out (or back in) is re-rated. Logged with the settings before and
    after."""
    require_director_of(actor, club)
    if not isinstance(ladder_public, bool):
        raise ValidationFailed(gettext("Say yes or no."), path="ladder_public", code="invalid")
    if not isinstance(unrated_games, (list, tuple)) or not all(isinstance(g, str) for g in unrated_games):
        raise ValidationFailed(gettext("A list of games is expected."), path="unrated_games", code="invalid")
    unknown = [g for g in unrated_games if g not in games.GAMES]
    if unknown:
        raise ValidationFailed(gettext("Unknown game: %(keys)s.") % {"keys": ", ".join(unknown)},
                               path="unrated_games", code="unknown_game")
    # the catalog's order, each once: the stored list reads the same whatever the form sent
    wanted = [g for g in games.GAMES if g in unrated_games]
    with transaction.atomic():
        c = Club.objects.select_for_update().get(pk=club.pk)
        before = {"ladder_public": c.ladder_public, "unrated_games": list(c.unrated_games)}
        after = {"ladder_public": ladder_public, "unrated_games": wanted}
        if before == after:
            return c
        c.ladder_public, c.unrated_games = ladder_public, wanted
        c.save(update_fields=["ladder_public", "unrated_games"])
        action_log(actor, ActionLog.Action.CLUB_RATINGS_UPDATE, c, data={"settings": after, "before": before})
        if before["unrated_games"] != wanted:
            enqueue_once_on_commit("scoring.ratings_follow", c.pk)
    club.ladder_public, club.unrated_games = c.ladder_public, c.unrated_games
    return c
