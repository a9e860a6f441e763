"""The catalog (games/catalog.py): each game's description agrees with what the engine does,
and the older names are derived from it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import games
from games import CATALOG, Game, evaluate, get_game
from games.decks import CONNECTING_DEALS
from games.engine import EVALUATORS
from games.entry import Declared, Mark, Moves, Numbers, SeatChoice, SeatValue, Tiles, Winner
from games.record import COMMON_FIELDS
from games.simulate import simulate

ORDER = ["jie_long", "ce_deng", "kko_li_but_i_gi", "ding_niu", "tau_ngau", "da_ling"]
GAMES_DIR = Path(games.__file__).parent


def sample(game: str, players: int = 4, **kw) -> dict:
    return next(simulate(game, deals=1, seed=3, players=players, **kw))


def errors_at(record: dict, path: str) -> list[dict]:
    result = evaluate(record)
    return [e for e in result.get("errors", []) if e["path"] == path]


# ---------------------------------------------------------------------------------------
# Keys, order, names

def test_catalog_order_and_lookup():
    assert list(CATALOG) == ORDER
    assert all(isinstance(g, Game) and g.key == key for key, g in CATALOG.items())
    assert get_game("ding_niu") is CATALOG["ding_niu"]
    with pytest.raises(KeyError):
        get_game("chess")


def test_a_game_is_frozen():
    with pytest.raises(AttributeError):
        get_game("ding_niu").name = "Bull"  # type: ignore[misc]
    with pytest.raises(TypeError):
        get_game("ding_niu").names["en"] = "Bull"  # type: ignore[index]


@pytest.mark.parametrize("key", ORDER)
def test_names_in_english_both_chinese_scripts_and_korean(key):
    game = get_game(key)
    assert game.names["en"] == game.name
    for language in ("en", "zh-hans", "zh-hant", "ko"):
        assert game.names[language].strip()
        assert game.name_in(language) == game.names[language]
    assert game.name_in("fr") == game.name


def test_names_as_the_sources_write_them():
    assert get_game("ding_niu").names["zh-hant"] == "頂牛"
    assert get_game("tau_ngau").names["zh-hant"] == "鬥牛"
    assert get_game("jie_long").names["zh-hant"] == "接龍"
    assert get_game("da_ling").names["zh-hant"] == "打零"
    assert get_game("kko_li_but_i_gi").name_in("ko") == "꼬리붙이기"
    # Korean pages: the Chinese games in Hanja, 鬪 being the Korean form of 鬥.
    assert [get_game(k).names["ko"] for k in ("jie_long", "ce_deng", "ding_niu", "tau_ngau", "da_ling")] == [
        "接龍", "料釘", "頂牛", "鬪牛", "打零"]


def test_blurbs_are_one_sentence_each():
    for game in CATALOG.values():
        assert game.blurb.endswith(".") and "\n" not in game.blurb


# ---------------------------------------------------------------------------------------
# The older names are derived, not kept apart

def test_older_names_come_from_the_catalog():
    import games.catalog

    assert games.GAMES == tuple(ORDER)
    assert games.CONNECTING_GAMES == tuple(k for k, g in CATALOG.items() if g.connecting)
    assert games.GAME_NAMES == {k: g.name for k, g in CATALOG.items()}
    for name in ("GAMES", "CONNECTING_GAMES", "GAME_NAMES", "VARIANTS", "variant_defaults"):
        assert getattr(games.catalog, name) is getattr(games, name)
    for key, game in CATALOG.items():
        assert list(games.VARIANTS[key]) == list(game.variants)
        for option, (default, check, allowed) in games.VARIANTS[key].items():
            v = game.variants[option]
            assert (default, check, allowed) == (v.default, v.check, v.allowed)
        assert games.variant_defaults(key) == game.variant_defaults()


def test_the_engine_dispatches_through_the_catalog():
    assert EVALUATORS == {k: g.evaluator for k, g in CATALOG.items()}


# ---------------------------------------------------------------------------------------
# Rule options

@pytest.mark.parametrize("key", ORDER)
def test_the_defaults_evaluate_a_sample_as_no_variant_does(key):
    game = get_game(key)
    record = sample(key)
    record.pop("variant", None)
    plain = evaluate(record)
    assert plain["ok"], plain
    assert evaluate({**record, "variant": game.variant_defaults()}) == plain
    assert game.variant_problems(game.variant_defaults()) == []


def test_variant_defaults_are_fresh_copies():
    game = get_game("da_ling")
    game.variant_defaults()["stakes"].append(99)
    assert game.variant_defaults() == {"stakes": [3, 7, 15], "absolute_tie": "groups", "casino_chip": False}


@pytest.mark.parametrize("key", ORDER)
def test_variant_problems_are_the_engines_variant_errors(key):
    game = get_game(key)
    record = sample(key)
    bad = {option: "surely not" for option in game.variants}
    bad["no_such_rule"] = True
    found = game.variant_problems(bad)
    assert [(e["path"], e["code"]) for e in found] == (
        [(f"variant.{option}", "bad_variant") for option in game.variants]
        + [("variant.no_such_rule", "unknown_variant")])
    engine = [e for e in evaluate({**record, "variant": bad})["errors"] if e["path"].startswith("variant")]
    assert engine == found


def test_variant_problems_messages_and_shapes():
    tau_ngau = get_game("tau_ngau")
    assert tau_ngau.variant_problems({"settlement": "v3"}) == [
        {"path": "variant.settlement", "code": "bad_variant", "message": 'settlement must be "v2" or "v1".'}]
    assert tau_ngau.variant_problems({"settlement": "v1"}) == []
    assert tau_ngau.variant_problems(None) == []  # no variant: the defaults
    for not_an_object in ([], "v1", 3):
        assert [(e["path"], e["code"]) for e in tau_ngau.variant_problems(not_an_object)] == [("variant", "bad_type")]
    assert get_game("ce_deng").variant_problems({"redeal_doubles": 9})[0]["message"] == \
        "redeal_doubles must be a whole number from 5 to 8."


# ---------------------------------------------------------------------------------------
# Player counts

@pytest.mark.parametrize("key", ORDER)
def test_player_count_error_is_the_engines_message(key):
    game = get_game(key)
    record = sample(key)
    for n in range(0, 9):
        found = [e for e in errors_at({**record, "seats": [f"P{i}" for i in range(n)]}, "seats")
                 if e["code"] == "wrong_player_count"]
        if n in game.player_counts:
            assert game.player_count_error(n) is None and not found
        else:
            assert [e["message"] for e in found] == [game.player_count_error(n)]


@pytest.mark.parametrize("key", ORDER)
def test_every_allowed_count_plays(key):
    game = get_game(key)
    assert list(game.player_counts) == sorted(set(game.player_counts))
    for n in game.player_counts:
        assert all(evaluate(r)["ok"] for r in simulate(key, deals=2, seed=n, players=n))


def test_player_counts_are_the_deal_table():
    for key, game in CATALOG.items():
        if game.connecting:
            assert game.player_counts == tuple(sorted(CONNECTING_DEALS[key]))
    assert get_game("tau_ngau").player_counts == (3, 4, 5, 6)
    assert get_game("da_ling").player_counts == (2, 3, 4, 5)
    assert get_game("ding_niu").player_count_error(3) == "Ding Niu is played by exactly 4 players, not 3."
    assert get_game("jie_long").player_count_error(5) == "Jie Long is played by 2 to 4 players, not 5."


# ---------------------------------------------------------------------------------------
# Record fields

def record_holding(key: str, field: str) -> dict:
    """A valid four-seat record of the game that holds ``field``."""
    game = get_game(key)
    for seed in range(200):
        if game.connecting:
            if field == "hands":  # Ce Deng: only a redeal lists the hands
                record = next(simulate(key, deals=1, seed=seed, variant={"redeal_doubles": 5}))
                record.pop("variant")
            elif field in ("points", "unplayed"):
                tiles = next(simulate(key, deals=1, seed=seed, level="unplayed_tiles"))["unplayed_tiles"]
                record = {**next(simulate(key, deals=1, seed=seed, level="points")),
                          "points": [sum(int(a) + int(b) for a, _, b in ts) for ts in tiles],
                          "unplayed": [len(ts) for ts in tiles]}
            elif field == "unplayed_tiles":
                record = next(simulate(key, deals=1, seed=seed, level="unplayed_tiles"))
            else:
                record = next(simulate(key, deals=1, seed=seed, level="moves"))
                record.setdefault("left_in_hand", [[] for _ in record["seats"]])
        else:
            # A quick level's field (values, winners) is only in a quick record.
            level = next((lv for lv, _label in game.entry.levels if lv == field), "moves")
            record = next(simulate(key, deals=1, seed=seed, level=level))
            if field == "declared":
                record["declared"] = [None] * len(record["seats"])
        if field in record and evaluate(record)["ok"]:
            return record
    raise AssertionError(f"no sample {key} record holds {field}")


PER_SEAT = [(key, f) for key, g in CATALOG.items() for f in g.per_seat_fields]


@pytest.mark.parametrize("key, field", PER_SEAT)
def test_per_seat_fields_need_one_item_per_seat(key, field):
    record = record_holding(key, field)
    n = len(record["seats"])
    longer = {**record, field: record[field] + record[field][:1]}
    found = errors_at(longer, field)
    assert found and found[0]["code"] == "wrong_count" and f"must have {n} " in found[0]["message"], found


@pytest.mark.parametrize("key", ORDER)
def test_other_fields_are_not_per_seat(key):
    game = get_game(key)
    record = sample(key)
    n = len(record["seats"])
    for field in game.fields:
        if field in game.per_seat_fields:
            continue
        found = errors_at({**record, field: [None] * (n + 1)}, field)
        assert not any(f"must have {n} " in e["message"] for e in found), (field, found)


@pytest.mark.parametrize("key", ORDER)
def test_fields_are_the_top_level_fields_the_engine_takes(key):
    game = get_game(key)
    assert set(game.per_seat_fields) <= set(game.fields)
    assert set(game.seat_object_fields) <= set(game.fields)
    assert not set(game.fields) & set(COMMON_FIELDS)
    record = sample(key)
    for field in game.fields:  # known: maybe wrong, never unknown
        assert not [e for e in errors_at({**record, field: None}, field) if e["code"] == "unknown_field"]
    for other in {f for g in CATALOG.values() for f in g.fields} - set(game.fields):
        assert [e["code"] for e in errors_at({**record, other: None}, other)] == ["unknown_field"]


def test_seat_object_fields_name_a_seat():
    record = record_holding("ding_niu", "points")
    for field in get_game("ding_niu").seat_object_fields:
        assert errors_at({**record, field: {"seat": 9}}, f"{field}.seat")
        assert evaluate({**record, field: {"seat": 1}})["ok"]


def test_leader_and_banker():
    for game in CATALOG.values():
        assert game.has_leader == game.connecting
        assert game.has_banker == ("banker" in game.fields)


# ---------------------------------------------------------------------------------------
# The deal form's description

@pytest.mark.parametrize("key", ORDER)
def test_entry_inputs_fill_the_games_fields(key):
    game = get_game(key)
    entry = game.entry
    names = [inp.name for inp in entry.inputs]
    assert len(names) == len(set(names))
    for inp in entry.inputs:
        assert isinstance(inp, (SeatChoice, Tiles, Numbers, Declared, SeatValue, Winner, Moves, Mark))
        if inp.per_seat:
            assert inp.fills in game.per_seat_fields
        elif inp.fills == "leader":
            assert game.has_leader
        else:
            assert inp.fills in game.fields
        assert set(inp.also) <= set(game.fields)
        assert inp.level is None or inp.level in dict(entry.levels)
        if isinstance(inp, Numbers):
            assert not inp.not_for or inp.not_for in names
            for option, value in inp.optional_under:
                assert game.variants[option].check(value)
    # Every game has levels now: Tau Ngau and Da Ling their full and quick ones (§3b, §4b).
    assert entry.levels
    for level, _label in entry.levels:
        assert level in game.fields  # a level is named after the record field that holds it
    if not game.connecting:
        assert len(entry.levels) == 2
        assert {inp.level for inp in entry.inputs} - {None} == set(dict(entry.levels))


def test_ce_deng_form_needs_the_unplayed_counts_as_the_engine_does():
    def unplayed(key):
        return next(inp for inp in get_game(key).entry.inputs if inp.name == "unplayed")

    assert not unplayed("ce_deng").optional and unplayed("jie_long").optional
    record = record_holding("ce_deng", "unplayed")
    del record["unplayed"]
    assert [e["code"] for e in errors_at(record, "unplayed")] == ["missing_field"]


# ---------------------------------------------------------------------------------------
# No Django in the engine

def test_games_imports_no_django():
    code = ("import sys, games, games.cli, games.simulate, games.samples, games.catalog, games.entry; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'scoring', 'rest_framework')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=GAMES_DIR.parent)
    assert out.stdout.strip() == "[]"


def test_no_games_module_names_django():
    for path in GAMES_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                roots = [(node.module or "").split(".")[0]]
            else:
                continue
            assert not set(roots) & {"django", "scoring", "rest_framework", "gupai_site"}, path.name


@pytest.mark.parametrize("module", ["games.record", "games.connecting", "games.catalog", "games.engine",
                                    "games.simulate", "games.jie_long", "games.ce_deng", "games.kko_li_but_i_gi",
                                    "games.tau_ngau", "games.da_ling", "games.ding_niu"])
def test_any_module_imports_first(module):
    """No import cycle: whichever module a program imports first, the package loads."""
    code = f"import {module}, games; assert games.evaluate({{'game': 'x'}})['ok'] is False"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=GAMES_DIR.parent)


def test_inputs_that_exclude_each_other_name_inputs_of_their_game_both_ways():
    for game in CATALOG.values():
        inputs = {inp.name: inp for inp in game.entry.inputs} if game.entry else {}
        for inp in inputs.values():
            for other in getattr(inp, "excludes", ()):
                assert isinstance(inputs[other], Winner) and inp.name in inputs[other].excludes
    assert len(CATALOG["da_ling"].entry.inputs[-4].excludes) == 3
