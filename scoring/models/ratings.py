"""A club's ratings (Plackett–Luce, ``scoring.domain.ratings``): each player's current rating,
each rated result's change per player (a result is a deal, or a table's session keyed by its
latest counted deal: ``Game.rating_unit``), and which deals (at which revision) the ratings have
taken in."""

from __future__ import annotations

from django.db import models

from scoring.models.clubs import Club, Player
from scoring.models.rounds import Round, RoundRevision

# The rows of a rebuild (a change per player and deal, a rated deal per deal) name their deal,
# player and club without a database constraint: PostgreSQL checks Django's deferred foreign keys
# at the commit, and 500,000 checks were seconds of a 100,000-deal rebuild. They are derived rows,
# written only by ``services.ratings`` from rows it has just read; Django still deletes them with
# what they name (on_delete), and a rebuild makes them all anew.


class PlayerRating(models.Model):
    """A player's rating in the club after every rated result (what the ladder reads)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    #: Rated results so far (provisional under ``domain.ratings.PROVISIONAL_DEALS``).
    deals = models.PositiveIntegerField()
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["club", "player"]
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="rating_unique_player_per_club")]


class RatedDeal(models.Model):
    """A counted deal the club's ratings have taken in, and the revision they read: a deal whose
    revision changed (a correction) or that no longer counts (a void) is re-rated from there on."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    revision = models.ForeignKey(RoundRevision, on_delete=models.CASCADE, related_name="+", db_constraint=False)

    class Meta:
        ordering = ["club", "round"]
        constraints = [models.UniqueConstraint(fields=["club", "round"], name="rated_deal_unique_per_club")]


class RatingChange(models.Model):
    """How one rated result moved one player's rating — why it moved: before and after; the
    opponents' ratings before it are the ``before`` of the result's other changes (not stored
    twice). ``round``: the result's key — the deal, or a table session's latest counted deal
    (the session's one result moves there with each new deal)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    # No index of their own: (round, player) and (player, round) below lead with them, and every
    # index is written 400,000 times by a rebuild.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes", db_constraint=False,
                               db_index=False)
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    #: The player's rated results after this one.
    deals = models.PositiveIntegerField()

    class Meta:
        ordering = ["round", "player"]
        constraints = [models.UniqueConstraint(fields=["round", "player"], name="rating_change_unique_player")]
        # (round, player) leads the unique index: a club's changes from a deal on are found by round
        indexes = [models.Index(fields=["player", "round"])]
