"""A club's seasons: made, renamed or published, and their tournaments added (with a weight)
or removed. Directors of the season's club only."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, NotFound, ValidationFailed, problem
from scoring.domain.inputs import MAX_SLUG, MAX_TOURNAMENT_NAME
from scoring.models import ActionLog, Club, Season, SeasonTournament, Tournament
from scoring.selectors.access import require_director_of
from scoring.services.common import action_log, checked_settings, require_text

#: The weight's bounds: positive, three decimals at most, below the column's limit (8 digits).
MAX_WEIGHT = Decimal("99999.999")


def season_weight_check(value: Any) -> Decimal:
    """A weight: a positive number (integer or decimal, ≤ 3 decimals, ≤ ``MAX_WEIGHT``)."""
    bad = ValidationFailed(gettext("The weight is a positive number with at most 3 decimals (e.g. 1, 2 or 1.5)."),
                           path="weight", code="bad_weight")
    if isinstance(value, bool) or not isinstance(value, (int, str, Decimal, float)):
        raise bad
    try:
        w = Decimal(str(value).strip())
    except InvalidOperation:
        raise bad from None
    if not w.is_finite() or w <= 0 or w > MAX_WEIGHT or w != w.quantize(Decimal("0.001")):
        raise bad
    return w.normalize() if w == w.to_integral_value() else w


def _slug(value: Any) -> str:
    if value in (None, ""):
        return ""
    if not isinstance(value, str) or not slugify(value) or len(slugify(value)) > MAX_SLUG:
        raise ValidationFailed(gettext("The slug is letters, digits and dashes."), path="slug", code="bad_slug")
    return slugify(value)


def season_create(*, actor: Actor, club: Club, name: Any, slug: Any = "", public: bool = False) -> Season:
    require_director_of(actor, club)
    name = require_text(name, "name", "A season name", max_length=MAX_TOURNAMENT_NAME)
    slug = _slug(slug)
    with transaction.atomic():
        season = Season.objects.create(club=club, name=name, slug=slug, public=bool(public))
        action_log(actor, ActionLog.Action.SEASON_CREATE, season,
                   data={"club": club.pk, "name": name, "slug": slug, "public": season.public})
    return season


#: What ``season_update`` may change.
SEASON_SETTINGS = ("name", "slug", "public")


def season_update(*, actor: Actor, season: Season, **changes: Any) -> Season:
    """Change ``name``, ``slug`` or ``public``; every field checked before anything changes. The
    row keeps ``{field: {"before", "after"}}`` of what really changed; no change, no row."""
    require_director_of(actor, season.club)
    unknown = set(changes) - set(SEASON_SETTINGS)
    if unknown:
        raise ValidationFailed(errors=[problem(k, "unknown_field", f"{k} cannot be changed.") for k in sorted(unknown)])
    checks = {"name": lambda v: require_text(v, "name", "A season name", max_length=MAX_TOURNAMENT_NAME),
              "slug": _slug, "public": bool}
    new = checked_settings(changes, SEASON_SETTINGS, checks)
    with transaction.atomic():
        s = Season.objects.select_for_update().filter(pk=season.pk).first()
        if s is None:
            raise NotFound(gettext("No such season."))
        changed = {f: {"before": getattr(s, f), "after": v} for f, v in new.items() if getattr(s, f) != v}
        if changed:
            for f, c in changed.items():
                setattr(s, f, c["after"])
            s.save(update_fields=list(changed))
            action_log(actor, ActionLog.Action.SEASON_UPDATE, s, data=changed)
    return s


def season_tournament_add(*, actor: Actor, season: Season, tournament: Tournament,
                          weight: Any = 1) -> SeasonTournament:
    """Count ``tournament`` in the season with ``weight``; one of the season's club's only
    (another club's is refused at ``tournament``). Added again: its weight changes."""
    require_director_of(actor, season.club)
    if tournament.club_id != season.club_id:
        raise ValidationFailed(gettext("The tournament is not one of this club's."), path="tournament",
                               code="other_club")
    weight = season_weight_check(weight)
    with transaction.atomic():
        Season.objects.select_for_update().filter(pk=season.pk).first()   # one add at a time a season
        link = SeasonTournament.objects.filter(season=season, tournament=tournament).first()
        before = None if link is None else link.weight
        if link is None:
            link = SeasonTournament.objects.create(season=season, tournament=tournament, weight=weight)
        elif link.weight == weight:
            return link
        else:
            link.weight = weight
            link.save(update_fields=["weight"])
        action_log(actor, ActionLog.Action.SEASON_TOURNAMENT_ADD, season, tournament=tournament,
                   data={"tournament": tournament.pk, "weight": weight, "before": before})
    return link


def season_tournament_remove(*, actor: Actor, season: Season, tournament: Tournament) -> None:
    require_director_of(actor, season.club)
    with transaction.atomic():
        deleted, _ = SeasonTournament.objects.filter(season=season, tournament=tournament).delete()
        if not deleted:
            raise Conflict(gettext("This tournament is not in the season."), path="tournament", code="not_in_season")
        action_log(actor, ActionLog.Action.SEASON_TOURNAMENT_REMOVE, season, tournament=tournament,
                   data={"tournament": tournament.pk})
