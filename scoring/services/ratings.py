"""The club ratings' writes: follow the counted deals (a Celery task after each deal write) and
rebuild from scratch (the director's). Both rate the same deals in the same order (the deals'
ids) by the same rules (``scoring.domain.ratings``), so a rebuild equals the followed ratings.

Following compares the deals the ratings have taken in (``RatedDeal``: round and revision) with
the deals that count now. Where they first differ — a new deal, a correction (a new revision), a
void or a confirmation, a tournament left out — every change from that deal on is deleted and the
deals from there are rated forward from the ratings just before it. The common case (new deals
at the end) rates only the new deals.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone

from scoring.domain.actors import Actor
from scoring.domain.ratings import Rating, rate_deals
from scoring.models import ActionLog, Club, PlayerRating, RatedDeal, RatingChange
from scoring.selectors.ratings import rated_keys, rating_deals
from scoring.services.common import action_log

#: Rows a bulk INSERT writes at once.
BATCH = 2000


def _insert(model, fields: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert plain rows (column values in ``fields`` order). PostgreSQL takes them by COPY — a
    rebuild writes a row per player and deal, 400,000 at 100,000 deals, and model instances with
    INSERTs were most of its time; elsewhere ``bulk_create``."""
    if not rows:
        return
    if connection.vendor == "postgresql":
        columns = ", ".join(f'"{model._meta.get_field(f).column}"' for f in fields)
        with connection.cursor() as cursor:
            with cursor.cursor.copy(f'COPY "{model._meta.db_table}" ({columns}) FROM STDIN') as copy:
                for row in rows:
                    copy.write_row(row)
        return
    model.objects.bulk_create([model(**dict(zip(fields, row))) for row in rows], batch_size=BATCH)


def _delete(queryset) -> None:
    """One DELETE statement (nothing refers to these rows: no cascade to collect)."""
    queryset._raw_delete(queryset.db)


def _rate(club: Club, *, everything: bool) -> dict:
    """Rate what is not yet rated (everything: from scratch). Inside the caller's transaction,
    under the club's row lock (one rater a club at a time). Returns what it did."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    if everything:
        _delete(RatingChange.objects.filter(club=club))
        _delete(RatedDeal.objects.filter(club=club))
        _delete(PlayerRating.objects.filter(club=club))
    counted = rated_keys(club)
    taken = list(RatedDeal.objects.filter(club=club).order_by("round_id").values_list("round_id", "revision_id"))
    same = 0
    for a, b in zip(counted, taken):
        if a != b:
            break
        same += 1
    if same == len(counted) == len(taken):
        return {"deals": 0, "from": None}
    starts = [keys[same][0] for keys in (counted, taken) if same < len(keys)]
    start_round = min(starts)
    appending = same == len(taken)
    if appending:
        start = {p: Rating(mu, s, d) for p, mu, s, d in
                 PlayerRating.objects.filter(club=club).values_list("player_id", "mu", "sigma", "deals")}
    else:
        # the ratings just before the first deal that differs: each player's last change before it
        _delete(RatingChange.objects.filter(club=club, round_id__gte=start_round))
        _delete(RatedDeal.objects.filter(club=club, round_id__gte=start_round))
        start = {}
        for p, mu, s, d in (RatingChange.objects.filter(club=club).order_by("round_id")
                            .values_list("player_id", "mu_after", "sigma_after", "deals")):
            start[p] = Rating(mu, s, d)
    revisions = dict(counted[same:])
    # a deal written since ``rated_keys`` read waits for the next follow (its write enqueues one)
    deals = [d for d in rating_deals(club, from_round=start_round) if d.key in revisions]
    ratings, changes = rate_deals(deals, start)
    now = timezone.now()
    _insert(RatedDeal, ("club_id", "round_id", "revision_id"), [(club.pk, d.key, revisions[d.key]) for d in deals])
    _insert(RatingChange, ("club_id", "round_id", "player_id", "place", "mu_before", "sigma_before", "mu_after",
                           "sigma_after", "deals"),
            [(club.pk, c.deal, c.player, c.place, c.before.mu, c.before.sigma, c.after.mu, c.after.sigma,
              c.after.deals) for c in changes])
    moved = {c.player for c in changes} if appending else set(ratings)
    stale = PlayerRating.objects.filter(club=club)
    if appending:
        stale = stale.filter(player_id__in=moved)
    _delete(stale)
    _insert(PlayerRating, ("club_id", "player_id", "mu", "sigma", "deals", "updated_at"),
            [(club.pk, p, ratings[p].mu, ratings[p].sigma, ratings[p].deals, now) for p in sorted(moved)])
    return {"deals": len(deals), "from": start_round}


def ratings_follow(*, club: Club) -> dict:
    """Rate the club's counted deals not yet rated, re-rating from a deal corrected, voided or
    left out on. Returns ``{"deals": rated, "from": first round id re-rated or None}``."""
    with transaction.atomic():
        return _rate(club, everything=False)


def ratings_rebuild(*, actor: Actor, club: Club) -> dict:
    """Rebuild the club's ratings from scratch, in one transaction. Returns what ``ratings_follow``
    does."""
    with transaction.atomic():
        done = _rate(club, everything=True)
        action_log(actor, ActionLog.Action.RATINGS_REBUILD, club, data={"deals": done["deals"]})
    return done
