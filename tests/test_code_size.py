"""Small files and short functions, so a newcomer can read the project (issue 21).

- No Python file over 600 lines outside migrations and tests (benchmarks and management
  commands included).
- No function over 80 lines in the layers above the engines: ``tourney`` and ``tables`` less
  ``tourney/engine`` and ``tables/engine`` (pure rules that may keep a long table of cases in
  one place). The benchmarks are scripts, not a layer: their files count, their ``main`` not.

A function's length runs from its ``def`` (decorators left out) to its last line, docstring
and comments included: what a reader has to hold in their head.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ("tourney", "tables", "benchmarks")
LAYERED = ("tourney", "tables")
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
ENGINES = {("tourney", "engine"), ("tables", "engine")}


def python_files() -> list[Path]:
    out = []
    for top in CHECKED:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if "migrations" in parts or "__pycache__" in parts:
                continue
            out.append(path)
    return out


def long_files(paths: list[Path], limit: int = MAX_FILE_LINES, base: Path = ROOT) -> dict[str, int]:
    found = {}
    for path in paths:
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > limit:
            found[str(path.relative_to(base))] = lines
    return found


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> dict[str, int]:
    """``name: lines`` of each function (methods and nested ones too) longer than ``limit``."""
    found = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = node.end_lineno - node.lineno + 1
            if lines > limit:
                found[f"{node.name}:{node.lineno}"] = lines
    return found


def in_an_engine(path: Path) -> bool:
    return tuple(path.relative_to(ROOT).parts[:2]) in ENGINES


def test_the_checks_see_a_long_file_and_a_long_function(tmp_path):
    short = "def f():\n" + "    x = 1\n" * 3
    long = "def g():\n" + "    x = 1\n" * 80  # 81 lines
    assert long_functions(short) == {}
    assert long_functions(long) == {"g:1": 81}
    nested = "class A:\n    def m(self):\n        def inner():\n" + "            y = 2\n" * 80
    assert set(long_functions(nested)) == {"m:2", "inner:3"}
    big = tmp_path / "big.py"
    big.write_text("x = 1\n" * 601)
    ok = tmp_path / "ok.py"
    ok.write_text("x = 1\n" * 600)
    assert long_files([big, ok], 600, base=tmp_path) == {"big.py": 601}


def test_the_walk_finds_the_projects_files():
    names = {str(p.relative_to(ROOT)) for p in python_files()}
    assert "tourney/models.py" in names and "tables/models.py" in names
    assert not any("migrations" in n for n in names)
    assert any(in_an_engine(p) for p in python_files())


def test_no_python_file_is_over_600_lines():
    assert long_files(python_files()) == {}


def test_no_function_above_the_engines_is_over_80_lines():
    found = {}
    for path in python_files():
        if in_an_engine(path) or path.relative_to(ROOT).parts[0] not in LAYERED:
            continue
        for name, lines in long_functions(path.read_text(encoding="utf-8")).items():
            found[f"{path.relative_to(ROOT)}:{name}"] = lines
    assert found == {}
