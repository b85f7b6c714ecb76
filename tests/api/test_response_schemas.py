"""Issue 10: the success answers are declared in /api/v1/openapi.json (tourney/api/schemas.py),
closed, so that schemathesis's "responses match the schema" check (test_hostile_input.py) can
fail on a 2xx answer too, and an answer that drifts from docs/api.md is caught by the suite."""

from __future__ import annotations

import jsonschema_rs
import pydantic
import pytest

from tourney import selectors, services
from tourney.api import api

pytestmark = pytest.mark.django_db

DOC = api.get_openapi_schema()
SCHEMAS = DOC["components"]["schemas"]


def _schema_of(method: str, path: str, status: int = 200) -> dict:
    operation = DOC["paths"][f"/api/v1/{path}"][method]
    return operation["responses"][status]["content"]["application/json"]["schema"]


def _validator(method: str, path: str, status: int = 200):
    root = {**_schema_of(method, path, status), "components": DOC["components"]}
    return jsonschema_rs.validator_for(root)


def _matches(method: str, path: str, body, status: int = 200) -> bool:
    return _validator(method, path, status).is_valid(body)


def _refs(node) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"].rsplit("/", 1)[1]} if "$ref" in node else set()
        return found.union(*(_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node))
    return set()


def test_every_success_answer_declares_a_closed_object():
    """Every 2xx answer of every operation is a named object with its keys listed and no
    others allowed, down through every object it contains (the event payload aside)."""
    seen: set[str] = set()
    bare = []
    for path, operations in DOC["paths"].items():
        for method, operation in operations.items():
            ok = [s for s in operation["responses"] if 200 <= int(s) < 300]
            if not ok:
                bare.append((method, path, "no 2xx answer declared"))
            for status in ok:
                content = operation["responses"][status].get("content", {})
                schema = content.get("application/json", {}).get("schema", {})
                if "$ref" not in schema:
                    bare.append((method, path, status))
                else:
                    seen |= _refs(schema)
    assert bare == []
    todo = set(seen)
    while todo:  # the objects they contain
        name = todo.pop()
        new = _refs(SCHEMAS[name]) - seen
        seen |= new
        todo |= new
    open_ = [
        name
        for name in sorted(seen)
        if name != "Error"
        and not (SCHEMAS[name].get("properties") and SCHEMAS[name]["additionalProperties"] is False)
    ]
    assert open_ == []
    assert len(seen) > 40  # the walk really went through the answers' objects


def test_the_settle_schema_refuses_an_answer_that_breaks_the_contract(director_api):
    """Not vacuous: the docs/api.md example matches; without ``pots``, with a stray key, with a
    card category docs/api.md does not name, or with ``null`` for ``hands``, it does not."""
    body = director_api.post(
        "/api/v1/floor/settle",
        {
            "button_seat": 3,
            "board": "AdKd3c9s4h",
            "players": [
                {"seat": 1, "committed": 10, "cards": "AsAh"},
                {"seat": 2, "committed": 50, "cards": "KsKh"},
                {"seat": 3, "committed": 200, "cards": "7c2d"},
            ],
        },
    ).json()
    assert body["hands"]["1"]["category"] == "three_of_a_kind"
    assert _matches("post", "floor/settle", body)
    assert not _matches("post", "floor/settle", {k: v for k, v in body.items() if k != "pots"})
    assert not _matches("post", "floor/settle", {**body, "rake": 0})
    royal = {"1": {"category": "royal_flush", "best_five": []}}
    assert not _matches("post", "floor/settle", {**body, "hands": royal})
    assert not _matches("post", "floor/settle", {**body, "hands": None})


def test_keys_an_answer_may_leave_out_stay_absent_not_null(director_api, director, tournament):
    """docs/api.md: ``hands`` is present when cards were given. By ranks it is absent (not
    ``null``); the deal quote's amounts likewise appear only with ``stacks``."""
    by_rank = director_api.post(
        "/api/v1/floor/settle",
        {
            "button_seat": 1,
            "players": [
                {"seat": 1, "committed": 100, "rank": 1},
                {"seat": 2, "committed": 100, "rank": 2},
            ],
        },
    )
    assert by_rank.status_code == 200, by_rank.content
    assert "hands" not in by_rank.json()
    assert _matches("post", "floor/settle", by_rank.json())

    a = services.entry_register(tournament_id=tournament.pk, name="Ann Lee", actor=director)
    b = services.entry_register(tournament_id=tournament.pk, name="Bo Chan", actor=director)
    tid = tournament.pk
    quote = director_api.get(f"/api/v1/tournaments/{tid}/deal")
    assert quote.status_code == 200, quote.content
    assert [sorted(p) for p in quote.json()["players"]] == [
        ["bounty", "entry", "name", "number", "stack"]
    ] * 2
    assert _matches("get", "tournaments/{tid}/deal", quote.json())
    priced = director_api.get(f"/api/v1/tournaments/{tid}/deal?stacks={a.pk}:30000,{b.pk}:10000")
    assert priced.status_code == 200, priced.content
    row = priced.json()["players"][0]
    assert {"equity", "icm", "chip_chop"} <= set(row) and row["stack"] == 30000
    assert _matches("get", "tournaments/{tid}/deal", priced.json())


def test_the_answers_of_a_short_tournament_match_their_schemas(director_api, director, tournament):
    """Registration, the clock, an elimination that leaves a winner, results, levels, money,
    undo: each real answer matches what the document declares for it."""
    tid = tournament.pk
    calls = []
    for name in ("Ann Lee", "Bo Chan"):
        r = director_api.post(f"/api/v1/tournaments/{tid}/entries", {"name": name})
        calls.append(("post", "tournaments/{tid}/entries", r, 201))
    ann = calls[0][2].json()["id"]
    for action in ("start", "pause"):
        r = director_api.post(f"/api/v1/tournaments/{tid}/clock", {"action": action})
        calls.append(("post", "tournaments/{tid}/clock", r, 200))
    r = director_api.post(
        f"/api/v1/tournaments/{tid}/eliminations",
        {"entries": [{"id": ann, "starting_stack": 20000}]},
    )
    calls.append(("post", "tournaments/{tid}/eliminations", r, 200))
    assert r.json()["winner"] is not None
    for path in ("results", "seating", "levels", "money", "clock", "color-up", "events"):
        r = director_api.get(f"/api/v1/tournaments/{tid}/{path}")
        calls.append(("get", f"tournaments/{{tid}}/{path}", r, 200))
    r = director_api.post(f"/api/v1/tournaments/{tid}/undo")
    calls.append(("post", "tournaments/{tid}/undo", r, 200))
    for method, path, r, status in calls:
        assert r.status_code == status, (path, r.content)
        assert _matches(method, path, r.json(), status), (path, r.json())


def test_an_answer_that_drifts_from_its_schema_fails_loudly(director_api, tournament, monkeypatch):
    """A key the schema does not know is not dropped in silence: the suite sees an error."""
    real = selectors.results

    def drifted(t):
        return {**real(t), "rake": 0}

    monkeypatch.setattr(selectors, "results", drifted)
    with pytest.raises(pydantic.ValidationError):
        director_api.get(f"/api/v1/tournaments/{tournament.pk}/results")
