"""Club ratings: openskill's Plackett–Luce over a club's counted deals, in a fixed order (pure).

Each counted deal is one multiplayer result: every placed seat is a team of one, ranked by its
place (``games/places.py``; ties share a place). Games without places of their own (Tau Ngau,
Da Ling) are placed by net in that deal by the same module, so a Tau Ngau deal is rated by its
players' net order *per deal* (not per session: simpler, and every deal then counts alike).
A deal that places fewer than two seats (a Ce Deng redeal) rates nobody.

Deterministic: the same deals in the same order give the same numbers (openskill's update is
plain float arithmetic, no randomness). The order matters — a later deal sees the ratings the
earlier ones made — so the callers always rate in one documented order (the deals' ids).

Shown as one number: ``DISPLAY_BASE + DISPLAY_SCALE × ordinal`` (ordinal = μ − 3σ, openskill's
conservative estimate), so a new player shows 1000 and the uncertainty ``DISPLAY_SCALE × σ``.
A rating is provisional until the player has ``PROVISIONAL_DEALS`` rated deals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: openskill's defaults, pinned here so a library upgrade cannot move every club's ladder.
MU = 25.0
SIGMA = 25.0 / 3
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
#: Deals a player needs before their rating is no longer provisional.
PROVISIONAL_DEALS = 10

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    deals: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        return displayed(self.mu, self.sigma)

    @property
    def uncertainty(self) -> int:
        return round(DISPLAY_SCALE * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.deals < PROVISIONAL_DEALS


NEW = Rating()


def displayed(mu: float, sigma: float) -> int:
    """The friendly number: 1000 for a new player, 40 points per unit of ordinal."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class Deal:
    """One counted deal: ``key`` orders and names it (the round's id), ``players`` by seat and
    each one's ``places`` (None: not placed)."""

    key: int
    players: Sequence[int]
    places: Sequence[int | None]


@dataclass(frozen=True)
class Change:
    """How one deal moved one player: ``before``/``after`` and the ``opponents``' ratings before
    the deal ((player, rating) pairs in seat order) — why it moved."""

    deal: int
    player: int
    place: int
    before: Rating
    after: Rating
    opponents: tuple[tuple[int, Rating], ...]


def rate_deals(deals: Iterable[Deal], start: Mapping[int, Rating] | None = None
               ) -> tuple[dict[int, Rating], list[Change]]:
    """Rate ``deals`` in the order given, from ``start`` (player → rating; absent: new).
    Returns every player's rating after the last deal (those of ``start`` too) and the changes."""
    ratings = dict(start or {})
    changes: list[Change] = []
    rate = _MODEL.rate
    # openskill's own objects, kept per player between deals: making one costs a uuid.
    kept: dict[int, object] = {}
    for deal in deals:
        placed = [(p, pl) for p, pl in zip(deal.players, deal.places) if pl is not None]
        if len(placed) < 2:
            continue
        before = [ratings.get(p, NEW) for p, _ in placed]
        teams = []
        for (p, _), r in zip(placed, before):
            o = kept.get(p)
            if o is None:
                o = kept[p] = _MODEL.rating(mu=r.mu, sigma=r.sigma)
            teams.append([o])
        out = rate(teams, ranks=[pl for _, pl in placed])
        for i, ((player, place), old) in enumerate(zip(placed, before)):
            o = kept[player] = out[i][0]
            new = Rating(o.mu, o.sigma, old.deals + 1)
            ratings[player] = new
            opponents = tuple((q, before[j]) for j, (q, _) in enumerate(placed) if j != i)
            changes.append(Change(deal.key, player, place, old, new, opponents))
    return ratings, changes


def ladder(ratings: Mapping[int, Rating]) -> list[tuple[int, int, Rating]]:
    """(rank, player, rating), best displayed rating first; equal numbers share the rank
    (1, 2, 2, 4); ties listed by player id so the order is stable."""
    ordered = sorted(ratings.items(), key=lambda pr: (-pr[1].ordinal, pr[0]))
    out = []
    for i, (player, r) in enumerate(ordered, start=1):
        rank = out[-1][0] if out and out[-1][2].display == r.display else i
        out.append((rank, player, r))
    return out
