"""The shape of the house, read from the code: no import circles anywhere, ``games`` free of
Django and of the app, and each layer importing only the layers below it."""

from __future__ import annotations

import re

import pytest

from tests.architecture.tree import MODULES, ROOT, imports_of, resolve


def project_graph() -> dict[str, set[str]]:
    graph = {}
    for module in MODULES:
        targets = {resolve(name) for name in imports_of(module)}
        graph[module] = {t for t in targets if t and t != module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_circles():
    assert _cycles(project_graph()) == []


def test_the_cycle_finder_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.split(".")[0] == "games"))
def test_games_is_plain_python(module):
    """The engine is a library: no Django, no app code, no I/O frameworks."""
    for name in imports_of(module):
        top = name.split(".")[0]
        assert top not in ("django", "rest_framework", "celery", "scoring", "gupai_site"), (module, name)


#: Who may import whom inside ``scoring``: a module of the left-hand layer never imports one of
#: the layers named on the right (the domain is pure; services do not know HTTP; selectors never
#: write; web serves api and views, never the other way).
FORBIDDEN = {
    # The site wires the app together; the app never reaches back up into it.
    "scoring": ("gupai_site",),
    "scoring.domain": ("scoring.models", "scoring.selectors", "scoring.services", "scoring.web", "scoring.api",
                       "scoring.views", "scoring.tasks", "django.db", "django.http", "django.shortcuts",
                       "rest_framework"),
    "scoring.web": ("scoring.api", "scoring.views", "scoring.urls_director", "scoring.urls_public",
                    "scoring.urls_scorer"),
    "scoring.selectors": ("scoring.services", "scoring.web", "scoring.views", "scoring.api", "scoring.tasks"),
    "scoring.services": ("scoring.web", "scoring.views", "scoring.api", "scoring.tasks",
                         "rest_framework", "django.http", "django.shortcuts"),
    "scoring.models": ("scoring.services", "scoring.selectors", "scoring.web", "scoring.views", "scoring.api"),
}


def layer_violations(module: str, names: set[str]) -> list[tuple[str, str]]:
    """(module, imported name) for each name that ``module``'s layer may not import."""
    out = []
    for layer, banned in FORBIDDEN.items():
        if module == layer or module.startswith(layer + "."):
            for name in sorted(names):
                if any(name == b or name.startswith(b + ".") for b in banned):
                    out.append((module, name))
    return out


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layers_import_only_downwards(layer):
    found = [v for module in MODULES if module == layer or module.startswith(layer + ".")
             for v in layer_violations(module, imports_of(module))]
    assert found == []


@pytest.mark.parametrize("source, banned", [
    ("from django.db import models", "django.db"),
    ("from scoring.models import Round", "scoring.models"),
    ("from django.db.models import Q", "django.db.models"),
    ("def f():\n    from scoring.selectors.standings import standings_for", "scoring.selectors.standings"),
    ("from rest_framework import serializers", "rest_framework"),
])
def test_a_domain_module_that_imports_the_orm_is_caught(source, banned):
    """The guard above fails when a domain module reaches for the ORM, a read, or DRF (a late
    import inside a function included)."""
    probe = "scoring.domain.probe"
    assert layer_violations(probe, imports_of(probe, source)) == [(probe, banned)]


def test_the_domain_and_web_folders_exist():
    """The guard would pass on an empty folder: the rooms it guards are there."""
    assert {"scoring.domain.records", "scoring.domain.standings", "scoring.web.http", "scoring.web.deal_form"} <= set(MODULES)


GAME_KEYS = "jie_long|ce_deng|kko_li_but_i_gi|ding_niu|tau_ngau|da_ling"
_BRANCH = re.compile(
    rf"""(==|!=)\s*["']({GAME_KEYS})["']|["']({GAME_KEYS})["']\s*(==|!=)|\bin\s*[(\[{{][^)\]}}]*["']({GAME_KEYS})["']""")


def test_nothing_outside_games_branches_on_a_game_name():
    """Game facts live in ``games.catalog``; the app asks it instead of comparing names."""
    offenders = []
    for folder in ("scoring", "gupai_site", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".html") and "migrations" not in path.parts:
                for number, line in enumerate(path.read_text().splitlines(), start=1):
                    if _BRANCH.search(line):
                        offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_the_branch_finder_finds_branches():
    for line in ['if game == "tau_ngau":', "x = 'da_ling' != g", 'if g in ("jie_long", "ce_deng"):',
                 '{% if form.game == "tau_ngau" %}']:
        assert _BRANCH.search(line), line
    assert not _BRANCH.search('TOURNAMENTS = [("Ding Niu", "ding_niu", {})]')
