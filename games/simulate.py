"""Random legal round records, for tests, benchmarks and demos (``python -m games simulate``).

``simulate(game, deals=, seed=, level=, players=)`` yields ``deals`` records made by random
players who follow the rules (forced play, CG-9), reproducible from ``seed``. For the
connecting games the ``points`` and ``unplayed_tiles`` records are derived from the same
simulated deal as the ``moves`` record, and the random choices do not depend on the level,
so one seed gives the same deals at every level.

Ding Niu players prefer a blocking play now and then, so that SuanZhang comes up in a fair
share of the deals. Tau Ngau and Da Ling get random deals (hands, table, groups); at their quick
level (``values``, ``winners``) the record gives what the engine makes of that same deal: each
seat's value, or the winners.
"""

from __future__ import annotations

import random
from typing import Iterator

from . import da_ling, tau_ngau
from .catalog import CATALOG
from .connecting import UNPLAYED_REQUIRED
from .decks import CHINESE_32, CONNECTING_DEALS
from .ding_niu import Block, SuanZhangWatch, had_safe_play
from .engine import evaluate
from .tiles import Tile, tile_str

LEVELS = ("points", "unplayed_tiles", "moves")

#: Tau Ngau's and Da Ling's own levels, the full one first. Any of the connecting games'
#: levels (the command line's default is ``moves``) gives their full deal too, as it always has.
OWN_LEVELS = {"tau_ngau": tau_ngau.LEVELS, "da_ling": da_ling.LEVELS}

#: How often a Ding Niu player who has a blocking play picks it on purpose.
BLOCK_BIAS = 0.5

#: Players when none are asked for: every game is played by four.
USUAL_PLAYERS = 4


def seat_names(n: int) -> list[str]:
    return [f"P{i + 1}" for i in range(n)]


def _deck_list(deck) -> list[Tile]:
    return [t for t, copies in sorted(deck.items()) for _ in range(copies)]


def simulate(game: str, *, deals: int, seed: int, level: str = "moves", players: int | None = None,
             variant: dict | None = None, pass_rate: float = 0.0) -> Iterator[dict]:
    """Yield ``deals`` random legal records of ``game``; ValueError on a bad request.

    ``variant`` is copied into every record and steers the play where it matters (Jie Long
    ``arms``, Ce Deng ``redeal_doubles``, Ding Niu ``blame_needs_choice``). ``pass_rate``
    (connecting games): how often a player who could play passes anyway, breaking CG-9; such
    records are still valid but draw ``must_play`` warnings (unless ``voluntary_pass``)."""
    spec = CATALOG.get(game) if isinstance(game, str) else None
    if spec is None:
        raise ValueError(f"unknown game {game!r}; choose one of {', '.join(CATALOG)}")
    if not isinstance(deals, int) or deals < 0:
        raise ValueError("deals must be a whole number, 0 or more")
    n = USUAL_PLAYERS if players is None else players
    error = spec.player_count_error(n)
    if error:
        raise ValueError(error)
    rng = random.Random(seed)
    if spec.connecting:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        deck, deal = CONNECTING_DEALS[game][n]
        tiles = _deck_list(deck)
        for _ in range(deals):
            rng.shuffle(tiles)
            hands = [tiles[s * deal:(s + 1) * deal] for s in range(n)]
            yield record_from_hands(game, hands, rng=rng, level=level, variant=variant, pass_rate=pass_rate)
    else:
        own = OWN_LEVELS[game]
        if level not in own and level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(own + LEVELS)}, not {level!r}")
        deal_of = _DEALS[game]
        quick = level == own[1]
        for _ in range(deals):
            record = _with_variant(deal_of(n, rng), variant)
            yield quick_record(record) if quick else record


def _with_variant(record: dict, variant: dict | None) -> dict:
    if variant:
        record["variant"] = dict(variant)
    return record


# ---------------------------------------------------------------------------------------
# Connecting games

def record_from_hands(game: str, hands: list[list[Tile]], *, rng: random.Random, level: str = "moves",
                      variant: dict | None = None, pass_rate: float = 0.0) -> dict:
    """Play the dealt ``hands`` out with random legal players and write the record at
    ``level`` (seats P1..Pn, P1 leading). The random draws do not depend on ``level``."""
    variant = dict(variant or {})
    n = len(hands)
    omit_unplayed = rng.random() < 0.3 and game not in UNPLAYED_REQUIRED  # drawn at every level: same deals
    record: dict = _with_variant({"game": game, "seats": seat_names(n)}, variant)
    limit = variant.get("redeal_doubles", 7)
    if game == "ce_deng" and any(sum(1 for a, b in h if a == b) >= limit for h in hands):
        record["redeal"] = True  # CD-2: a void deal, whatever the level asked for
        record["hands"] = [[tile_str(t) for t in h] for h in hands]
        return record
    two_arms = game == "ding_niu" or (game == "jie_long" and variant.get("arms") == 2)
    moves, left, down, block, blamed = _play_out(game, hands, rng, two_arms, pass_rate)
    if level == "moves":
        record["moves"] = moves
        if any(left):
            record["left_in_hand"] = [[tile_str(t) for t in h] for h in left]
        return record
    unplayed = [down[s] + left[s] for s in range(n)]
    if level == "unplayed_tiles":
        record["unplayed_tiles"] = [[tile_str(t) for t in ts] for ts in unplayed]
    else:
        record["points"] = [sum(a + b for a, b in ts) for ts in unplayed]
        if not omit_unplayed:
            record["unplayed"] = [len(ts) for ts in unplayed]
    if block is not None and (blamed or variant.get("blame_needs_choice") is False):
        # Without a log a named seat counts as a blamed blocker (DN-SZ-10), so only a blamed
        # block is named.
        record["suanzhang"] = {"seat": block.move % n}
    return record


def _play_out(game: str, hands: list[list[Tile]], rng: random.Random, two_arms: bool, pass_rate: float):
    """Random legal play (CG-4 … CG-12; Ding Niu DN-SZ). Returns the move dicts, the tiles
    left in hand, the face-down tiles, the SuanZhang block (or None) and its blame."""
    n = len(hands)
    deal = len(hands[0])
    watch = SuanZhangWatch() if game == "ding_niu" else None
    hands = [list(h) for h in hands]
    down: list[list[Tile]] = [[] for _ in range(n)]
    moves: list[dict] = []
    ends: list[int] = []
    in_row = 0
    blamed = False
    for k in range(n * deal):
        s = k % n
        hand = hands[s]
        if k == 0:
            tile = hand.pop(rng.randrange(len(hand)))
            move = {"play": tile_str(tile)}
            if two_arms:
                ends = [tile[0], tile[1]]
                if watch is not None:
                    watch.lead(tile)
            else:
                ends = [rng.choice(tile)]
                move["open"] = ends[0]
            moves.append(move)
            continue
        options = []
        for tile in sorted(set(hand)):
            seen_pips = set()
            for side, pip in enumerate(ends):
                if pip in tile and pip not in seen_pips:
                    seen_pips.add(pip)
                    options.append((tile, side))
        if not options or (pass_rate and rng.random() < pass_rate):
            tile = hand.pop(rng.randrange(len(hand)))
            down[s].append(tile)
            moves.append({"pass": tile_str(tile)})
            in_row += 1
            if in_row == n:
                break  # CG-12: nobody can play any more
            continue
        in_row = 0
        choice = options[rng.randrange(len(options))]
        if watch is not None and watch.block is None:
            blocking = [o for o in options if watch.would_block(o[0], o[1], (ends[0], ends[1]))]
            if blocking and rng.random() < BLOCK_BIAS:
                choice = blocking[rng.randrange(len(blocking))]
        tile, side = choice
        before = list(hand)
        hand.remove(tile)
        pip = ends[side]
        move = {"play": tile_str(tile)}
        if two_arms:
            move["to"] = pip
        moves.append(move)
        ended = False
        if watch is not None and tile[0] != tile[1]:
            had_block = watch.block is not None
            ended = watch.play(k, tile, side, (ends[0], ends[1]))
            if not had_block and watch.block is not None:
                blamed = had_safe_play(watch.block, before)
        ends[side] = tile[0] + tile[1] - pip
        if ended:
            break  # DN-SZ-6: a smothered SuanZhang ends the deal at once
    block: Block | None = watch.block if watch is not None else None
    return moves, hands, down, block, blamed


# ---------------------------------------------------------------------------------------
# Tau Ngau and Da Ling: random deals only

def _tau_ngau_deal(n: int, rng: random.Random) -> dict:
    tiles = _deck_list(CHINESE_32)
    rng.shuffle(tiles)
    banker = rng.randrange(n)
    return {"game": "tau_ngau", "seats": seat_names(n), "banker": banker,
            "stakes": [None if s == banker else rng.randint(1, 5) for s in range(n)],
            "hands": [[tile_str(t) for t in tiles[s * 5:(s + 1) * 5]] for s in range(n)]}


def _da_ling_deal(n: int, rng: random.Random) -> dict:
    tiles = _deck_list(CHINESE_32)
    rng.shuffle(tiles)
    groups = []
    for s in range(n):
        hand = [tile_str(t) for t in tiles[2 + 6 * s:8 + 6 * s]]
        groups.append([hand[:1], hand[1:3], hand[3:]])
    return {"game": "da_ling", "seats": seat_names(n), "table": [tile_str(t) for t in tiles[:2]],
            "groups": groups}


#: The games without a layout: a random deal each (the connecting games are played out).
_DEALS = {"tau_ngau": _tau_ngau_deal, "da_ling": _da_ling_deal}


def quick_record(record: dict) -> dict:
    """The quick-level record (§3b ``values``, §4b ``winners``) of a valid full Tau Ngau or Da
    Ling record: what the engine makes of the full deal, as a table would agree it. The table
    tiles are left out (they are optional beside the winners)."""
    result = evaluate(record)
    if not result["ok"]:
        raise ValueError("the full record is not valid")
    quick = {k: v for k, v in record.items() if k not in ("hands", "declared", "table", "groups")}
    if record["game"] == "tau_ngau":
        # The full level writes 0 for no bull; its "bull" tells no bull from a bull worth 0.
        quick["values"] = [s["value"] if s["bull"] is not None else None for s in result["seats"]]
    else:
        quick["winners"] = {"absolute": result["absolute_winner"], "groups": result["group_winners"]}
    return quick
