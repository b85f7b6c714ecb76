"""No import cycle in the project's packages, lazy imports included (issue 21).

The graph: one node a module of ``tourney`` and ``tables`` (migrations left out), one edge for
every ``import x`` / ``from x import y`` anywhere in the module, at the top or inside a
function (a lazy import is how a cycle hides, so it counts). ``from pkg import name`` points at
the submodule ``pkg.name`` when there is one, else at ``pkg``; relative imports are resolved.
A cycle is a strongly connected component of more than one module (Tarjan, written out below).

A ratchet: ``KNOWN_CYCLES`` lists the components that still exist; it is empty now (the last
cycle, services <-> money <-> colorup <-> selectors <-> tasks <-> tables.services, went with
tourney/core/, tourney/selectors/ and the scheduling port). The test fails when a component
appears that is not listed, or grows, and also when a listed one has gone or shrunk. A new
cycle is never added to the list: break it.

import-linter (``[tool.importlinter]`` in pyproject.toml, run by ``make lint`` and ``.ci/run``)
holds the layering: the engines import neither Django nor the rest of the project; the screens
(``tourney.views``) and the API never import each other; nothing outside ``tourney.views``
imports the screens; the core and the reads never import the writes, the tasks, the API or the
screens; the writes never import the tasks, the API or the screens (they queue the clock tick
through ``tourney.core.schedule``); and the layers, each importing only the ones below it:

        tourney.api | tourney.views | tourney.tasks     (independent of each other)
        tourney.services : tables.services
        tourney.selectors : tables.selectors
        tourney.core
        tourney.models : tables.models
        tourney.engine : tables.engine                   (no Django, nothing of the project)
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tourney", "tables")
LEFT_OUT = {"migrations", "__pycache__"}

# The import cycles that exist today. Only ever remove or shrink an entry (the test says when).
KNOWN_CYCLES: list[frozenset[str]] = []

Graph = dict[str, dict[str, int]]  # module -> {imported module: line of the first import}


# ---------------------------------------------------------------- the graph


def module_files(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Module name -> file, for every .py file under the packages (migrations left out)."""
    out = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if LEFT_OUT.intersection(parts):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _known_or_parent(name: str, modules: dict[str, Path]) -> str | None:
    """The module itself when it is one of ours, else its nearest package that is."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _base_of_relative(module: str, is_package: bool, level: int) -> str:
    """The package a relative import counts from: ``.`` is the module's own package."""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    return ".".join(parts)


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> dict[str, int]:
    """Every project module this one imports, anywhere in its body, with the first line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: dict[str, int] = {}

    def add(name: str | None, line: int) -> None:
        target = _known_or_parent(name, modules) if name else None
        if target and target != module:
            found.setdefault(target, line)

    for node in ast.walk(tree):  # every level: lazy imports inside functions count
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _base_of_relative(module, is_package, node.level)
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                add(submodule if submodule in modules else source, node.lineno)
    return found


def module_graph(root: Path, packages: Iterable[str]) -> tuple[Graph, dict[str, Path]]:
    modules = module_files(root, packages)
    return {m: imports_of(m, p, modules) for m, p in modules.items()}, modules


# ---------------------------------------------------------------- strongly connected components


def strongly_connected(graph: Graph) -> list[frozenset[str]]:
    """Tarjan's algorithm, iterative (no recursion limit): every component of more than one
    module, i.e. every import cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def cycle_path(graph: Graph, component: frozenset[str]) -> list[str]:
    """One concrete cycle inside a component (breadth-first back to its first module)."""
    start = min(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if child in component and child not in came_from:
                    came_from[child] = node
                    nxt.append(child)
        frontier = nxt
    return [start]


def describe(graph: Graph, modules: dict[str, Path], component: frozenset[str]) -> str:
    path = cycle_path(graph, component)
    steps = [
        f"    {a} -> {b}  ({modules[a].relative_to(ROOT)}:{graph[a][b]})"
        for a, b in zip(path, path[1:], strict=False)
    ]
    members = ", ".join(f'"{m}"' for m in sorted(component))
    return "\n".join([f"  frozenset({{{members}}})", "  for example:", *steps])


def ratchet_failures(found: list[frozenset[str]], known: list[frozenset[str]]) -> list[str]:
    """What differs between today's cycles and the list: new or grown cycles (break them),
    gone or shrunk ones (take them off the list, or replace them with the smaller one)."""
    problems = []
    for component in found:
        if component in known:
            continue
        if any(component < k for k in known):
            problems.append(f"shrunk: {sorted(component)}: replace its KNOWN_CYCLES entry")
        else:
            problems.append(f"new or grown: {sorted(component)}: break this cycle")
    for k in known:
        if k not in found:
            problems.append(f"gone or changed: {sorted(k)}: remove it from KNOWN_CYCLES")
    return problems


# ---------------------------------------------------------------- the project


def test_no_import_cycle_beyond_the_known_ones():
    graph, modules = module_graph(ROOT, PACKAGES)
    found = strongly_connected(graph)
    problems = ratchet_failures(found, KNOWN_CYCLES)
    details = [describe(graph, modules, c) for c in found if c not in KNOWN_CYCLES]
    assert not problems, "\n".join(
        ["import cycles differ from KNOWN_CYCLES:", *problems, "today's cycles:", *details]
    )


def test_the_project_graph_is_not_empty():
    """The checker reads the real code: known edges, a lazy one among them, are there."""
    graph, modules = module_graph(ROOT, PACKAGES)
    assert "tourney.views.dashboard.base" in modules
    assert "tourney.migrations" not in modules
    assert not any(".migrations." in m for m in modules)
    assert "tourney.views.dashboard.reads" in graph["tourney.views.dashboard.base"]
    assert (
        "tourney.models" in graph["tables.models"] or "tourney.models" in graph["tables.services"]
    )
    # every lazy import (inside a function) of a project module is an edge; there are some
    lazy = 0
    for module, path in modules.items():
        for func in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    for alias in node.names:
                        name = f"{node.module}.{alias.name}"
                        target = _known_or_parent(name, modules)
                        if target and target != module:
                            lazy += 1
                            assert target in graph[module], (module, node.lineno)
    assert lazy > 0


# ---------------------------------------------------------------- the checker itself


def _package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_cycle_through_a_lazy_relative_import_is_found(tmp_path):
    _package(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": "def later():\n    from .sub import c\n    return c\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/c.py": "import os\n\n\ndef f():\n    from .. import a\n    return a\n",
            "pkg/d.py": "from pkg.a import b\n",  # into the cycle, not part of it
        },
    )
    graph, modules = module_graph(tmp_path, ["pkg"])
    assert graph["pkg.b"] == {"pkg.sub.c": 2}
    assert graph["pkg.sub.c"] == {"pkg.a": 5}
    assert strongly_connected(graph) == [frozenset({"pkg.a", "pkg.b", "pkg.sub.c"})]
    assert ratchet_failures(strongly_connected(graph), []) == [
        "new or grown: ['pkg.a', 'pkg.b', 'pkg.sub.c']: break this cycle"
    ]
    component = strongly_connected(graph)[0]
    assert cycle_path(graph, component) == ["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"]


def test_an_acyclic_package_passes(tmp_path):
    _package(
        tmp_path,
        {
            "pkg/__init__.py": "VALUE = 1\n",
            "pkg/a.py": "import pkg.b\nfrom pkg import VALUE\n",
            "pkg/b.py": "from . import c\nfrom .c import thing\n",
            "pkg/c.py": "thing = 1\n",
            "pkg/migrations/__init__.py": "",
            "pkg/migrations/0001.py": "from pkg import a\n",  # left out: no edge back
        },
    )
    graph, modules = module_graph(tmp_path, ["pkg"])
    assert "pkg.migrations.0001" not in modules
    assert graph["pkg.a"] == {"pkg.b": 1, "pkg": 2}  # a name from the package: the package
    assert graph["pkg.b"] == {"pkg.c": 1}
    assert strongly_connected(graph) == []
    assert ratchet_failures([], []) == []


def test_the_ratchet_only_lets_the_list_shrink():
    big = frozenset({"p.a", "p.b", "p.c"})
    small = frozenset({"p.a", "p.b"})
    assert ratchet_failures([big], [big]) == []
    assert ratchet_failures([big], [small]) == [
        "new or grown: ['p.a', 'p.b', 'p.c']: break this cycle",
        "gone or changed: ['p.a', 'p.b']: remove it from KNOWN_CYCLES",
    ]
    assert ratchet_failures([small], [big]) == [
        "shrunk: ['p.a', 'p.b']: replace its KNOWN_CYCLES entry",
        "gone or changed: ['p.a', 'p.b', 'p.c']: remove it from KNOWN_CYCLES",
    ]
    assert ratchet_failures([], [big]) == [
        "gone or changed: ['p.a', 'p.b', 'p.c']: remove it from KNOWN_CYCLES"
    ]
