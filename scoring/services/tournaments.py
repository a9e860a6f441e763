"""Tournaments: create, settings, start and finish; entries."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext

import games
from scoring.domain.actors import Actor
from scoring.domain.errors import Conflict, ValidationFailed, problem
from scoring.domain.inputs import DECIMAL_TEXT, MAX_CURRENCY, MAX_TOURNAMENT_NAME, text_problem
from scoring.domain.lifecycle import TOURNAMENT_MOVES, tournament_move_refusal
from scoring.domain.standings import DEFAULT_TIE_BREAKS, TIE_BREAK_FACTS, TIE_BREAKS
from scoring.models import (
    PUBLICLY_VISIBLE,
    ActionLog,
    Club,
    Entry,
    PaperSheetJob,
    Player,
    Round,
    Session,
    Standing,
    Table,
    Tournament,
)
from scoring.selectors.access import require_director_of
from scoring.selectors.push import push_enabled
from scoring.selectors.tournaments import tournament_awaits_publishing
from scoring.services.common import (
    action_log,
    checked_settings,
    enqueue_on_commit,
    enqueue_once_on_commit,
    require_text,
    unique_slug,
)
from scoring.services.lifecycle import require_not_finished
from scoring.services.paper_sheets import paper_sheets_drop
from scoring.services.standings import standings_recompute


def tournament_variant_check(*, game: str, variant: Any) -> dict:
    """The full variant (defaults + given keys), or ValidationFailed with the engine's error for
    each bad key."""
    if game not in games.CATALOG:
        raise ValidationFailed(f"Unknown game; choose one of {', '.join(games.CATALOG)}.", path="game",
                               code="unknown_game")
    info = games.get_game(game)
    variant = {} if variant is None else variant
    problems = info.variant_problems(variant)
    if problems:
        raise ValidationFailed(errors=problems)
    return {**info.variant_defaults(), **variant}


def tournament_entry_level_check(*, game: str, value: Any) -> str:
    """The level a new phone starts a deal on: one of the game's ways of entering (None: the
    game's first), or ValidationFailed at ``entry_level``."""
    levels = [level for level, _label in games.get_game(game).entry.ways_of_entering()]
    if value is None:
        return levels[0]
    if value not in levels:
        raise ValidationFailed(gettext("Choose one of this game's levels: %(levels)s.") % {"levels": ", ".join(levels)},
                               path="entry_level", code="unknown_level")
    return value


def _chip_value(value: Any) -> Decimal:
    # Typed text in ASCII digits only: Decimal() would also read "٣", "１" and "1e3".
    if isinstance(value, str) and not DECIMAL_TEXT.match(value.strip()):
        raise ValidationFailed(gettext("chip_value must be a number."), path="chip_value", code="bad_type")
    try:
        d = Decimal(str(value))
    except (InvalidOperation, ValueError):
        raise ValidationFailed(gettext("chip_value must be a number."), path="chip_value", code="bad_type") from None
    if not d.is_finite() or d < 0 or d >= Decimal("100000000"):
        raise ValidationFailed(gettext("chip_value must be between 0 and 99999999.99."), path="chip_value",
                               code="out_of_range")
    return d.quantize(Decimal("0.01"))


def tournament_tie_breaks_check(value: Any) -> list[str]:
    """The standings' order as given (None: the default ``net, wins, average_place``), or
    ValidationFailed: a non-empty list of distinct keys of ``TIE_BREAKS``, not starting with one
    that may not lead (``TieBreak.may_lead``: head-to-head)."""
    if value is None:
        return list(DEFAULT_TIE_BREAKS)
    allowed = ", ".join(TIE_BREAKS)
    if not isinstance(value, list) or not value:
        raise ValidationFailed(f"tie_breaks is a list of one or more of {allowed}.", path="tie_breaks",
                               code="bad_type")
    errors = []
    for i, key in enumerate(value):
        if not isinstance(key, str) or key not in TIE_BREAKS:
            errors.append(problem(f"tie_breaks[{i}]", "unknown_tie_break", f"Choose one of {allowed}."))
        elif key in value[:i]:
            errors.append(problem(f"tie_breaks[{i}]", "duplicate", f"{key} is already in the list."))
    if errors:
        raise ValidationFailed(errors=errors)
    if not TIE_BREAK_FACTS[value[0]].may_lead:
        raise ValidationFailed(gettext("head_to_head breaks ties: put another key first."), path="tie_breaks[0]",
                               code="head_to_head_first")
    return list(value)


def _slug_taken(slug: str, *, club: Club, exclude: int | None = None) -> bool:
    """Whether another tournament of ``club``, or one that anyone may see, has ``slug``. The slug
    of a tournament that only its club sees counts against that club alone: another club's
    director learns nothing of it (not even that it exists), and since it is nobody's public
    address, nothing can clash with it there (``models.Tournament.slug``)."""
    return Tournament.objects.filter(Q(club=club) | PUBLICLY_VISIBLE, slug=slug).exclude(pk=exclude).exists()


def _claim_public_slug(t: Tournament) -> dict | None:
    """A tournament that has just become visible to anyone (started while public, made public once
    started) keeps its slug unless another visible tournament took it first (its slug was free
    when it was made, but it may have become visible since): then it takes the next free one
    (``-2``, ``-3`` …). Who holds a public address is no secret. ``{"before", "after"}`` when
    the slug changed (set on ``t``, saved by the caller with the change that shows it), else None."""
    if not t.publicly_visible or not _slug_taken(t.slug, club=t.club, exclude=t.pk):
        return None
    before = t.slug
    t.slug = unique_slug(before, lambda slug: _slug_taken(slug, club=t.club, exclude=t.pk))
    return {"before": before, "after": t.slug}


def tournament_create(*, actor: Actor, club: Club, name: str, game: str, variant: dict | None = None,
                      slug: str | None = None, public: bool = False, require_confirmation: bool = False,
                      chip_value: Any = 0, currency: str = "", tie_breaks: Any = None,
                      require_proof: bool | None = None, entry_level: str | None = None) -> Tournament:
    """A new tournament (draft). ``require_proof`` (players prove who they are with their codes
    to record and confirm deals): by default on exactly when ``require_confirmation`` is, since
    a confirmation that anyone at the table can give counts for little. ``entry_level``: the
    level a new phone starts a deal on (default: the game's first)."""
    require_director_of(actor, club)
    require_proof = bool(require_confirmation) if require_proof is None else bool(require_proof)
    name = require_text(name, "name", "A tournament name", max_length=MAX_TOURNAMENT_NAME)
    full_variant = tournament_variant_check(game=game, variant=variant)
    entry_level = tournament_entry_level_check(game=game, value=entry_level)
    tie_breaks = tournament_tie_breaks_check(tie_breaks)
    chips = _chip_value(chip_value)
    currency = _currency(currency)
    with transaction.atomic():
        # Refused (409) only when the club itself has the slug, or a tournament that anyone may
        # see does: other clubs' unseen tournaments never count (``_slug_taken``).
        if slug:
            slug = slugify(slug)
            if not slug or _slug_taken(slug, club=club):
                raise Conflict(gettext("This slug is taken or empty."), path="slug", code="slug_taken")
        slug = slug or unique_slug(name, lambda s: _slug_taken(s, club=club))
        t = Tournament.objects.create(
            club=club, name=name, slug=slug, game=game, variant=full_variant, public=bool(public),
            require_confirmation=bool(require_confirmation), require_proof=require_proof, chip_value=chips,
            currency=currency, tie_breaks=tie_breaks, entry_level=entry_level)
        action_log(actor, ActionLog.Action.TOURNAMENT_CREATE, t, tournament=t,
                   data={"name": name, "game": game, "variant": full_variant, "entry_level": entry_level,
                         "public": t.public,
                         "require_confirmation": t.require_confirmation, "require_proof": t.require_proof,
                         "chip_value": str(chips),
                         "currency": currency, "tie_breaks": tie_breaks})
    return t


#: What may change once a tournament runs: nothing that stored results were computed from (the
#: variant), only how they are shown and settled. ``require_confirmation`` is handled apart.
SETTINGS_AFTER_START = ("name", "public", "chip_value", "currency", "tie_breaks", "require_proof", "rated",
                        "entry_level")
SETTINGS = (*SETTINGS_AFTER_START, "require_confirmation", "variant")


def _currency(value: Any) -> str:
    currency = (value or "").strip().upper() if isinstance(value, str) or value is None else None
    if currency is None or len(currency) > MAX_CURRENCY:
        raise ValidationFailed(gettext("currency is a 3-letter code like EUR."), path="currency", code="bad_currency")
    why = text_problem(currency)   # a NUL fits in 3 characters, and PostgreSQL refuses it
    if why:
        raise ValidationFailed(why, path="currency", code="bad_text")
    return currency


def _unconfirmed_deals(t: Tournament) -> int:
    return (Round.objects.filter(table__session__tournament=t, status=Round.Status.RECORDED).count())


def tournament_update(*, actor: Actor, tournament: Tournament, **changes: Any) -> Tournament:
    """Change ``name``, ``public``, ``chip_value``, ``currency``, ``tie_breaks`` (any time before
    finished: the standings are ranked when read), ``require_proof`` (any time before finished:
    it changes how the next deals are recorded and confirmed, none stored), ``entry_level`` (any
    time before finished: the level a new phone starts a deal on), ``rated`` (whether its
    deals count in the club's ratings: any time, finished too; the ratings follow), ``variant`` (draft
    only: the stored results were computed under it) or ``require_confirmation`` (see below). A
    finished tournament is read-only, except that an imported one still private may be published
    (``public=True`` alone): an import always arrives private (``services.exports``), finished or not.

    Every field is checked before anything changes; all problems are raised together, each with
    its field's path. The ActionLog row keeps ``{field: {"before", "after"}}`` for the fields
    that really changed; a call that changes nothing writes nothing."""
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise ValidationFailed(errors=[problem(k, "unknown_field", f"{k} cannot be changed.") for k in sorted(unknown)])
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        require_director_of(actor, t.club)
        if not ((changes == {"public": True} and tournament_awaits_publishing(t)) or set(changes) == {"rated"}):
            require_not_finished(t, fresh=False)
        checks = {
            "name": lambda v: require_text(v, "name", "A tournament name", max_length=MAX_TOURNAMENT_NAME),
            "public": bool,
            "require_confirmation": bool,
            "require_proof": bool,
            "rated": bool,
            "chip_value": _chip_value,
            "currency": _currency,
            "tie_breaks": tournament_tie_breaks_check,
            "variant": lambda v: tournament_variant_check(game=t.game, variant=v),
            "entry_level": lambda v: tournament_entry_level_check(game=t.game, value=v),
        }
        new = checked_settings(changes, SETTINGS, checks)
        changed = {f: {"before": getattr(t, f), "after": v} for f, v in new.items() if getattr(t, f) != v}
        if t.status != Tournament.Status.DRAFT:
            if "variant" in changed:
                raise Conflict(gettext("The rules cannot change once the tournament has started."), path="variant",
                               code="tournament_started")
            # Once running, switching confirmation is safe only when it changes no standing:
            # while no deal waits for a confirmation, "only confirmed deals count" and "every
            # deal counts" count the same deals. Otherwise deals already shown would drop out
            # of (or slip into) the standings behind the players' backs.
            if "require_confirmation" in changed and _unconfirmed_deals(t):
                raise Conflict(gettext("Confirmation can change only while no deal is waiting to be confirmed: "
                                       "confirm or void those deals first."), path="require_confirmation",
                               code="deals_unconfirmed")
        if not changed:
            return t
        for field, change in changed.items():
            setattr(t, field, change["after"])
        renamed = _claim_public_slug(t) if "public" in changed else None
        if renamed:
            changed["slug"] = renamed
        t.save(update_fields=list(changed))
        if "require_confirmation" in changed:
            standings_recompute(tournament=t)  # which deals count has changed
        if "require_confirmation" in changed or "rated" in changed:
            enqueue_once_on_commit("scoring.ratings_follow", t.club_id)   # the deals the ratings count changed
        action_log(actor, ActionLog.Action.TOURNAMENT_UPDATE, t, tournament=t,
                   data={f: {"before": _logged(c["before"]), "after": _logged(c["after"])}
                         for f, c in changed.items()})
    return t


def _logged(value: Any) -> Any:
    return str(value) if isinstance(value, Decimal) else value


def _tournament_move(*, actor: Actor, tournament: Tournament, action: str) -> Tournament:
    move = TOURNAMENT_MOVES[action]
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        require_director_of(actor, t.club)
        refused = tournament_move_refusal(action, t.status)
        if refused is not None:
            raise Conflict(refused, code="bad_status")
        t.status = move.target
        setattr(t, move.stamp, timezone.now())
        renamed = _claim_public_slug(t)
        t.save(update_fields=["status", move.stamp, *(["slug"] if renamed else [])])
        action_log(actor, ActionLog.Action(action), t, tournament=t, data={"slug": renamed} if renamed else None)
        if move.target == Tournament.Status.FINISHED:
            # A last check of the kept standings, in the background; they are exact already.
            enqueue_on_commit("scoring.standings_refresh", t.pk)
            if push_enabled():   # "standings released", to the phones that allowed it
                enqueue_on_commit("scoring.push_standings_released", t.pk)
    tournament.status, tournament.slug = t.status, t.slug
    setattr(tournament, move.stamp, getattr(t, move.stamp))
    return t


def tournament_start(*, actor: Actor, tournament: Tournament) -> Tournament:
    """draft → running."""
    return _tournament_move(actor=actor, tournament=tournament, action="tournament_start")


def tournament_finish(*, actor: Actor, tournament: Tournament, disputes_stay: bool = False) -> Tournament:
    """running → finished (read-only from then on), its open sessions closed. Standings are
    refreshed on commit.

    With disputes open the director must say so (``disputes_stay``): a finished tournament can
    no longer settle them, so finishing over them is a choice, never an accident."""
    require_director_of(actor, tournament.club)
    if not disputes_stay:
        open_disputes = (Round.objects.filter(table__session__tournament=tournament, disputed=True)
                         .exclude(status=Round.Status.VOIDED).count())
        if open_disputes:  # a state that refuses the move, as a finished tournament does: 409
            raise Conflict(
                ngettext("%(count)d dispute is open: settle it first, or finish anyway and leave it as it is.",
                         "%(count)d disputes are open: settle them first, or finish anyway and leave them as "
                         "they are.", open_disputes) % {"count": open_disputes},
                path="disputes_stay", code="open_disputes")
    with transaction.atomic():
        finished = _tournament_move(actor=actor, tournament=tournament, action="tournament_finish")
        _close_open_sessions(actor, finished)
        # Its links record nothing any more: the sheets show none (their kept secrets go).
        Table.objects.filter(session__tournament=tournament).exclude(scorer_token_secret=None).update(
            scorer_token_secret=None)
        paper_sheets_drop(sessions=Session.objects.filter(tournament=tournament),
                          reason=PaperSheetJob.Reason.TOURNAMENT_FINISHED)
    return finished


def _close_open_sessions(actor: Actor, tournament: Tournament) -> None:
    """A finished tournament records nothing more: its open sessions are closed with it (each
    logged as a close, as the director's own would be), so no page shows one open. Locked after
    the tournament: a deal locks its session, never the tournament, so the two cannot wait on
    each other."""
    now = timezone.now()
    for session in Session.objects.select_for_update().filter(tournament=tournament, status=Session.Status.OPEN):
        session.status, session.closed_at = Session.Status.CLOSED, now
        session.save(update_fields=["status", "closed_at", "changed_at"])
        action_log(actor, ActionLog.Action.SESSION_CLOSE, session, tournament=tournament,
                   data={"number": session.number, "with": "tournament_finish"})


def entry_create(*, actor: Actor, tournament: Tournament, player: Player) -> Entry:
    """Enter ``player`` in a draft or a running tournament (a late entry: seated from the next
    session on). A player entered already is refused (409 ``exists``), also one who withdrew:
    ``services.roster.entry_reenter`` brings them back, with their deals."""
    require_director_of(actor, tournament.club)
    require_not_finished(tournament)
    if player.club_id != tournament.club_id:
        raise ValidationFailed(gettext("This player belongs to another club."), path="player", code="other_club")
    with transaction.atomic():
        if Entry.objects.filter(tournament=tournament, player=player).exists():
            raise Conflict(gettext("%(name)s is already registered.") % {"name": player.name}, path="player", code="exists")
        entry = Entry.objects.create(tournament=tournament, player=player)
        Standing.objects.create(tournament=tournament, entry=entry)
        action_log(actor, ActionLog.Action.ENTRY_CREATE, entry, tournament=tournament,
                   data={"player": player.pk, "name": player.name})
    return entry
