"""A number in request input (or in the environment) is read by ``scoring.domain.inputs`` alone
(``parse_whole_number``, ``positive_setting``): ASCII digits, a bounded length and value.

``str.isdigit`` (and ``isdecimal``/``isnumeric``) say yes to "²", "٣" and "１", which ``int``
then refuses or reads as another number: ``"²".isdigit()`` then ``int("²")`` answered 500 on the
public search and on Last-Event-ID. So, read from the code with ``ast``, in scoring/ and
gupai_site/ (migrations and the parser module aside):

- no ``.isdigit()``, ``.isdecimal()`` or ``.isnumeric()`` call at all;
- no ``int(…)`` of request input: an argument that reads ``GET``, ``POST``, ``META``, ``headers``,
  ``query_params``, ``data``, ``COOKIES``, ``environ``, ``scope`` or ``kwargs`` (a subscript, or
  ``.get``/``.getlist``/``.pop``), or a name assigned from such a read in the same function
  (directly or through other names, loop and comprehension variables included)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("scoring", "gupai_site")
PARSER = ROOT / "scoring" / "domain" / "inputs.py"

DIGIT_TESTS = {"isdigit", "isdecimal", "isnumeric"}
#: Where request input (and the environment) is found: ``request.GET``, ``self.request.headers``,
#: ``os.environ``, an ASGI ``scope``, a view's ``kwargs``, a DRF ``request.data``.
SOURCES = {"GET", "POST", "META", "headers", "query_params", "data", "COOKIES", "environ", "scope", "kwargs"}
READS = {"get", "getlist", "pop"}


def _source_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _is_read(node: ast.AST) -> bool:
    """``<source>[…]`` or ``<source>.get(…)``."""
    if isinstance(node, ast.Subscript):
        return _source_name(node.value) in SOURCES
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in READS:
        return _source_name(node.func.value) in SOURCES
    return False


def _tainted_by(expr: ast.AST, tainted: set[str]) -> bool:
    return any(_is_read(n) or isinstance(n, ast.Name) and n.id in tainted for n in ast.walk(expr))


def _targets(node: ast.AST) -> list[tuple[ast.AST, ast.AST]]:
    """(target, value) pairs a statement or comprehension binds."""
    if isinstance(node, ast.Assign):
        return [(t, node.value) for t in node.targets]
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and node.value is not None:
        return [(node.target, node.value)]
    if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        return [(node.target, node.iter)]
    return []


FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _own_nodes(scope: ast.AST):
    """The nodes of a module or function, without those of the functions inside it (each is a
    scope of its own: a ``raw`` in one function says nothing of a ``raw`` in another)."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, FUNCTIONS):
            stack.extend(ast.iter_child_nodes(node))


def _tainted_names(scope: ast.AST) -> set[str]:
    """The names in ``scope`` that hold request input, to a fixed point."""
    bindings = [(t, v) for n in _own_nodes(scope) for t, v in _targets(n)]
    tainted: set[str] = set()
    while True:
        more = {n.id for target, value in bindings if _tainted_by(value, tainted)
                for n in ast.walk(target) if isinstance(n, ast.Name)} - tainted
        if not more:
            return tainted
        tainted |= more


def problems_in(source: str, label: str) -> list[str]:
    tree = ast.parse(source)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DIGIT_TESTS:
            out.append(f"{label}:{node.lineno}: .{node.func.attr}() takes digits int() refuses or misreads "
                       f"(\"²\", \"٣\"): use scoring.domain.inputs.parse_whole_number")
    for scope in [tree] + [n for n in ast.walk(tree) if isinstance(n, FUNCTIONS)]:
        tainted = _tainted_names(scope)
        for node in _own_nodes(scope):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int"
                    and node.args and _tainted_by(node.args[0], tainted)):
                out.append(f"{label}:{node.lineno}: int() of request (or environment) input: use "
                           f"scoring.domain.inputs.parse_whole_number (ASCII digits, bounded)")
    return sorted(set(out), key=lambda p: int(p.split(":")[1]))


def _files() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py")
                  if "migrations" not in p.parts and p != PARSER)


def test_numbers_in_request_input_are_read_by_the_one_parser():
    found = [p for path in _files() for p in problems_in(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("source", [
    'def f(q):\n    return q.isdigit()\n',
    'def f(request):\n    return int(request.GET["page"])\n',
    'def f(request):\n    return int(request.headers.get("Last-Event-ID", "0"))\n',
    'def f(request):\n    raw = request.POST.get("n", "").strip()\n    return int(raw) if raw else 0\n',
    'def f(self):\n    return int(self.request.query_params.get("page"))\n',
    'def f(request):\n    ids = request.POST.getlist("player")\n    return [int(i) for i in ids]\n',
    'def f(request):\n    for raw in request.POST.getlist("seat"):\n        n = raw.strip()\n        yield int(n)\n',
    'import os\nX = int(os.environ.get("PORT", "8000"))\n',
    'def f(scope):\n    h = dict(scope["headers"])\n    return int(h[b"x"])\n',
    'def get(self, request, **kwargs):\n    return int(kwargs["pk"])\n',
    'def f(request):\n    def g():\n        return int(request.GET["n"])\n    return g\n',
])
def test_the_rule_finds_each_way_of_reading_a_number(source):
    assert problems_in(source, "x.py")


@pytest.mark.parametrize("source", [
    'def f(n):\n    return int(n) + 1\n',                                  # no request input in sight
    'def f(request):\n    return int(time.time())\n',
    'def f(m):\n    return int(m.group(1))\n',
    'def f(request):\n    raw = request.GET.get("q")\n\ndef g(raw):\n    return int(raw)\n',  # another scope
])
def test_the_rule_leaves_other_ints_alone(source):
    assert not problems_in(source, "x.py")
