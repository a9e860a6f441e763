"""The project's modules read from the tree, for the architecture tests: their names and files
(``MODULES``), what each imports (``imports_of``) and which project module a name lives in
(``resolve``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "scoring", "gupai_site")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                out[module_name(path)] = path
    return out


MODULES = modules()


def resolve(name: str) -> str | None:
    """The project module an imported name lives in (``scoring.services.rounds.round_record`` →
    ``scoring.services.rounds``), or None for a name from outside the project."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str, source: str | None = None) -> set[str]:
    """Every name a module imports, anywhere in it (late imports inside functions included);
    ``source``: its text, when it is not a file of the tree."""
    path = MODULES.get(module, ROOT / (module.replace(".", "/") + ".py"))
    is_package = path.name == "__init__.py"
    tree = ast.parse(source if source is not None else path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            prefix = imported_from(module, node, is_package)
            # ``from pkg import sub`` imports the module pkg.sub; ``from pkg import name`` the package.
            for alias in node.names:
                full = f"{prefix}.{alias.name}"
                names.add(full if full in MODULES else prefix)
    return names


def imported_from(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    """The absolute name of the module a ``from … import`` statement of ``module`` reads
    (``from .tiles import x`` in ``games.da_ling`` → ``games.tiles``)."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))
