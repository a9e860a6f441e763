"""The rules engine's error and warning messages in the page's language.

``games`` is pure Python and answers in English: ``{"path", "code", "message"}``. Its fixed
sentences are marked with ``games.words.gettext_noop``, so the site's catalogs hold them and
``gettext`` finds them as they are. Its sentences with values in them (a tile, a seat's name, a
count) are listed here as templates, the English one being the catalog's msgid: the English
message is read back through its template (the values are the parts that differ) and the
values put into the translated sentence. The engine's output is not extended with the values:
its shape is documented (``docs/errors.md``) and its results are stored in hash-chained
revisions that audits replay and compare.

Every engine code also has a general sentence (``CODES``), used when no template reads the
message (a test checks that every code in ``games/`` has one). Codes never change: clients
key on them; only ``message`` is translated, and only when the language is not English.
"""

from __future__ import annotations

import re
from functools import lru_cache

from django.utils.translation import get_language, gettext, gettext_noop

import games

#: Each engine code in a general sentence (what went wrong, without the particulars).
CODES = {
    "not_an_object": gettext_noop("A round record must be a JSON object."),
    "bad_json": gettext_noop("This line is not valid JSON."),
    "unknown_format": gettext_noop("Unknown record format."),
    "missing_field": gettext_noop("A field the record needs is missing."),
    "unknown_game": gettext_noop("Unknown game."),
    "unknown_field": gettext_noop("The record has a field this game does not know."),
    "unexpected_field": gettext_noop("This field does not belong in this record."),
    "bad_type": gettext_noop("This field has the wrong type."),
    "too_long": gettext_noop("This list is far too long."),
    "unknown_variant": gettext_noop("This game has no such rule option."),
    "bad_variant": gettext_noop("This rule option has a value it does not allow."),
    "bad_name": gettext_noop("Each seat needs a player name of at most 100 characters."),
    "duplicate_name": gettext_noop("Two seats have the same name; names must be distinct."),
    "wrong_player_count": gettext_noop("This game is not played by this many players."),
    "wrong_count": gettext_noop("This list has the wrong number of entries."),
    "bad_tile": gettext_noop("This is not a tile: write two pips from 1 to 6, like 6:4."),
    "not_in_deck": gettext_noop("This tile is not in the game's deck."),
    "too_many_copies": gettext_noop("This tile appears more often than the deck holds it."),
    "too_complex": gettext_noop("This record is nested too deeply to read."),
    "invalid": gettext_noop("This record could not be evaluated."),
    # Every game has its own levels of detail (points, hands, winners, ...): said in general.
    "missing_level": gettext_noop("Give the outcome of the deal at one level of detail."),
    "two_levels": gettext_noop("Give the outcome of the deal at one level of detail only, not two."),
    "bad_points": gettext_noop("Points are a whole number, 0 or more."),
    "bad_unplayed": gettext_noop("Unplayed tiles are a whole number, 0 or more."),
    "too_many_unplayed": gettext_noop("More unplayed tiles than the seat was dealt."),
    "impossible_points": gettext_noop("These points are not possible with this deck."),
    "empty_log": gettext_noop("The log has no moves; the leader's lead comes first."),
    "bad_move": gettext_noop("This move cannot be read."),
    "lead_is_pass": gettext_noop("The leader must start by laying a tile face up (CG-4)."),
    "bad_open": gettext_noop("The open pip of the lead must be one of its halves."),
    "not_matching": gettext_noop("The tile does not match the open end."),
    "no_such_end": gettext_noop("No open end shows this pip."),
    "ambiguous_end": gettext_noop("The tile fits both open ends; say which."),
    "after_end": gettext_noop("The deal was already over; the log must stop there."),
    "log_incomplete": gettext_noop("The log stops although the deal was not over."),
    "must_play": gettext_noop("A player who can play must play (CG-9)."),
    "redeal_deal": gettext_noop("A seat was dealt enough doubles to void the deal (CD-2): record it as a redeal."),
    "no_redeal": gettext_noop("No hand holds enough doubles, so the deal is not void (CD-2)."),
    "bad_seat": gettext_noop("This is not a seat of the table."),
    "needs_moves": gettext_noop("The move and kind of a SuanZhang can only come from the moves log; give just the seat."),
    "bad_suanzhang": gettext_noop("A SuanZhang named without the log counts as blamed; leave the field out if the "
                        "block was forced."),
    "suanzhang_mismatch": gettext_noop("The SuanZhang in the record does not agree with the log."),
    "bad_banker": gettext_noop("The banker must be one of the seats."),
    "bet_needs_v1": gettext_noop("A single bet is only for version 1; under version 2 give each player's stake."),
    "stakes_and_bet": gettext_noop("Give either one bet for everyone or each player's stake, not both."),
    "bad_stake": gettext_noop("A stake must be a whole number, 1 or more."),
    "banker_stake": gettext_noop("The banker places no stake; write null in his place."),
    "not_a_bull": gettext_noop("These tiles cannot make 10, 20 or 30, so they are not a bull."),
    "not_in_hand": gettext_noop("A declared tile is not in the seat's hand."),
    "bull_exists": gettext_noop("This hand holds a bull, so 'no bull' cannot be declared."),
    "suboptimal": gettext_noop("A better bull was possible."),
    "bad_value": gettext_noop("A value is no bull or one of the hand values of these rules."),
    "unverified": gettext_noop("The table's word is taken for this deal: the engine cannot check it."),
}

#: The engine's sentences with values, by code: ``%(name)s`` marks a value. The English text
#: must read exactly as the engine writes it (tests/gupai_site/test_i18n.py checks them
#: against the engine's answers).
TEMPLATES = {
    "two_levels": [gettext_noop("Give exactly one of points, unplayed_tiles or moves, not both %(first)s and %(second)s.")],
    "log_incomplete": [gettext_noop("The log stops after %(count)s moves, but the deal was not over (%(how)s).")],
    "no_redeal": [gettext_noop("No hand holds %(count)s or more doubles, so the deal is not void (CD-2).")],
    "impossible_points": [
        gettext_noop("Together the seats have %(total)s points, but %(game)s holds only %(whole)s pips."),
        gettext_noop("%(value)s is far more than any hand can hold."),
        gettext_noop("%(seat)s played every tile face up, so has 0 points, not %(value)s."),
        gettext_noop("%(seat)s has 1 unplayed tile, so cannot have 0 points."),
        gettext_noop("%(seat)s has %(count)s unplayed tiles, so cannot have 0 points."),
        gettext_noop("%(value)s is not possible with 1 tile of %(game)s; %(low)s or %(high)s are."),
        gettext_noop("%(value)s is not possible with 1 tile of %(game)s; %(near)s is."),
        gettext_noop("%(value)s is not possible with 1 tile of %(game)s; none are."),
        gettext_noop("%(value)s is not possible with %(count)s tiles of %(game)s; %(low)s or %(high)s are."),
        gettext_noop("%(value)s is not possible with %(count)s tiles of %(game)s; %(near)s is."),
        gettext_noop("%(value)s is not possible with %(count)s tiles of %(game)s; none are."),
        gettext_noop("%(value)s is not possible with %(game)s; %(low)s or %(high)s are."),
        gettext_noop("%(value)s is not possible with %(game)s; %(near)s is."),
        gettext_noop("%(value)s is not possible with %(game)s; none are."),
    ],
    "too_many_unplayed": [
        gettext_noop("%(seat)s led, so at most %(most)s of his %(deal)s tiles can be unplayed, not %(count)s."),
        gettext_noop("%(seat)s was dealt %(deal)s tiles, so cannot have %(count)s unplayed."),
    ],
    "wrong_count": [
        gettext_noop("%(seat)s used %(used)s tiles and kept %(kept)s, but each seat is dealt %(deal)s."),
        gettext_noop("%(seat)s was dealt only %(deal)s tiles."),
        gettext_noop("%(what)s must have %(length)s %(unit)s, not %(count)s."),
    ],
    "redeal_deal": [gettext_noop("%(seat)s was dealt %(count)s doubles, which voids the deal (CD-2); record it as a "
                       "redeal: {\"redeal\": true, \"hands\": [...]}.")],
    "suanzhang_mismatch": [
        gettext_noop("The log shows no SuanZhang, but the record names %(seat)s as blocker."),
        gettext_noop("The log shows %(shown)s, but the record says %(said)s."),
    ],
    "after_end": [gettext_noop("The deal was already over, as %(why)s; the log must stop there.")],
    "must_play": [gettext_noop("%(seat)s put [%(tile)s] face down although %(which)s fits %(ends)s; a player who can "
                     "play must play (CG-9).")],
    "no_such_end": [
        gettext_noop("The open end shows %(end)s, not %(to)s."),
        gettext_noop("No open end shows %(to)s; the open ends are %(first)s and %(second)s."),
    ],
    "not_matching": [
        gettext_noop("[%(tile)s] does not match the open end %(end)s."),
        gettext_noop("[%(tile)s] matches neither open end (%(first)s and %(second)s)."),
    ],
    "missing_field": [gettext_noop("Say which half of the lead [%(tile)s] stays open (open).")],
    "bad_open": [gettext_noop("The open pip of the lead must be one of its halves, %(first)s or %(second)s.")],
    "ambiguous_end": [gettext_noop("[%(tile)s] fits both open ends (%(first)s and %(second)s); say which with to.")],
    "wrong_player_count": [
        gettext_noop("%(game)s is played by exactly %(count)s players, not %(n)s."),
        gettext_noop("%(game)s is played by %(low)s to %(high)s players, not %(n)s."),
    ],
    "unknown_format": [gettext_noop("Record format must be %(version)s.")],
    "bad_tile": [gettext_noop("%(shown)s is not a tile: write two pips from 1 to 6, like 6:4.")],
    "bad_type": [gettext_noop("%(what)s must be a list.")],
    "too_long": [gettext_noop("%(what)s has too many entries.")],
    "unknown_game": [gettext_noop("Unknown game; it must be one of: %(games)s.")],
    "unknown_field": [gettext_noop("%(game)s records have no field '%(field)s'.")],
    "unknown_variant": [gettext_noop("'%(key)s' is not a rule option of %(game)s; the options are: %(options)s.")],
    "bad_variant": [gettext_noop("%(key)s must be %(allowed)s.")],
    "bad_name": [gettext_noop("A name has at most %(count)s characters.")],
    "not_in_deck": [gettext_noop("[%(tile)s] is not in %(deck)s.")],
    "too_many_copies": [gettext_noop("[%(tile)s] appears more often than %(deck)s holds it (%(count)s).")],
    "duplicate_name": [gettext_noop("'%(name)s' sits at two seats; names must be distinct.")],
    "bad_banker": [gettext_noop("The banker must be a seat number from 0 to %(top)s."),
                   gettext_noop("The banker must be a seat number.")],
    "bad_stake": [gettext_noop("The bet must be a whole number from 1 to %(most)s."),
                  gettext_noop("A stake must be a whole number from 1 to %(most)s.")],
    "not_a_bull": [gettext_noop("%(tiles)s cannot make 10, 20 or 30, so it is not a bull.")],
    "not_in_hand": [gettext_noop("[%(tile)s] is not in %(seat)s's hand.")],
    "suboptimal": [gettext_noop("%(seat)s declared no bull although a bull worth %(best)s was possible."),
                   gettext_noop("%(seat)s's declared bull is worth %(value)s, but %(best)s was possible.")],
    "bull_exists": [gettext_noop("%(seat)s holds a bull, so 'no bull' cannot be declared.")],
    "bad_seat": [gettext_noop("The absolute winner must be a seat number from 0 to %(top)s, or null."),
                 gettext_noop("The winner of the %(group)s must be a seat number from 0 to %(top)s, or null.")],
    "unexpected_field": [gettext_noop("With an absolute winner no group has a winner of its own: the %(group)s must "
                                      "be null.")],
}

#: English words the engine puts inside its sentences (deck names, why a deal ended, ...): each
#: value read from a message is translated when the catalogs know it.
WORDS = (
    gettext_noop("the 32-tile set"), gettext_noop("the 24-tile Ding Niu deck"), gettext_noop("the 24-tile Kko-li deck"), gettext_noop("this deck"),
    gettext_noop("every dealt tile had been used (CG-11)"), gettext_noop("a smothered SuanZhang had ended it (DN-SZ-6)"),
    gettext_noop("it"), gettext_noop("blamed"), gettext_noop("not blamed"), gettext_noop("This"), gettext_noop("this field"),
    gettext_noop("The declared list"), gettext_noop("The groups list"), gettext_noop("The hands list"), gettext_noop("The stakes list"), gettext_noop("The values list"),
    gettext_noop("The table"), gettext_noop("A declared bull"), gettext_noop("tiles"), gettext_noop("tile"), gettext_noop("entries"), gettext_noop("entry"),
    gettext_noop("1-tile group"), gettext_noop("2-tile group"), gettext_noop("3-tile group"),
)


@lru_cache(maxsize=None)
def _pattern(template: str) -> re.Pattern:
    """The English template as a regular expression, each ``%(name)s`` a named group."""
    parts = re.split(r"%\((\w+)\)s", template)
    rx = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
    return re.compile(rx, re.S)


def _value(text: str) -> str:
    """A value read from a message: a game's English name in the page's language, one of the
    engine's phrases (``WORDS``) translated, anything else (a seat's name, a tile) as it is."""
    for g in games.CATALOG.values():
        if text == g.name:
            return g.name_in(get_language() or "en")
    # Only the engine's own words: a seat named "Banker" stays "Banker".
    return gettext(text) if text in WORDS else text


def translate_message(code: str, message: str, *, sentences: dict[str, str] | None = None) -> str:
    """The engine's ``message`` (for ``code``) in the active language. ``sentences``: another
    set of codes' general sentences (an import document's), read instead of the engine's
    sentences and templates."""
    language = get_language() or "en"
    if language == "en" or language.startswith("en-") or not message:
        return message
    translated = gettext(message)
    if translated != message:
        return translated
    if sentences is None:
        for template in TEMPLATES.get(code, ()):
            match = _pattern(template).fullmatch(message)
            if match:
                return gettext(template) % {k: _value(v) for k, v in match.groupdict().items()}
    general = (CODES if sentences is None else sentences).get(code)
    return gettext(general) if general else message


def translate_problem(problem: dict) -> dict:
    """One ``{path, code, message}`` with its message translated (path and code unchanged)."""
    if not isinstance(problem, dict) or "message" not in problem:
        return problem
    return {**problem, "message": translate_message(str(problem.get("code", "")), str(problem["message"]))}


def translate_problems(problems) -> list:
    return [translate_problem(p) for p in problems or []]


def translate_result(result: dict) -> dict:
    """An engine result with its errors' and warnings' messages translated (nothing else)."""
    if not isinstance(result, dict):
        return result
    out = dict(result)
    for key in ("errors", "warnings"):
        if isinstance(out.get(key), list):
            out[key] = translate_problems(out[key])
    return out


def error_message(exc) -> str:
    """A domain error's message for a page, translated when it is the engine's (its first code)."""
    errors = getattr(exc, "errors", None) or []
    code = errors[0].get("code", "") if errors and isinstance(errors[0], dict) else ""
    return translate_message(str(code), exc.message)
