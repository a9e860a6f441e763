# TEMPORARY until games.catalog lands: the same interface, from today's constants.
from types import SimpleNamespace

import games

_PER = {"jie_long": ("points", "unplayed", "unplayed_tiles", "left_in_hand"),
        "kko_li_but_i_gi": ("points", "unplayed", "unplayed_tiles", "left_in_hand"),
        "ce_deng": ("points", "unplayed", "unplayed_tiles", "left_in_hand", "hands"),
        "ding_niu": ("points", "unplayed", "unplayed_tiles", "left_in_hand"),
        "tau_ngau": ("hands", "stakes", "declared"), "da_ling": ("groups",)}
_COUNTS = {"jie_long": (2, 3, 4), "ce_deng": (4,), "kko_li_but_i_gi": (2, 3, 4), "ding_niu": (4,),
           "tau_ngau": (3, 4, 5, 6), "da_ling": (2, 3, 4, 5)}


def get_game(key):
    if key not in games.GAMES:
        raise KeyError(key)
    name = games.GAME_NAMES[key]
    counts = _COUNTS[key]

    def err(n):
        if n in counts:
            return None
        need = f"exactly {counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
        return f"{name} is played by {need} players, not {n}."

    return SimpleNamespace(key=key, name=name, connecting=key in games.CONNECTING_GAMES,
                           has_leader=key in games.CONNECTING_GAMES, has_banker=key == "tau_ngau",
                           per_seat_fields=_PER[key], seat_object_fields=("suanzhang",) if key == "ding_niu" else (),
                           player_counts=counts, player_count_error=err)
