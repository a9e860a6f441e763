"""`python -m games evaluate FILE|-` (ROUND_RECORD.md §7): one result per record, in the shape
of the input; exit 0 when all are ok, 1 when any is not, 2 when the input cannot be read."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "examples"
JIE_LONG = {"game": "jie_long", "seats": ["Anna", "Bob", "Celine", "Dominic"], "points": [2, 12, 34, 18]}
BAD = {"game": "jie_long", "seats": ["Anna", "Bob"], "unplayed_tiles": [["7:1"], []]}


def run(args: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(args, out=out, err=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def test_a_single_record_prints_a_single_object(tmp_path):
    f = tmp_path / "deal.json"
    f.write_text(json.dumps(JIE_LONG))
    code, out, _ = run(["evaluate", str(f)])
    assert code == 0
    result = json.loads(out)
    assert result["ok"] is True and [s["net"] for s in result["seats"]] == [58, 18, -70, -6]


def test_an_array_prints_an_array_in_order_and_exit_1_when_any_is_bad(tmp_path):
    f = tmp_path / "deals.json"
    f.write_text(json.dumps([JIE_LONG, BAD, JIE_LONG]))
    code, out, _ = run(["evaluate", str(f)])
    assert code == 1
    assert [r["ok"] for r in json.loads(out)] == [True, False, True]


def test_json_lines_by_file_name(tmp_path):
    f = tmp_path / "deals.jsonl"
    f.write_text(json.dumps(JIE_LONG) + "\n" + json.dumps(JIE_LONG) + "\n")
    code, out, _ = run(["evaluate", str(f)])
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2 and all(json.loads(line)["ok"] for line in lines)


def test_json_lines_on_standard_input(tmp_path):
    code, out, _ = run(["evaluate", "-"], stdin=json.dumps(JIE_LONG) + "\n" + json.dumps(BAD) + "\n")
    assert code == 1
    assert [json.loads(line)["ok"] for line in out.splitlines()] == [True, False]


def test_a_bad_line_in_json_lines_is_one_bad_result(tmp_path):
    f = tmp_path / "deals.jsonl"
    f.write_text(json.dumps(JIE_LONG) + "\n{oops\n")
    code, out, _ = run(["evaluate", str(f)])
    assert code == 1
    second = json.loads(out.splitlines()[1])
    assert second["ok"] is False and second["errors"][0]["code"] == "bad_json"


def test_errors_carry_paths():
    code, out, _ = run(["evaluate", "-"], stdin=json.dumps(BAD))
    assert code == 1
    result = json.loads(out)
    assert "unplayed_tiles[0][0]" in [e["path"] for e in result["errors"]]


@pytest.mark.parametrize("text", ["", "{not json", "[1, 2", "\x00\x01"])
def test_unreadable_input_exits_2(text):
    code, out, err = run(["evaluate", "-"], stdin=text)
    assert code == 2 and out == "" and "cannot read" in err


def test_a_missing_file_exits_2(tmp_path):
    code, _, err = run(["evaluate", str(tmp_path / "nope.json")])
    assert code == 2 and "cannot read" in err


def test_deeply_nested_input_is_refused_not_crashed():
    code, _, _ = run(["evaluate", "-"], stdin="[" * 100_000 + "]" * 100_000)
    assert code == 2


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_every_example_through_the_real_command(path, tmp_path):
    """The installed entry point, as a scorer's laptop would run it, on each worked example."""
    example = json.loads(path.read_text())
    f = tmp_path / "record.json"
    f.write_text(json.dumps(example["record"]))
    proc = subprocess.run([sys.executable, "-m", "games", "evaluate", str(f)], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    result = json.loads(proc.stdout)
    expected_ok = example["expected"].get("ok", True)
    assert result["ok"] is expected_ok
    assert proc.returncode == (0 if expected_ok else 1)
    if not expected_ok:
        assert example["expected"]["error_path"] in [e["path"] for e in result["errors"]]
    for seat in example["expected"].get("seats", []):
        got = next(s for s in result["seats"] if s["name"] == seat["name"])
        if "net" in seat:
            assert got["net"] == seat["net"]


@pytest.mark.parametrize("game, level, field", [("tau_ngau", "values", "values"), ("da_ling", "winners", "winners")])
def test_simulate_offers_the_quick_levels(game, level, field):
    code, out, _ = run(["simulate", game, "--level", level, "--deals", "3", "--seed", "4"])
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) == 3 and all(field in r for r in records)
    code, out, _ = run(["evaluate", "-"], stdin=out)
    assert code == 0
    assert all(r["ok"] and [w["code"] for w in r["warnings"]] == ["unverified"] for r in map(json.loads, out.splitlines()))
    other = "winners" if level == "values" else "values"
    code, _, err = run(["simulate", game, "--level", other])
    assert code == 2 and "level" in err
