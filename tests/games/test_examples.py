"""Every worked example of the spec (tests/examples/*.json) against the engine, by the
matching rules of tests/examples/README.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import evaluate

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "tests" / "examples"
SHARED = REPO.parent / "shared" / "spec" / "examples"
FILES = sorted(EXAMPLES.glob("*.json"))


def test_there_are_examples():
    assert len(FILES) >= 40


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared spec is not beside this checkout")
def test_copies_equal_the_shared_originals():
    shared = sorted(p.name for p in SHARED.iterdir() if p.is_file())
    assert sorted(p.name for p in EXAMPLES.iterdir() if p.is_file()) == shared
    for name in shared:
        assert (EXAMPLES / name).read_bytes() == (SHARED / name).read_bytes(), name


def assert_pinned(expected, actual, where: str) -> None:
    """Only what `expected` names is compared: dicts on their given keys, lists element-wise
    (same length), anything else by equality."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}: result has no '{key}'"
            assert_pinned(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{where}: expected a list, got {actual!r}"
        assert len(actual) == len(expected), f"{where}: {actual!r} != {expected!r}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            assert_pinned(e, a, f"{where}[{i}]")
    else:
        assert type(actual) is type(expected) and actual == expected, f"{where}: {actual!r} != {expected!r}"


def check_example(example: dict) -> None:
    expected = dict(example["expected"])
    result = evaluate(example["record"])
    assert isinstance(result, dict)
    if expected.get("ok") is False:
        assert result["ok"] is False, f"expected an invalid record, got {result}"
        paths = [e["path"] for e in result["errors"]]
        assert expected["error_path"] in paths, f"no error at {expected['error_path']!r}: {result['errors']}"
        return
    assert result.get("ok") is True, f"expected ok, got {result.get('errors')}"
    codes = expected.pop("warning_codes", [])
    assert {w["code"] for w in result["warnings"]} == set(codes)
    seats = expected.pop("seats", [])
    by_name = {s["name"]: s for s in result["seats"]}
    for seat in seats:
        assert seat["name"] in by_name, f"no seat named {seat['name']!r}"
        assert_pinned(seat, by_name[seat["name"]], f"seats[{seat['name']}]")
    assert_pinned(expected, result, "result")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_example(path: Path):
    check_example(json.loads(path.read_text(encoding="utf-8")))


# The matcher itself must be able to fail, or the examples prove nothing.
def _tau_ngau_example() -> dict:
    return json.loads((EXAMPLES / "tau_ngau-best-bull-v2.json").read_text(encoding="utf-8"))


def test_matcher_catches_a_wrong_net():
    example = _tau_ngau_example()
    example["expected"]["seats"][0]["net"] += 1
    with pytest.raises(AssertionError):
        check_example(example)


def test_matcher_catches_a_missing_warning():
    example = _tau_ngau_example()
    example["expected"]["warning_codes"] = ["suboptimal"]
    with pytest.raises(AssertionError):
        check_example(example)


def test_matcher_catches_a_wrong_error_path():
    example = json.loads((EXAMPLES / "invalid-wrong-count.json").read_text(encoding="utf-8"))
    example["expected"]["error_path"] = "hands[2]"
    with pytest.raises(AssertionError):
        check_example(example)


def test_matcher_compares_nested_groups_on_given_keys_only():
    example = json.loads((EXAMPLES / "da_ling-group-winners.json").read_text(encoding="utf-8"))
    check_example(example)  # the third group gives only "matches"
    example["expected"]["seats"][0]["groups"][2]["matches"] = True
    with pytest.raises(AssertionError):
        check_example(example)
