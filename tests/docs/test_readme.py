"""The README stays a front page: at most 8 kB, the two commands within its first 60 lines, then a
club night and how to create a director; the rest is in docs/."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def test_the_readme_is_at_most_8_kb():
    size = README.stat().st_size
    assert size <= 8192, f"README.md is {size} bytes: move the detail to docs/ (at most 8192)"


def test_the_two_commands_come_within_the_first_60_lines():
    head = README.read_text(encoding="utf-8").splitlines()[:60]
    for command in ("make run", "make test"):
        assert any(line.startswith(command + " ") or line == command for line in head), \
            f"`{command}` is not a command line within README.md's first 60 lines"


def test_then_a_club_night_and_a_director_then_the_map_of_docs():
    headings = [line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith("## ")]
    assert headings == ["## Two commands", "## Run a club night", "## Create a director", "## Documentation"]
