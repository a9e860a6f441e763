"""The six games, one frozen description each: names, player counts, record fields, rule
options, the evaluator and the scorer's deal form (RULES.md, ROUND_RECORD.md).

Whatever needs to know a game asks here, by key: ``get_game("ding_niu").player_count_error(3)``.
Facts the rules rest on stay beside the rules and are only read here: the deals by player
count (decks.py), Tau Ngau's and Da Ling's player counts, Ce Deng's required unplayed counts
(connecting.py).

Imports run one way: the catalog imports the game modules, which import record.py, and
record.py reaches the catalog only when called.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping

from . import ce_deng, connecting, da_ling, ding_niu, jie_long, kko_li_but_i_gi, places, tau_ngau
from .decks import CHINESE_32, CONNECTING_DEALS
from .entry import Declared, Entry, Input, Mark, Moves, Numbers, SeatChoice, SeatValue, Tiles, Winner
from .record import Common, Problems, is_int, player_count_message, read_variant
from .words import gettext_noop


@dataclass(frozen=True)
class Variant:
    """One rule option of a game (ROUND_RECORD.md §6)."""

    key: str
    default: Any
    check: Callable[[object], bool]
    allowed: str  # the allowed values in words, for messages: '"v2" or "v1"'
    #: What a form shows (in English; the site translates it). The control follows from the
    #: fields below: ``kind`` is "flag" (a checkbox), "choice" (one of ``values``), "whole" (a
    #: whole number from ``low`` to ``high``) or "wholes" (``count`` whole numbers ≥ ``low``).
    label: str = ""
    kind: str = "flag"
    values: tuple = ()
    low: int | None = None
    high: int | None = None
    count: int = 0


# One object per game: equal only to itself, and so hashable (the reader caches by game).
@dataclass(frozen=True, eq=False)
class Game:
    """Everything the engine and the site know about one game."""

    key: str
    name: str                            # in English; ``names`` adds it as "en"
    names: Mapping[str, str]             # by language code, in the game's own scripts
    blurb: str                           # one sentence for the home page
    player_counts: tuple[int, ...]       # ascending (RULES.md §1.4)
    connecting: bool                     # a layout game (RULES.md §2)
    #: Record seats start with the seat that led; a body names the leader by table position
    #: and the per-seat lists rotate.
    has_leader: bool
    has_banker: bool                     # the record names the banker's seat in "banker"
    fields: tuple[str, ...]              # top-level record fields besides the common ones
    per_seat_fields: tuple[str, ...]     # lists with one item per seat, in the record's seat order
    seat_object_fields: tuple[str, ...]  # objects naming a seat in "seat"
    variants: Mapping[str, Variant]      # by key, in a stable order
    evaluator: Callable[[dict, Common, Problems], "dict | None"]
    entry: Entry                         # the scorer's deal form
    #: How a deal places its seats and who wins it, for standings: ``places.ENGINE`` (the
    #: result's ``place``) or ``places.BY_NET`` (see games/places.py).
    placing: str
    #: What the club's ratings rate as one result: ``places.EACH_DEAL`` (by the deal's places)
    #: or ``places.TABLE_SESSION`` (a table's session, by its players' net over the session).
    rating_unit: str = places.EACH_DEAL
    #: players -> (deck, tiles each seat holds) (RULES.md §1.4): what a tile picker offers.
    deals: Mapping[int, tuple[Any, int]] = field(default_factory=dict)
    #: How many open ends the layout has under a variant (0: no layout) (CG-7).
    arms: Callable[[dict], int] = lambda variant: 0
    _defaults: dict[str, Any] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        put = object.__setattr__  # frozen: set once, here
        put(self, "names", MappingProxyType({"en": self.name, **self.names}))
        put(self, "variants", MappingProxyType(dict(self.variants)))
        # Built once: every record asks for the defaults.
        put(self, "_defaults", {key: v.default for key, v in self.variants.items()})

    def variant_defaults(self) -> dict[str, Any]:
        """Every rule option at its default; a fresh copy, lists included."""
        values = dict(self._defaults)
        for key, value in values.items():
            if isinstance(value, list):
                values[key] = list(value)
        return values

    def variant_problems(self, variant: object) -> list[dict]:
        """The engine's errors for this ``variant`` (``[]`` when fine; None means the defaults)."""
        p = Problems()
        read_variant(self, variant, p)
        return p.errors

    def player_count_error(self, n: int) -> str | None:
        """None when ``n`` players may play, else the engine's message."""
        if n in self.player_counts:
            return None
        return player_count_message(self.name, self.player_counts, n)

    def name_in(self, language: str) -> str:
        """The name in ``language`` (a code like "zh-hant"), else in English."""
        return self.names.get(language, self.name)

    def deal_places(self, seats: list[dict]) -> list[places.SeatPlace]:
        """Each seat's place and win in one settled deal (``seats``: the result's per-seat
        objects, in the result's order); see games/places.py for the rule of each game."""
        return places.seat_places(self.placing, seats)

    def place_seats(self, seat_places: list, nets: list) -> list[places.SeatPlace]:
        """``deal_places`` from the result's per-seat ``place`` and ``net`` alone, one list
        each (None where absent): what a reader of many deals fetches."""
        return places.places_and_wins(self.placing, seat_places, nets)


# ---------------------------------------------------------------------------------------
# Rule options

def _one_of(*values: object) -> Callable[[object], bool]:
    def check(v: object) -> bool:
        return any(type(v) is type(x) and v == x for x in values)
    return check


def _in_words(values: tuple) -> str:
    """'"a", "b" or "c"': JSON values as a scorer would type them."""
    shown = [json.dumps(v) for v in values]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


def _choice(key: str, label: str, *values: object) -> Variant:
    """An option with a few allowed values; the first is the default."""
    return Variant(key, values[0], _one_of(*values), _in_words(values), label=label, kind="choice",
                   values=values)


def _flag(key: str, label: str, default: bool) -> Variant:
    return Variant(key, default, _one_of(False, True), "true or false", label=label, kind="flag")


def _whole(key: str, label: str, default: int, low: int, high: int) -> Variant:
    return Variant(key, default, lambda v: is_int(v) and low <= v <= high,
                   f"a whole number from {low} to {high}", label=label, kind="whole", low=low, high=high)


def _options(*variants: Variant) -> Mapping[str, Variant]:
    return {v.key: v for v in variants}


#: CG-9 variant, the same in every connecting game.
_VOLUNTARY_PASS = _flag("voluntary_pass", "A player may pass at any time", False)

#: DL-2: one stake per group.
_DA_LING_STAKES = [3, 7, 15]
#: A guard against absurd input, not a table limit.
_MAX_STAKE = 1_000_000


def _da_ling_stakes(v: object) -> bool:
    return (isinstance(v, list) and len(v) == len(da_ling.GROUP_SIZES)
            and all(is_int(x) and 0 < x <= _MAX_STAKE for x in v))


# ---------------------------------------------------------------------------------------
# The deal form (entry.py)

#: Levels of detail the deal form offers for connecting games.
_FORM_LEVELS = (("points", gettext_noop("Points")), ("unplayed_tiles", gettext_noop("Unplayed tiles")),
                ("moves", gettext_noop("Full move log")))


def _connecting_entry(key: str, name: str, *more: Input, levels: tuple = ()) -> Entry:
    required = key in connecting.UNPLAYED_REQUIRED
    return Entry(levels=_FORM_LEVELS + levels, inputs=(
        SeatChoice("leader", gettext_noop("Led by"), what=gettext_noop("the seat that led")),
        Numbers("points", gettext_noop("Points"), fills="points", minimum=0, level="points",
                missing=gettext_noop("Enter the points (0 for a seat that played out).")),
        Numbers("unplayed", gettext_noop("Tiles left *") if required else gettext_noop("Tiles left"), fills="unplayed", minimum=0,
                level="points", together=True, optional=not required,
                missing=gettext_noop("Give every seat's count of unplayed tiles, or none."),
                none_given=f"{name} needs each seat's count of unplayed tiles." if required else ""),
        Tiles("tiles", gettext_noop("Unplayed tiles"), fills="unplayed_tiles", per_seat=True, level="unplayed_tiles",
              placeholder=gettext_noop("none: played out")),
        Moves("moves", gettext_noop("Moves, in turn from the leader"), fills="moves", level="moves",
              placeholder=gettext_noop("e.g. 6:4 6:4@6 x3:1 4:4@4")),
        # A deal that stopped early (a block, a smothered SuanZhang) leaves tiles in hand.
        Tiles("left", gettext_noop("Left in hand (deal stopped early)"), fills="left_in_hand", per_seat=True, level="moves",
              placeholder=gettext_noop("none"), omit_empty=True),
        *more,
    ))


#: Tau Ngau's and Da Ling's levels (§3, §3b, §4, §4b): the full one first, by default.
_TAU_NGAU_LEVELS = tuple(zip(tau_ngau.LEVELS, (gettext_noop("Hands"), gettext_noop("Values only")), strict=True))
_DA_LING_LEVELS = tuple(zip(da_ling.LEVELS, (gettext_noop("Groups"), gettext_noop("Winners only")), strict=True))


# ---------------------------------------------------------------------------------------
# The games

_CONNECTING_FIELDS = ("points", "unplayed", "unplayed_tiles", "moves", "left_in_hand")
_CONNECTING_PER_SEAT = ("points", "unplayed", "unplayed_tiles", "left_in_hand")


def _connecting_game(key: str, name: str, *, names: Mapping[str, str], blurb: str, evaluator: Callable,
                     variants: Mapping[str, Variant], fields: tuple[str, ...] = (),
                     per_seat_fields: tuple[str, ...] = (), seat_object_fields: tuple[str, ...] = (),
                     inputs: tuple[Input, ...] = (), levels: tuple = (),
                     arms: Callable[[dict], int] = lambda variant: 1) -> Game:
    """A layout game (RULES.md §2): led by a seat, read at one of three levels."""
    return Game(
        key=key, name=name, names=names, blurb=blurb,
        player_counts=tuple(sorted(CONNECTING_DEALS[key])),
        connecting=True, has_leader=True, has_banker=False,
        fields=_CONNECTING_FIELDS + fields,
        per_seat_fields=_CONNECTING_PER_SEAT + per_seat_fields,
        seat_object_fields=seat_object_fields,
        variants=variants, evaluator=evaluator,
        entry=_connecting_entry(key, name, *inputs, levels=levels),
        placing=places.ENGINE,  # CG-14, DN-5: the engine places every seat
        deals=MappingProxyType(dict(CONNECTING_DEALS[key])),
        arms=arms,
    )


JIE_LONG = _connecting_game(
    "jie_long", "Jie Long",
    names={"zh-hans": "接龙", "zh-hant": "接龍", "ko": "接龍"},
    blurb=gettext_noop("Connect the dragon: 2–4 players lay tiles on one open end; fewest pips left wins, "
          "and every pair settles the difference."),
    evaluator=jie_long.evaluate_jie_long,
    variants=_options(_VOLUNTARY_PASS, _choice("arms", "Open ends of the layout", 1, 2), _choice("settlement", "Settlement", "difference", "chip")),
    arms=lambda variant: variant.get("arms", 1),  # JL-2
)

CE_DENG = _connecting_game(
    "ce_deng", "Ce Deng",
    # The sources' own characters: 料釘 (seed and RULES.md §4), 斜钉 (RULES.md §4).
    names={"zh-hans": "斜钉", "zh-hant": "料釘", "ko": "料釘"},
    blurb=gettext_noop("Four players, a Head and three Tails; clean hands double their takings, "
          "stuck hands are penalised."),
    evaluator=ce_deng.evaluate_ce_deng,
    variants=_options(_VOLUNTARY_PASS, _choice("head_tail", "Penalty at Head/Tail unplayed", "7/8", "6/7"), _choice("multiplier", "Multiplier", "pair", "payer"),
                      _whole("redeal_doubles", "Doubles in one hand that force a redeal", 7, 5, 8)),
    fields=("redeal", "hands"),  # a redeal record lists the dealt hands (CD-2)
    per_seat_fields=("hands",),
    # CD-2: a void deal is recorded with the hands as dealt, instead of any level of play.
    levels=(("redeal", gettext_noop("Redeal (7+ doubles)")),),
    inputs=(Mark("redeal", fills="redeal", level="redeal"),
            Tiles("hand", gettext_noop("Hand as dealt (8 tiles)"), fills="hands", per_seat=True, level="redeal",
                  count=CONNECTING_DEALS["ce_deng"][4][1])),
)

KKO_LI = _connecting_game(
    "kko_li_but_i_gi", "Kko-li-but-i-gi",
    # A Korean game: the sources give no Chinese name, so Chinese pages show the Korean one.
    names={"ko": "꼬리붙이기", "zh-hans": "꼬리붙이기", "zh-hant": "꼬리붙이기"},
    blurb=gettext_noop("The Korean tails game: the highest hand, and anyone over 30, pays the winner."),
    evaluator=kko_li_but_i_gi.evaluate_kko_li,
    variants=_options(_VOLUNTARY_PASS, _choice("settlement", "Settlement", "highest_over_30", "chip", "points"),
                      _flag("over_30_only_with_four", "Over 30 pays only in four-player deals", False)),
)

DING_NIU = _connecting_game(
    "ding_niu", "Ding Niu",
    names={"zh-hans": "顶牛", "zh-hant": "頂牛", "ko": "頂牛"},
    blurb=gettext_noop("Bull fight with the 24-tile deck on two arms; the winner takes 6 chips, and a "
          "SuanZhang block changes who pays."),
    evaluator=ding_niu.evaluate,
    variants=_options(_VOLUNTARY_PASS, _flag("blame_needs_choice", "SuanZhang blame needs a choice", True)),
    fields=("suanzhang",),
    seat_object_fields=("suanzhang",),
    inputs=(SeatChoice("suanzhang", gettext_noop("SuanZhang (blocked the layout)"), what=gettext_noop("the seat that blocked"),
                       blank=gettext_noop("— none —")),),
    arms=lambda variant: 2,  # CG-7
)

TAU_NGAU = Game(
    key="tau_ngau", name="Tau Ngau",
    # Korean pages: the Chinese names in Hanja; 鬪 is the Korean form of 鬥 (the Korean PDF font has it).
    names={"zh-hans": "斗牛", "zh-hant": "鬥牛", "ko": "鬪牛"},
    blurb=gettext_noop("Find three tiles making 10, 20 or 30; the other two decide the hand against the banker."),
    player_counts=tuple(tau_ngau.PLAYERS),
    connecting=False, has_leader=False, has_banker=True,
    fields=("banker", "stakes", "bet", "hands", "declared", "values"),
    per_seat_fields=("hands", "stakes", "declared", "values"),
    seat_object_fields=(),
    variants=_options(_choice("settlement", "Rules version", "v2", "v1"), _choice("v1_no_bull_pays", "Under v1, no bull pays", "four", "banker_value"),
                      _choice("bank_rotation", "The bank passes", "on_banker_bull", "every_round", "fixed"),
                      _flag("may_decline_bull", "A player may declare no bull while holding one", False)),
    evaluator=tau_ngau.evaluate,
    placing=places.BY_NET,  # no place in the result; each player settles with the banker (TN-V2-1)
    rating_unit=places.TABLE_SESSION,  # one deal is a bet against the banker; the session ranks
    deals=MappingProxyType({n: (CHINESE_32, tau_ngau.HAND_SIZE) for n in tau_ngau.PLAYERS}),
    entry=Entry(levels=_TAU_NGAU_LEVELS, inputs=(
        SeatChoice("banker", gettext_noop("Banker"), what=gettext_noop("the banker")),
        Tiles("hand", f"Hand ({tau_ngau.HAND_SIZE} tiles)", fills="hands", per_seat=True, level="hands",
              placeholder=gettext_noop("e.g. 6:6 4:4 6:4 5:5 3:1"), count=tau_ngau.HAND_SIZE),
        # TN-7: without a declaration the engine takes the best bull.
        Declared("bull", gettext_noop("Bull set aside (optional; - for none)"), fills="declared", chosen_from="hand",
                 count=3, placeholder=gettext_noop("e.g. 6:4 5:5 3:1"), level="hands"),
        # §3b: the value the table agreed, or no bull; the range follows the rules version (TN-5).
        SeatValue("value", gettext_noop("Value of the hand"), fills="values", none=gettext_noop("no bull"),
                  low=tau_ngau.VALUE_RANGES["v2"][0], high=tau_ngau.VALUE_RANGES["v2"][1],
                  under=(("settlement", "v1", *tau_ngau.VALUE_RANGES["v1"]),), level="values"),
        # TN-3: the banker stakes nothing; under v1 one bet (default 1) may stand for the stakes.
        Numbers("stake", gettext_noop("Stake (not the banker)"), fills="stakes", minimum=1, together=True,
                missing=gettext_noop("Enter this player's stake."), not_for="banker",
                optional_under=(("settlement", "v1"),), also=("bet",), remember=True,
                left_behind=gettext_noop("The bank has just left this seat: enter its stake.")),
    )),
)

DA_LING = Game(
    key="da_ling", name="Da Ling",
    names={"zh-hans": "打零", "zh-hant": "打零", "ko": "打零"},
    blurb=gettext_noop("Split six tiles into groups of one, two and three that hit the table's target."),
    player_counts=tuple(da_ling.PLAYERS),
    connecting=False, has_leader=False, has_banker=False,
    fields=("table", "groups", "winners"),
    per_seat_fields=("groups",),
    seat_object_fields=(),
    variants=_options(Variant("stakes", _DA_LING_STAKES, _da_ling_stakes,
                              f"three positive whole numbers, like {json.dumps(_DA_LING_STAKES)}",
                              label="Stake of each group", kind="wholes", low=1, high=_MAX_STAKE,
                              count=len(da_ling.GROUP_SIZES)),
                      _choice("absolute_tie", "A tie between absolute winners", "groups", "push"), _flag("casino_chip", "An absolute winner pays the house a chip", False)),
    evaluator=da_ling.evaluate,
    placing=places.BY_NET,  # no place in the result; each group is settled alone (DL-9)
    deals=MappingProxyType({n: (CHINESE_32, sum(da_ling.GROUP_SIZES)) for n in da_ling.PLAYERS}),
    entry=Entry(levels=_DA_LING_LEVELS, inputs=(
        # The table is optional beside the winners (§4b); the form asks for it with the groups.
        Tiles("table_tiles", f"Table tiles ({da_ling.TABLE_TILES})", fills="table", placeholder=gettext_noop("e.g. 6:6 3:2"),
              count=da_ling.TABLE_TILES, level="groups"),
        *(Tiles(f"group{g + 1}", f"{size} tile{'s' if size > 1 else ''}", fills="groups", per_seat=True, part=g,
                placeholder=example, count=size, level="groups")
          for g, (size, example) in enumerate(zip(da_ling.GROUP_SIZES, ("e.g. 4:3", gettext_noop("e.g. 6:5 5:1"),
                                                                        gettext_noop("e.g. 1:1 6:3 3:3")), strict=True))),
        # §4b: the winners the table agreed, each a seat or none.
        # DL-6, DL-9: an absolute winner takes every group, so no group has a winner of its own.
        Winner("absolute", gettext_noop("Absolute winner"), fills="winners", key="absolute",
               blank=gettext_noop("— none —"), level="winners",
               excludes=tuple(f"group{g + 1}_winner" for g in range(len(da_ling.GROUP_SIZES)))),
        *(Winner(f"group{g + 1}_winner", label, fills="winners", key="groups", part=g,
                 blank=gettext_noop("— none —"), level="winners", excludes=("absolute",))
          for g, label in enumerate((gettext_noop("Winner of the 1-tile group"), gettext_noop("Winner of the 2-tile group"),
                                     gettext_noop("Winner of the 3-tile group")))),
    )),
)

#: Every game by key, in the order the rules list them.
CATALOG: Mapping[str, Game] = MappingProxyType(
    {g.key: g for g in (JIE_LONG, CE_DENG, KKO_LI, DING_NIU, TAU_NGAU, DA_LING)})


#: The most seats any game has: the most places a deal can give.
MAX_PLAYERS: int = max(max(g.player_counts) for g in CATALOG.values())


def get_game(key: str) -> Game:
    """The game with this key; KeyError when there is none."""
    return CATALOG[key]


# ---------------------------------------------------------------------------------------
# The older names, derived from the catalog, until scoring/ reads the catalog itself.

GAMES: tuple[str, ...] = tuple(CATALOG)
CONNECTING_GAMES: tuple[str, ...] = tuple(key for key, g in CATALOG.items() if g.connecting)
GAME_NAMES: dict[str, str] = {key: g.name for key, g in CATALOG.items()}
#: game -> option -> (default, check, allowed in words)
VARIANTS: dict[str, dict[str, tuple[Any, Callable[[object], bool], str]]] = {
    key: {v.key: (v.default, v.check, v.allowed) for v in g.variants.values()} for key, g in CATALOG.items()}


def variant_defaults(game: str) -> dict[str, Any]:
    return CATALOG[game].variant_defaults()


__all__ = ["Game", "Variant", "CATALOG", "MAX_PLAYERS", "get_game",
           "GAMES", "CONNECTING_GAMES", "GAME_NAMES", "VARIANTS", "variant_defaults"]
