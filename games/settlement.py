"""Settlement building blocks shared by the games: transfers, nets, pairwise differences,
a chip to the winner, and ranking with the lower-hand / upper-hand tie rules (RULES.md §0.2.6,
CG-14, JL-3, JL-6, KK-5, DN-5).

A transfer is ``{"from": payer, "to": receiver, "amount": positive int}``; ``"to": None``
is the house (Da Ling's casino chip).
"""

from __future__ import annotations

from typing import Callable, Sequence

Transfer = dict


def pay(transfers: list[Transfer], payer: int, receiver: int | None, amount: int) -> None:
    """Append a payment, skipping nothing-payments and self-payments."""
    if amount > 0 and payer != receiver:
        transfers.append({"from": payer, "to": receiver, "amount": amount})


def nets_from_transfers(n: int, transfers: Sequence[Transfer]) -> list[int]:
    """What each of n seats wins (+) or pays (−); payments to the house only reduce the payer."""
    nets = [0] * n
    for t in transfers:
        nets[t["from"]] -= t["amount"]
        if t["to"] is not None:
            nets[t["to"]] += t["amount"]
    return nets


def deal_balance(result: dict) -> int:
    """What a settled deal leaves over: the seats' nets plus what the house took (Da Ling's
    casino chip, the result's ``house``). Every settled deal balances to 0 (RULES.md §0: the
    nets of one deal sum to 0, together with the house), whatever the game; audits check stored
    results with it. ValueError when the result holds no readable nets."""
    seats = result.get("seats") if isinstance(result, dict) else None
    if not isinstance(seats, list):
        raise ValueError("the result has no seats")
    total = 0
    for seat in seats:
        net = seat.get("net") if isinstance(seat, dict) else None
        if not isinstance(net, int) or isinstance(net, bool):
            raise ValueError("a seat has no whole-number net")
        total += net
    house = result.get("house", 0)
    if not isinstance(house, int) or isinstance(house, bool):
        raise ValueError("the house's take is not a whole number")
    return total + house


def difference_transfers(points: Sequence[int],
                         factor: Callable[[int, int], int] | None = None) -> list[Transfer]:
    """In every pair the seat with more points pays the other the difference (JL-3),
    times ``factor(payer, receiver)`` when given (Ce Deng's multipliers, CD-6/CD-7)."""
    transfers: list[Transfer] = []
    n = len(points)
    for i in range(n):
        for j in range(i + 1, n):
            if points[i] == points[j]:
                continue
            payer, receiver = (i, j) if points[i] > points[j] else (j, i)
            amount = points[payer] - points[receiver]
            if factor is not None:
                amount *= factor(payer, receiver)
            pay(transfers, payer, receiver, amount)
    return transfers


def chip_to_winner(n: int, winner: int, amount: int = 1) -> list[Transfer]:
    """Every other seat pays the winner ``amount`` (JL-6, KK-5 "chip")."""
    transfers: list[Transfer] = []
    for s in range(n):
        pay(transfers, s, winner, amount)
    return transfers


def places_lower_hand(points: Sequence[int]) -> list[int]:
    """Places 1..N by points ascending, ties to the lower hand (smaller seat) (CG-14)."""
    order = sorted(range(len(points)), key=lambda s: (points[s], s))
    places = [0] * len(points)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return places


def places_ding_niu(points: Sequence[int]) -> list[int]:
    """DN-5: the winner is the first by (points, seat); the rest go by (points, −seat), so a tie
    below first place favours the upper hand."""
    n = len(points)
    winner = points.index(min(points))  # the first seat with the fewest points
    # Plain (points, −seat) tuples sort without a key function.
    rest = sorted([(points[s], -s) for s in range(n) if s != winner])
    places = [0] * n
    places[winner] = 1
    for place, (_, minus_seat) in enumerate(rest, start=2):
        places[-minus_seat] = place
    return places


def winner_of(places: Sequence[int]) -> int:
    return places.index(1)
