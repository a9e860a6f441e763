"""Every worked example of tests/examples, recorded through the services at a real table, with
every possible leader: the record the engine sees must be the example (seats in playing order),
the result the engine's own, the nets by table position the example's, and the errors of the
invalid examples must point into the body."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import games
from scoring.domain.errors import ValidationFailed
from scoring.selectors.rounds import round_detail
from scoring.services.rounds import round_record
from scoring.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.json"))
#: The connecting games' per-seat lists, which a leader rotates (stated here, independently of the code).
PER_SEAT = ("points", "unplayed", "unplayed_tiles", "left_in_hand", "hands")


def _load(path):
    return json.loads(path.read_text())


def _cases(valid: bool):
    for path in EXAMPLES:
        ex = _load(path)
        record = ex["record"]
        if (ex["expected"].get("ok", True) is not False) != valid or "arm" in (record.get("variant") or {}):
            continue
        n = len(record["seats"])
        leaders = range(n) if record["game"] in games.CONNECTING_GAMES else [None]
        for k in leaders:
            yield pytest.param(ex, k, id=f"{path.stem}-leader{k}")


def _table_and_body(make_setup, record, k):
    """A table seating the example's players so that, with leader k, playing order is the
    example's; and the body (by table position) that says the same deal."""
    n = len(record["seats"])
    game = record["game"]
    content = {key: v for key, v in record.items() if key not in ("game", "variant", "seats")}
    if k is None:
        return make_setup(game, names=list(record["seats"]), variant=record.get("variant")), content
    names = [record["seats"][(p - k) % n] for p in range(n)]
    body = {"leader": k}
    for key, value in content.items():
        if key in PER_SEAT and isinstance(value, list) and len(value) == n:
            body[key] = [value[(p - k) % n] for p in range(n)]
        elif key == "suanzhang" and isinstance(value, dict) and isinstance(value.get("seat"), int):
            body[key] = {**value, "seat": (value["seat"] + k) % n}
        else:
            body[key] = value
    return make_setup(game, names=names, variant=record.get("variant")), body


@pytest.mark.parametrize("example,leader", list(_cases(valid=True)))
def test_examples_round_trip_through_the_services(make_setup, example, leader):
    record = example["record"]
    setup, body = _table_and_body(make_setup, record, leader)
    rnd = round_record(actor=setup.scorer_actor, table=setup.table, body=body)
    rev = rnd.current_revision
    full = {**record, "variant": setup.tournament.variant}
    assert rev.record == {"game": full["game"], "variant": full["variant"], "seats": record["seats"],
                          **{k: v for k, v in record.items() if k not in ("game", "variant", "seats")}}
    assert rev.result == games.evaluate(full)
    n = len(record["seats"])
    by_name = {p["name"]: p for p in round_detail(rnd)["players"]}
    for i, seat in enumerate(rev.result["seats"]):
        player = by_name[record["seats"][i]]
        assert player["net"] == seat["net"]
        assert player["position"] == (i if leader is None else (i + leader) % n)
    for pinned in example["expected"].get("seats", []):
        if "net" in pinned:
            assert by_name[pinned["name"]]["net"] == pinned["net"]
    if record["game"] in games.CONNECTING_GAMES and rev.result.get("next_leader") is not None:
        assert rnd.next_leader == (rev.result["next_leader"] + leader) % n
    if record["game"] == "tau_ngau":
        assert rnd.banker == record["banker"] and rnd.next_banker == rev.result["next_banker"]


@pytest.mark.parametrize("example,leader", list(_cases(valid=False)))
def test_invalid_examples_point_into_the_body(make_setup, example, leader):
    record = example["record"]
    setup, body = _table_and_body(make_setup, record, leader)
    with pytest.raises(ValidationFailed) as e:
        round_record(actor=setup.scorer_actor, table=setup.table, body=body)
    expected = example["expected"]["error_path"]
    m = re.match(r"^([a-z_]+)\[(\d+)\](.*)$", expected)
    if leader is not None and m and m.group(1) in PER_SEAT:
        expected = f"{m.group(1)}[{(int(m.group(2)) + leader) % len(record['seats'])}]{m.group(3)}"
    assert expected in [x["path"] for x in e.value.errors]


def test_invalid_variant_example_is_refused_at_tournament_creation(club, director_actor):
    ex = _load(next(p for p in EXAMPLES if p.stem == "invalid-unknown-variant"))
    with pytest.raises(ValidationFailed) as e:
        tournament_create(actor=director_actor, club=club, name="X", game=ex["record"]["game"],
                                   variant=ex["record"]["variant"])
    assert e.value.errors[0]["path"] == "variant.arm"
