"""The house's promises, read from the code (in the spirit of Zulip's custom checks): each rule
fails with the ``file:line`` of what breaks it, so that the answer is to fix that line rather
than to list an exception here.

- No module of ``scoring`` or ``gupai_site`` is over ``MAX_LINES`` lines (``games`` is a library
  of whole games and may be longer; migrations are written by Django).
- ``scoring/services/__init__.py`` re-exports nothing: services are imported by module.
- No private name (``_name``) is imported from another project module, neither by
  ``from x import _name`` nor as ``x._name``: a name used across modules is public.
- Each package's ``__init__`` docstring names every module and subpackage in it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.architecture.tree import MODULES, ROOT, imported_from, resolve

MAX_LINES = 400


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def test_no_module_is_over_the_line_limit():
    """A module past the limit holds more than one thing: split it where its parts meet."""
    found = []
    for module, path in sorted(MODULES.items()):
        if module.split(".")[0] in ("scoring", "gupai_site"):
            count = len(path.read_text().splitlines())
            if count > MAX_LINES:
                found.append(f"{_where(path, MAX_LINES + 1)}: {count} lines (at most {MAX_LINES})")
    assert found == []


def statements_besides_the_docstring(source: str) -> list[int]:
    """The line of every statement of a module other than its docstring."""
    body = ast.parse(source).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return [node.lineno for node in body]


def test_services_re_export_nothing():
    """``from scoring.services.rounds import round_record``, never ``from scoring.services import
    …``: the package holds its docstring only, so that a service's module is where it is read."""
    path = MODULES["scoring.services"]
    assert [_where(path, line) for line in statements_besides_the_docstring(path.read_text())] == []


def test_a_re_export_from_the_services_package_is_caught():
    source = '"""Services."""\n\nfrom scoring.services.rounds import round_record\n\n__all__ = ["round_record"]\n'
    assert statements_besides_the_docstring(source) == [3, 5]


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def private_uses(module: str, source: str | None = None) -> list[tuple[int, str]]:
    """(line, what) for each private name ``module`` takes from another project module:
    ``from x import _y``, or ``x._y`` where ``x`` is a project module it imported."""
    path = MODULES.get(module, ROOT / (module.replace(".", "/") + ".py"))
    tree = ast.parse(source if source is not None else path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[tuple[int, str]] = []
    modules_bound: dict[str, str] = {}  # a local name → the project module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if resolve(alias.name):
                    local = alias.asname or alias.name.split(".")[0]
                    modules_bound[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom):
            source_module = imported_from(module, node, is_package)
            if not resolve(source_module):
                continue  # a library's private names are its own business
            for alias in node.names:
                full = f"{source_module}.{alias.name}"
                if full in MODULES:
                    modules_bound[alias.asname or alias.name] = full
                elif is_private(alias.name):
                    found.append((node.lineno, f"from {source_module} import {alias.name}"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            base = _dotted(node.value)
            if base:
                head, _, rest = base.partition(".")
                target = modules_bound.get(head, "") + (f".{rest}" if rest else "")
                if target in MODULES and target != module:
                    found.append((node.lineno, f"{target}.{node.attr}"))
    return sorted(found)


def test_no_private_name_is_taken_from_another_module():
    """A ``_name`` is its module's own: one another module needs is public (no underscore), or
    belongs where it is used."""
    found = [f"{_where(path, line)}: {what}" for module, path in sorted(MODULES.items())
             for line, what in private_uses(module)]
    assert found == []


@pytest.mark.parametrize("source, expected", [
    ("from scoring.views.scorer import _table_or_none, scorer_page", [(1, "from scoring.views.scorer import _table_or_none")]),
    ("def f():\n    from .tiles import _SPELLINGS", [(2, "from games.tiles import _SPELLINGS")]),
    ("from games import tiles\n\nx = tiles._SPELLINGS", [(3, "games.tiles._SPELLINGS")]),
    ("import games.tiles\n\nx = games.tiles._SPELLINGS", [(3, "games.tiles._SPELLINGS")]),
    ("import scoring.views.scorer as scorer\n\nscorer._table_or_none()", [(3, "scoring.views.scorer._table_or_none")]),
    ("from uvicorn_worker import UvicornWorker as _UvicornWorker", []),
    ("from games.tiles import ALL_TILES\n\nx = ALL_TILES.__len__()", []),
])
def test_a_private_import_is_caught(source, expected):
    assert private_uses("games.probe", source) == expected


def _packages() -> list[str]:
    return sorted(m for m, path in MODULES.items() if path.name == "__init__.py")


def _members(package: str) -> list[str]:
    """The modules and subpackages directly inside a package, by file name (``rounds``,
    ``gunicorn.conf``); migrations are Django's."""
    folder = MODULES[package].parent
    names = [p.name.removesuffix(".py") for p in folder.glob("*.py") if p.name != "__init__.py"]
    names += [p.name for p in folder.iterdir() if (p / "__init__.py").is_file() and p.name != "migrations"]
    return sorted(names)


def unnamed_members(docstring: str | None, members: list[str]) -> list[str]:
    """The members a package docstring does not name as a word (``rounds`` or ``rounds.py``)."""
    text = docstring or ""
    return [m for m in members if not re.search(rf"(?<!\w){re.escape(m)}(?!\w)", text)]


def test_each_package_docstring_names_its_modules():
    """Opening a package's ``__init__`` tells what each of its modules holds."""
    found = []
    for package in _packages():
        path = MODULES[package]
        docstring = ast.get_docstring(ast.parse(path.read_text()))
        found += [f"{_where(path, 1)}: no word on {name}" for name in unnamed_members(docstring, _members(package))]
    assert found == []


def test_an_unnamed_module_is_caught():
    assert unnamed_members("``rounds`` (deals), tables.py, and the seating", ["rounds", "seat", "tables"]) == ["seat"]
