"""The README and every page of docs/: each relative link leads to a file that exists, and each
``#anchor`` into a markdown file to one of its headings. The file and line of a dead link are in
the message."""

from __future__ import annotations

from pathlib import Path

import pytest

from .links import anchors, dead_links, links, slug

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_every_relative_link_of_the_readme_and_docs_leads_somewhere():
    problems = [problem for page in PAGES for problem in dead_links(page, ROOT)]
    assert not problems, "dead links:\n" + "\n".join(problems)


def test_the_readme_links_to_every_page_of_docs():
    """The README's map of docs/: each page is reachable from it (the feature pages by name)."""
    readme = ROOT / "README.md"
    linked = {(readme.parent / target.partition("#")[0]).resolve() for _, target in links(readme)}
    missing = [str(page.relative_to(ROOT)) for page in PAGES[1:] if page.resolve() not in linked]
    assert not missing, f"README.md's map of docs/ leaves out: {missing}"


@pytest.mark.parametrize(("heading", "anchor"), [
    ("Seating 10,000 entries", "seating-10000-entries"),
    ("A club night on the local network (`make club`)", "a-club-night-on-the-local-network-make-club"),
    ("`values` level (§3b)", "values-level-3b"),
    ("Club ratings at 100,000 deals: the rebuild, and a new deal readable",
     "club-ratings-at-100000-deals-the-rebuild-and-a-new-deal-readable"),
    ("The sheet, shown again while the session is open", "the-sheet-shown-again-while-the-session-is-open"),
    ("Ding Niu `suanzhang`", "ding-niu-suanzhang"),
])
def test_headings_give_githubs_anchors(heading, anchor):
    assert slug(heading) == anchor


def test_a_dead_file_or_anchor_is_caught_with_its_file_and_line(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "there.md").write_text("# There\n\n## A part, with commas\n\n## A part, with commas\n")
    page = tmp_path / "README.md"
    page.write_text("\n".join([
        "# Title",
        "[fine](docs/there.md) and ![fine](docs/there.md#a-part-with-commas) [fine](docs/there.md#a-part-with-commas-1)",
        "[gone](docs/nowhere.md)",
        "![gone](docs/nowhere.png)",
        "[bad anchor](docs/there.md#no-such-part)",
        "[here](#title) [not here](#no-title)",
        "`[in code](docs/nowhere.md)` [outside](https://example.com/nowhere) [folder](docs/)",
        "```sh",
        "[in a block](docs/nowhere.md)",
        "```",
    ]) + "\n")
    assert anchors(tmp_path / "docs" / "there.md") == {"there", "a-part-with-commas", "a-part-with-commas-1"}
    problems = dead_links(page, tmp_path)
    assert [p.split(": ", 1)[0] for p in problems] == ["README.md:3", "README.md:4", "README.md:5", "README.md:6"]
    assert "docs/nowhere.md" in problems[0] and "#no-such-part" in problems[2] and "#no-title" in problems[3]
