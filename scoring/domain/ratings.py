"""Club ratings: openskill's Plackett–Luce over a club's rated results, in one fixed order (pure).

A rated result is a multiplayer result where every placed player is a team of one, ranked by
its place (ties share a place). What one result is, the game says (``Game.rating_unit``,
``games/places.py``):

- ``EACH_DEAL`` — every counted deal, its seats placed by ``Game.place_seats`` (the engine's
  place; by net in that deal where the game has none, as Da Ling). Its key is the deal's id.
- ``TABLE_SESSION`` — a table's session (Tau Ngau: one deal is a bet against the banker, the
  session says who played well): the table's players ranked by their net summed over the
  session's counted deals (``places.places_by_net``, ties sharing). Its key is the id of the
  session's latest counted deal, so the result sits where that deal is; a new deal, correction
  or void in the session moves it (the caller re-rates from the earlier of its old and new key).

A result that places fewer than two players (a Ce Deng redeal) rates nobody.

Deterministic: the same results in the same order give the same numbers (plain float
arithmetic, no randomness). The order matters — a later result sees the ratings the earlier ones
made — so the callers always rate in one documented order: the results' keys, ascending.
``plackett_luce`` is openskill's ``rate`` written out without its copies (the library stays the
reference: a property test holds the two within 1e-9).

Shown as one number: ``DISPLAY_BASE + DISPLAY_SCALE × ordinal`` (ordinal = μ − 3σ, openskill's
conservative estimate), so a new player shows 1000 and the uncertainty ``DISPLAY_SCALE × σ``.
A rating is provisional until the player has ``PROVISIONAL_DEALS`` rated results.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from openskill.models import PlackettLuce

from games.places import EACH_DEAL, TABLE_SESSION, places_by_net

#: openskill's defaults, pinned here so a library upgrade cannot move every club's ladder.
MU = 25.0
SIGMA = 25.0 / 3
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40
#: Rated results a player needs before their rating is no longer provisional.
PROVISIONAL_DEALS = 10

#: The reference model: ``plackett_luce`` computes its ``rate`` (held to it by a test).
_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)
_TAU2 = _MODEL.tau * _MODEL.tau
_BETA2 = _MODEL.beta ** 2
_KAPPA = _MODEL.kappa


class Rating(NamedTuple):
    """A player's rating: μ, σ and the rated results so far. (A tuple: a rebuild makes two per
    player and result, and a frozen dataclass's construction was a tenth of its rules' time.)"""

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


class Deal(NamedTuple):
    """One rated result: ``key`` orders and names it (a deal's id: the deal's own, or a table
    session's latest), ``players`` by seat and each one's ``places`` (None: not placed);
    ``unit`` (``places.EACH_DEAL`` or ``places.TABLE_SESSION``) and the counted ``deals`` it
    stands for."""

    key: int
    players: Sequence[int]
    places: Sequence[int | None]
    unit: str = EACH_DEAL
    deals: int = 1


def session_result(key: int, players: Sequence[int], nets: Mapping[int, int], deals: int) -> Deal:
    """A table session's result: its ``players`` (by seat) ranked by their summed ``nets``
    (player → net over the session's ``deals`` counted deals; absent: 0), ties sharing."""
    totals = [nets.get(p, 0) for p in players]
    return Deal(key, list(players), places_by_net(totals), TABLE_SESSION, deals)


class Change(NamedTuple):
    """How one result moved one player: ``before``/``after`` and, in ``seats``, every placed
    player's rating before it ((player, rating) pairs by place, then player id; one tuple shared
    by the result's changes) — the ``opponents`` are the others: why it moved. ``deal``: the
    result's key."""

    deal: int
    player: int
    place: int
    before: Rating
    after: Rating
    seats: tuple[tuple[int, Rating], ...]

    @property
    def opponents(self) -> tuple[tuple[int, Rating], ...]:
        return tuple(pr for pr in self.seats if pr[0] != self.player)


def plackett_luce(mus: Sequence[float], sigmas: Sequence[float], ranks: Sequence[int]
                  ) -> tuple[list[float], list[float]]:
    """openskill's ``PlackettLuce.rate`` of one result of teams of one (ranks: lower is better,
    equal shares), with this module's parameters, as plain float arithmetic: the same μ and σ
    (a hypothesis test holds it to ``_MODEL.rate`` within 1e-9) without the library's per-call
    argument checks, deep copies (a uuid per rating) and objects — most of a rebuild's time.

    Written from openskill 6.2's ``rate`` and ``_compute`` (Weng & Lin, Algorithm 4): σ widened
    by τ first; c² = Σ(σᵢ² + β²); for each i, over every q with rank(q) ≤ rank(i): x = e^(μᵢ/c) / Σ_{s: rank(s) ≥ rank(q)} e^(μₛ/c), ω += ((1 if q is i
    else 0) − x) / A_q, δ += x(1 − x) / A_q (A_q: teams sharing q's rank); then
    μᵢ += σᵢ²/c · ω and σᵢ ·= √max(1 − γ σᵢ²/c² · δ, κ) with γ = σᵢ/c. (openskill 6.2's
    averaging of tied teams' μ changes compares each team with itself, so changes nothing: not
    repeated here.)"""
    n = len(mus)
    s2 = [s * s + _TAU2 for s in sigmas]
    c2 = 0.0
    for v in s2:
        c2 += v + _BETA2
    c = math.sqrt(c2)
    e = [math.exp(m / c) for m in mus]
    sum_q = [0.0] * n
    a = [0] * n
    for q in range(n):
        rq = ranks[q]
        total = 0.0
        count = 0
        for i in range(n):
            if ranks[i] >= rq:
                total += e[i]
                if ranks[i] == rq:
                    count += 1
        sum_q[q] = total
        a[q] = count
    new_mu = [0.0] * n
    new_sigma = [0.0] * n
    for i in range(n):
        ri = ranks[i]
        ei = e[i]
        omega = 0.0
        delta = 0.0
        for q in range(n):
            if ranks[q] <= ri:
                x = ei / sum_q[q]
                delta += x * (1 - x) / a[q]
                if q == i:
                    omega += (1 - x) / a[q]
                else:
                    omega -= x / a[q]
        v = s2[i]
        sigma = math.sqrt(v)
        omega *= v / c
        delta *= v / c2
        delta *= sigma / c
        new_mu[i] = mus[i] + omega
        new_sigma[i] = sigma * math.sqrt(max(1 - delta, _KAPPA))
    return new_mu, new_sigma


def rate_deals(deals: Iterable[Deal], start: Mapping[int, Rating] | None = None
               ) -> tuple[dict[int, Rating], list[Change]]:
    """Rate the results ``deals`` in the order given, from ``start`` (player → rating; absent:
    new). Returns every player's rating after the last one (those of ``start`` too) and the
    changes (one per placed player and result, ``deal`` = the result's key). A result's players
    are rated by place, then player id, whatever their seats: a result is its players' places.
    (Its caller, ``services.ratings``, pauses the cyclic garbage collector around it: millions of
    small acyclic tuples.)"""
    ratings = dict(start or {})
    changes: list[Change] = []
    for deal in deals:
        # one order whatever the seats': by place, then player (so a result rebuilt from its
        # stored changes, which keep no seat order, sums its floats as the first rating did)
        placed = sorted((pl, p) for p, pl in zip(deal.players, deal.places, strict=True) if pl is not None)
        placed = [(p, pl) for pl, p in placed]
        if len(placed) < 2:
            continue
        before = [ratings.get(p, NEW) for p, _ in placed]
        mus, sigmas = plackett_luce([r.mu for r in before], [r.sigma for r in before], [pl for _, pl in placed])
        seats = tuple((p, r) for (p, _), r in zip(placed, before, strict=True))
        key = deal.key
        for (player, place), old, mu, sigma in zip(placed, before, mus, sigmas, strict=True):
            new = ratings[player] = Rating(mu, sigma, old.deals + 1)
            changes.append(Change(key, player, place, old, new, seats))
    return ratings, changes


class Moved(NamedTuple):
    """What changed between the deals taken in and the deals that count: the first result key to
    re-rate (``start``), the deals taken in that no longer count as taken (``gone``: voided, left
    out, or at an older revision) and those that count but were not taken (``new``)."""

    start: int
    gone: list[tuple[int, int, int | None]]
    new: list[tuple[int, int, int | None]]


def deals_moved(counted: Sequence[tuple[int, int, int | None]], taken: Sequence[tuple[int, int, int | None]]
                ) -> Moved | None:
    """Compare the deals that count, ``counted``, with those the ratings have taken in,
    ``taken`` (both (deal id, revision id, session) in id order; session: the deal's table where
    its game rates table sessions, else None). None if they are the same.

    The start is the first deal that differs (new, corrected, voided, left out) — or, for every
    session one of whose deals differs, the earlier of its old key and its new key (its latest
    deal taken, its latest deal counted) if earlier, since its one result moves from the one to
    the other and every result after the earlier one saw it. Every result before the start is
    the same in both."""
    same = 0
    # Either list may be longer (deals added or gone): the first difference is within both.
    for a, b in zip(counted, taken, strict=False):
        if a != b:
            break
        same += 1
    if same == len(counted) == len(taken):
        return None
    tail_counted, tail_taken = set(counted[same:]), set(taken[same:])
    gone = sorted(tail_taken - tail_counted)
    new = sorted(tail_counted - tail_taken)
    start = min(keys[0][0] for keys in (gone, new) if keys)
    touched = {session for _, _, session in gone + new if session is not None}
    if touched:
        for keys in (counted, taken):
            latest = {}
            for r, _, session in keys:
                if session in touched:
                    latest[session] = r
            start = min(start, *latest.values()) if latest else start
    return Moved(start, gone, new)


def first_moved(counted: Sequence[tuple[int, int, int | None]], taken: Sequence[tuple[int, int, int | None]]
                ) -> int | None:
    """``deals_moved``'s start, or None if nothing moved."""
    moved = deals_moved(counted, taken)
    return None if moved is None else moved.start


def ladder(ratings: Mapping[int, Rating]) -> list[tuple[int, int, Rating]]:
    """(rank, player, rating), best displayed rating first; equal numbers share the rank
    (1, 2, 2, 4); ties listed by player id so the order is stable."""
    ordered = sorted(ratings.items(), key=lambda pr: (-pr[1].ordinal, pr[0]))
    out = []
    for i, (player, r) in enumerate(ordered, start=1):
        rank = out[-1][0] if out and out[-1][2].display == r.display else i
        out.append((rank, player, r))
    return out
