"""The relative links of markdown files: each ``[text](path)`` and ``![alt](path)``, with or
without ``#anchor``, must lead to a file or folder that exists, and an anchor into a markdown file
to one of its headings (GitHub's slugs). Links in code (spans and fenced blocks) are not links."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote

#: ``[text](target)`` or ``![alt](target)``, the text allowing one level of brackets, the target
#: optionally followed by a title.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//")


def lines_outside_code(text: str):
    """``(line number, line)`` for each line outside fenced code blocks, code spans blanked."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, CODE_SPAN.sub(lambda m: m.group(0).replace("](", "] ("), line)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text (links and code marks dropped), lowercased,
    punctuation dropped but for ``-`` (and ``_``), each space a ``-``."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    """The anchors of a markdown file's headings (a repeated heading's second is ``slug-1``, …)."""
    seen: dict[str, int] = {}
    out = set()
    for _, line in lines_outside_code(path.read_text(encoding="utf-8")):
        m = HEADING.match(line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return frozenset(out)


def links(path: Path):
    """``(line number, target)`` for each link of a markdown file."""
    for number, line in lines_outside_code(path.read_text(encoding="utf-8")):
        for m in LINK.finditer(line):
            yield number, m.group(1)


def dead_links(path: Path, root: Path) -> list[str]:
    """``file:line: why`` for each relative link of ``path`` that leads nowhere."""
    problems = []
    where = path.relative_to(root)
    for number, target in links(path):
        if EXTERNAL.match(target):
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not dest.exists():
            problems.append(f"{where}:{number}: {target}: no such file {os.path.relpath(dest, root.resolve())}")
        elif anchor and dest.suffix == ".md" and unquote(anchor) not in anchors(dest):
            problems.append(f"{where}:{number}: {target}: no heading #{anchor} in {os.path.relpath(dest, root.resolve())}")
    return problems
