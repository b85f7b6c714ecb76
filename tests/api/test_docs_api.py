"""docs/api.md is checked against the app: every example in it is sent, in order, to the running
app (Django's test client, one fresh SQLite database, ids from 1), and the app's answer must be
the one the page shows. Every operation of the OpenAPI document must have an example there.

The format of an example (docs/api.md, "How to read the examples"):

- a fenced ``http`` block: the request line ``METHOD /path``, header lines (``Name: value``),
  a blank line, then the JSON body if any;
- a line ``Answer `NNN`:`` with the status, then a fenced ``json`` block with the body; a
  response header the answer must carry is named on that line: ``Answer `201`, header
  `Idempotent-Replayed: true`:``.

In a request, ``{name}`` is a value the test fills in: ``{director_token}``, ``{desk_token}``
(tokens it makes for the users ``td`` and ``clerk``), or a value an earlier answer showed as
``…`` under that key (``{token}``, ``{display_token}``); ``{prefix}`` is the first 12
characters of ``{token}``. In an answer, ``…`` stands for any value (a time, a token); a
string with ``…`` in it matches any text there (``"tny_…"``); a key ``"…"`` allows keys the
example leaves out; a list ending in ``"…"`` allows more items after those shown. Everything
else must be equal.

An HTML comment ``<!-- docs-test: settings {...} -->`` changes tournament 1's settings the way
the director's settings screen does (the API has no endpoint for them yet).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from tourney.roles import DIRECTOR_GROUP
from tourney.services.tournament_settings import tournament_settings_update
from tourney.tokens import token_create

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"
ANY = "…"
# DOCS_API_SHOW=1 (with pytest -s): print every answer and go on, to write or update the page.
SHOW = os.environ.get("DOCS_API_SHOW") == "1"
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
ANSWER = re.compile(r"^Answer `(\d{3})`([^\n]*)", re.M)
ANSWER_HEADER = re.compile(r"header `([A-Za-z][A-Za-z0-9-]*):\s*([^`]*)`")
SETTINGS = re.compile(r"<!--\s*docs-test:\s*settings\s+(\{.*?\})\s*-->", re.S)
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9-]*):\s*(.*)$")


@dataclass
class Example:
    line: int  # of the ```http fence in docs/api.md
    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    status: int = 0
    answer: Any = None
    answer_headers: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"docs/api.md line {self.line}: {self.method} {self.path}"


@dataclass
class Settings:
    line: int
    changes: dict[str, Any]


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _request(block: str, line: int) -> Example:
    lines = block.splitlines()
    method, _, path = lines[0].strip().partition(" ")
    ex = Example(line=line, method=method, path=path.strip())
    rest = lines[1:]
    while rest and (m := HEADER.match(rest[0])):
        ex.headers[m.group(1)] = m.group(2).strip()
        rest = rest[1:]
    text = "\n".join(rest).strip()
    if text:
        ex.body = json.loads(text)
    return ex


def parse(text: str) -> list[Example | Settings]:
    """The examples and settings steps of the page, in the order they appear."""
    steps: list[tuple[int, Example | Settings]] = []
    for m in SETTINGS.finditer(text):
        steps.append((m.start(), Settings(_line_of(text, m.start()), json.loads(m.group(1)))))
    blocks = list(FENCE.finditer(text))
    for i, m in enumerate(blocks):
        if m.group(1) != "http":
            continue
        line = _line_of(text, m.start())
        ex = _request(m.group(2), line)
        after = blocks[i + 1] if i + 1 < len(blocks) else None
        if after is None or after.group(1) != "json":
            raise AssertionError(f"{ex}: no ```json answer block after the request")
        status = ANSWER.search(text, m.end(), after.start())
        if status is None:
            raise AssertionError(f"{ex}: no 'Answer `NNN`:' line between request and answer")
        ex.status = int(status.group(1))
        ex.answer_headers = dict(ANSWER_HEADER.findall(status.group(2)))
        ex.answer = json.loads(after.group(2))
        steps.append((m.start(), ex))
    return [s for _, s in sorted(steps, key=lambda p: p[0])]


def mismatches(want: Any, got: Any, where: str = "$") -> list[str]:
    """Where the app's answer ``got`` differs from the example ``want`` (empty: it matches)."""
    if want == ANY:
        return []
    if isinstance(want, str) and ANY in want:
        pattern = ".*".join(re.escape(p) for p in want.split(ANY))
        if isinstance(got, str) and re.fullmatch(pattern, got, re.S):
            return []
        return [f"{where}: {got!r} does not match {want!r}"]
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected an object, got {got!r}"]
        problems = []
        open_ended = ANY in want
        for key, value in want.items():
            if key == ANY:
                continue
            if key not in got:
                problems.append(f"{where}.{key}: missing in the answer")
            else:
                problems += mismatches(value, got[key], f"{where}.{key}")
        if not open_ended:
            extra = sorted(set(got) - set(want))
            if extra:
                problems.append(f"{where}: keys the example does not show: {extra}")
        return problems
    if isinstance(want, list):
        if not isinstance(got, list):
            return [f"{where}: expected a list, got {got!r}"]
        prefix = bool(want) and want[-1] == ANY
        items = want[:-1] if prefix else want
        if len(got) < len(items) or (not prefix and len(got) != len(items)):
            return [f"{where}: {len(got)} items, the example shows {len(items)}: {got!r}"]
        problems = []
        for i, value in enumerate(items):
            problems += mismatches(value, got[i], f"{where}[{i}]")
        return problems
    if type(want) is not type(got) and not (
        isinstance(want, int | float)
        and isinstance(got, int | float)
        and not isinstance(want, bool)
        and not isinstance(got, bool)
    ):
        return [f"{where}: {got!r} is not {want!r}"]
    return [] if want == got else [f"{where}: {got!r} is not {want!r}"]


def captures(want: Any, got: Any, into: dict[str, Any]) -> None:
    """Values an answer showed as ``…`` under a key, for the ``{key}`` of later requests."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key, value in want.items():
            if key == ANY or key not in got:
                continue
            if isinstance(value, str) and ANY in value:
                into[key] = got[key]
            else:
                captures(value, got[key], into)


def _fill(text: str, values: dict[str, Any], ex: Example) -> str:
    def one(m: re.Match) -> str:
        name = m.group(1)
        if name not in values:
            raise AssertionError(f"{ex}: no value for {{{name}}} yet")
        return str(values[name])

    return PLACEHOLDER.sub(one, text)


def _fill_body(body: Any, values: dict[str, Any], ex: Example) -> Any:
    if isinstance(body, str):
        return _fill(body, values, ex)
    if isinstance(body, list):
        return [_fill_body(v, values, ex) for v in body]
    if isinstance(body, dict):
        return {k: _fill_body(v, values, ex) for k, v in body.items()}
    return body


def send(client: Client, ex: Example, values: dict[str, Any]):
    path = _fill(ex.path, values, ex)
    kwargs: dict[str, Any] = {}
    for name, value in ex.headers.items():
        kwargs["HTTP_" + name.upper().replace("-", "_")] = _fill(value, values, ex)
    if ex.body is not None:
        kwargs["data"] = json.dumps(_fill_body(ex.body, values, ex))
        kwargs["content_type"] = "application/json"
    return getattr(client, ex.method.lower())(path, **kwargs)


def _user(django_user_model, name: str, group: str):
    user = django_user_model.objects.create_user(name, password=f"{name}-pass-123")
    user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def _path_pattern(template: str) -> re.Pattern:
    parts = re.split(r"(\{[^}]+\})", template)
    regex = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(regex + "$")


def _operations(client: Client) -> list[tuple[str, str]]:
    r = client.get("/api/v1/openapi.json")
    assert r.status_code == 200, r.content[:300]
    return [(m.upper(), p) for p, ops in r.json()["paths"].items() for m in ops]


# ---------------------------------------------------------------- the tests


def test_the_matcher_accepts_what_the_page_allows_and_nothing_else():
    assert mismatches({"a": 1, "t": ANY}, {"a": 1, "t": "2026-01-01T00:00:00Z"}) == []
    assert mismatches({"a": 1}, {"a": 2})
    assert mismatches({"a": 1}, {"a": 1, "b": 2})  # an undocumented key
    assert mismatches({"a": 1, ANY: ANY}, {"a": 1, "b": 2}) == []
    assert mismatches({"a": 1, "b": 2}, {"a": 1})  # a documented key the app lacks
    assert mismatches([1, 2], [1, 2, 3])
    assert mismatches([1, 2, ANY], [1, 2, 3]) == []
    assert mismatches("tny_…", "tny_abc") == []
    assert mismatches("tny_…", "xyz")
    assert mismatches(1, True) and mismatches(False, 0)
    assert mismatches(125.0, 125) == []


@pytest.mark.django_db(transaction=True, reset_sequences=True)
def test_every_example_of_docs_api_md_is_what_the_app_answers(django_user_model):
    director = _user(django_user_model, "td", DIRECTOR_GROUP)
    values: dict[str, Any] = {"director_token": token_create(user=director)}
    client = Client()
    steps = parse(DOC.read_text(encoding="utf-8"))
    assert len([s for s in steps if isinstance(s, Example)]) >= 30
    for step in steps:
        if isinstance(step, Settings):
            tournament_settings_update(tournament_id=1, changes=step.changes, actor=director)
            continue
        if "{desk_token}" in json.dumps(step.headers) and "desk_token" not in values:
            clerk = django_user_model.objects.get(username="clerk")  # made by POST /users
            values["desk_token"] = token_create(user=clerk)
        r = send(client, step, values)
        got = r.json() if r.get("Content-Type", "").startswith("application/json") else None
        shown = json.dumps(got, indent=1, ensure_ascii=False)
        if SHOW:
            print(f"\n### {step}\nAnswer `{r.status_code}`:\n{json.dumps(got, ensure_ascii=False)}")
        assert SHOW or r.status_code == step.status, f"{step}: status {r.status_code}, body {shown}"
        for name, value in step.answer_headers.items():
            assert SHOW or r.get(name) == value, f"{step}: header {name} is {r.get(name)!r}"
        problems = mismatches(step.answer, got)
        assert SHOW or not problems, (
            f"{step}: the answer differs from the example:\n  "
            + "\n  ".join(problems)
            + f"\nThe app answered:\n{shown}"
        )
        captures(step.answer, got, values)
        if SHOW and isinstance(got, dict):  # the page may not show the "…" yet
            values.update((k, v) for k, v in got.items() if isinstance(v, str) and k not in values)
        if "token" in values:
            values["prefix"] = str(values["token"])[:12]


@pytest.mark.django_db
def test_every_operation_of_the_openapi_document_has_an_example_in_docs_api_md():
    examples = [s for s in parse(DOC.read_text(encoding="utf-8")) if isinstance(s, Example)]
    sent = [(ex.method, ex.path.split("?")[0]) for ex in examples]
    operations = _operations(Client())
    missing = [
        f"{method} {path}"
        for method, path in operations
        if not any(m == method and _path_pattern(path).match(p) for m, p in sent)
    ]
    assert not missing, "no example in docs/api.md for: " + ", ".join(missing)
    # ...and every example under /api/v1/ is an operation of the document (no stale path).
    patterns = [(m, _path_pattern(p)) for m, p in operations]
    unknown = [
        str(ex)
        for ex, (method, path) in zip(examples, sent, strict=True)
        if path.startswith("/api/v1/")
        and not any(m == method and pat.match(path) for m, pat in patterns)
    ]
    assert not unknown, "examples of no OpenAPI operation: " + ", ".join(unknown)
