"""Issue 22: the repository stands on its own. What the project ships names no path outside it
(a sibling checkout's files, a machine's home or work folder), and every rule the code, the
screens and the tests cite ("RULES 7.1") is written in docs/rules.md, the rule book in the
repository."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest

from tourney.rulebook import NUMBER_IN_CITE, RULES_CITE, RULES_MD, render

ROOT = Path(__file__).resolve().parent.parent

# What the project ships: a clone of the repository must work and read well with nothing beside it.
SHIPPED = [
    "README.md",
    "Makefile",
    "Procfile",
    "gunicorn.conf.py",
    "manage.py",
    "requirements.txt",
    "requirements.in",
    "pyproject.toml",
    "docs",
    "tourney",
    "tables",
    "templates",
    "static",
    "benchmarks",
    "tools",
    ".ci",
    "tests",
]
SKIPPED_DIRS = {"__pycache__", ".pytest_cache", "node_modules"}
BINARY = {".png", ".jpg", ".jpeg", ".gif", ".ico", ".woff", ".woff2", ".sqlite3", ".pyc", ".gz"}

# The only places allowed to name something outside the repository, each with its reason.
EXEMPT = {
    # CI runs the shared API contract check when the shared folder sits beside the clone (it is
    # the contract's own tool, not the project's); the run skips it when the folder is missing.
    ".ci/run": ("../shared/tools/api_contract_check.py", "../shared/API.md"),
    # This test names the patterns it looks for.
    "tests/test_self_contained.py": ("*",),
    # Markdown written as docs/rules.md writes it: from docs/, the link stays in the repository.
    "tests/views/test_rules_page.py": ("../tables/engine/balancing.py",),
}

# A sibling folder of the clone, a machine's work or home folder, a user's home.
OUTSIDE = re.compile(
    r"\.\./shared\b"
    r"|(?<![\w.])/work/"
    r"|(?<![\w.])/home/[A-Za-z_]"
    r"|(?<![\w.])/Users/[A-Za-z_]"
    r"|(?<![\w.:/])/root/"
    r"|(?<![\w.])~/[A-Za-z_.]"
    # The documents the project was founded on, by name: the project's own are docs/rules.md
    # and docs/api.md (a reader of a clone has no other RULES.md or API.md).
    r"|(?<![\w/.])(?:API|RULES|STYLE|TOURNAMENT_DAY)\.md\b"
)
# A relative path that climbs: it must stay inside the clone. Markdown links resolve from the
# file's folder; paths in code and configuration from the repository root (where they run).
CLIMBING = re.compile(r"(?<![\w./])((?:\.\./)+)([\w.-][\w./-]*)")


def _shipped_files() -> list[Path]:
    files = []
    for name in SHIPPED:
        path = ROOT / name
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            for p in sorted(path.rglob("*")):
                if p.is_file() and not SKIPPED_DIRS & set(p.relative_to(ROOT).parts):
                    files.append(p)
    return [p for p in files if p.suffix.lower() not in BINARY]


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def _exempt(rel: str, line: str, at: int) -> bool:
    allowed = EXEMPT.get(rel, ())
    return "*" in allowed or any(line.startswith(a, at) for a in allowed)


def outside_paths(root: Path = ROOT, files: list[Path] | None = None) -> list[str]:
    """Every mention of a path outside the repository, as 'file:line: text'."""
    found = []
    for path in files if files is not None else _shipped_files():
        text = _text(path)
        if text is None:
            continue
        rel = path.relative_to(root).as_posix()
        for n, line in enumerate(text.splitlines(), 1):
            base = path.parent if path.suffix == ".md" else root
            hits = [m for m in OUTSIDE.finditer(line)] + [
                m
                for m in CLIMBING.finditer(line)
                if not (base / m.group(1) / m.group(2)).resolve().is_relative_to(root)
            ]
            if any(not _exempt(rel, line, m.start()) for m in hits):
                found.append(f"{rel}:{n}: {line.strip()[:120]}")
    return found


def test_nothing_shipped_names_a_path_outside_the_repository():
    found = outside_paths()
    assert not found, "paths outside the repository:\n" + "\n".join(sorted(set(found)))


def test_the_outside_path_check_finds_what_it_should(tmp_path):
    """The check itself: each kind of outside path is caught, inside ones pass."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "tables" / "engine").mkdir(parents=True)
    (tmp_path / "tables" / "engine" / "x.py").write_text("")
    bad = {
        "a.py": '"""See ../shared/API.md."""',
        "b.md": "Run `/work/main/.venv/bin/python`.",
        "c.txt": "cache in /home/alice/tourney",
        "docs/d.md": "[the engine](../../elsewhere/x.py)",
        "e.toml": 'path = "../sibling/tool.py"',
        "h.py": "# the error shape of API.md (RULES.md 6.2)",
    }
    good = {
        "docs/f.md": "[the engine](../tables/engine/x.py) and `docs/rules.md`",
        "g.py": "url = 'https://example.org/home/page'  # http://x/work/y",
    }
    for name, text in {**bad, **good}.items():
        (tmp_path / name).write_text(text)
    files = [tmp_path / name for name in {**bad, **good}]
    found = outside_paths(tmp_path, files)
    assert sorted({line.split(":")[0] for line in found}) == sorted(bad)


# ------------------------------------------------------------------------------ rule numbers

CITED_IN = ["tourney", "tables", "templates", "static", "tests", "benchmarks", "README.md", "docs"]
RULE_TAG = re.compile(r"\{%\s*rule((?:\s+\"[\d.]+\")+)\s*%\}")  # {% rule "4.5" "5.1" %}


def _cites(text: str) -> set[str]:
    numbers = set()
    for cite in RULES_CITE.finditer(text):
        numbers.update(m.group(0) for m in NUMBER_IN_CITE.finditer(cite.group(0)))
    for tag in RULE_TAG.finditer(text):
        numbers.update(re.findall(r"[\d.]+", tag.group(1)))
    return numbers


def cited_rules() -> dict[str, set[str]]:
    """Each rule number cited, with the files citing it."""
    cited: dict[str, set[str]] = defaultdict(set)
    for name in CITED_IN:
        path = ROOT / name
        paths = [path] if path.is_file() else sorted(path.rglob("*"))
        for p in paths:
            if not p.is_file() or p.suffix.lower() in BINARY or SKIPPED_DIRS & set(p.parts):
                continue
            text = _text(p)
            for number in _cites(text or ""):
                cited[number].add(p.relative_to(ROOT).as_posix())
    return cited


def test_cites_are_read_in_every_form():
    text = 'x (RULES 4.5, 5.1) y RULES 7 and {% rule "8.3" %} {% rule "3.7" "3.8" %} # RULES 7.1'
    assert _cites(text) == {"4.5", "5.1", "7", "8.3", "3.7", "3.8", "7.1"}


def test_every_rule_cited_is_in_the_rule_book():
    book = render(RULES_MD.read_text(encoding="utf-8"))
    known = set(book.rules) | {s.number for s in book.sections}
    cited = cited_rules()
    assert cited, "no rule cited anywhere: the scan is broken"
    missing = {n: sorted(files) for n, files in cited.items() if n not in known}
    assert not missing, "rules cited but not in docs/rules.md:\n" + "\n".join(
        f"RULES {n}: {', '.join(files[:4])}{' …' if len(files) > 4 else ''}"
        for n, files in sorted(missing.items(), key=lambda kv: [int(x) for x in kv[0].split(".")])
    )


@pytest.mark.parametrize("number", ["99.1", "99"])
def test_a_rule_missing_from_the_book_is_reported(number):
    book = render("## 7. Eliminations\n\n7.1 **Bust order decides.** Text.\n")
    known = set(book.rules) | {s.number for s in book.sections}
    assert "7.1" in known and "7" in known and number not in known
