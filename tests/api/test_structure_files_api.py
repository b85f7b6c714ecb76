"""Structure files in the API (issue 29, docs/structure-files.md): the document, imports of a
document and of text, errors by item and by line, 409 once played items would change."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema_rs
import pytest

from tourney import services
from tourney.models import Level

pytestmark = pytest.mark.django_db

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "static/schemas/structure-v1.schema.json").read_text()
)


def base(t):
    return f"/api/v1/tournaments/{t.pk}/structure"


def levels(t):
    return list(
        Level.objects.filter(tournament=t)
        .order_by("index")
        .values_list(
            "kind", "small_blind", "big_blind", "ante", "big_blind_ante", "seconds", "color_up"
        )
    )


def test_get_the_document_valid_under_the_published_schema(desk_api, tournament):
    r = desk_api.get(base(tournament) + "/document")
    assert r.status_code == 200
    doc = r.json()
    assert doc["format"] == "tourney.structure" and doc["version"] == 1
    assert jsonschema_rs.validator_for(SCHEMA).is_valid(doc)


def test_post_the_document_back_and_another_one(director_api, tournament):
    before = levels(tournament)
    doc = director_api.get(base(tournament) + "/document").json()
    assert director_api.post(base(tournament) + "/document", doc).status_code == 200
    assert levels(tournament) == before
    doc["items"] = [
        {"kind": "level", "small_blind": 50, "big_blind": 100, "ante": 25, "minutes": 15}
    ]
    r = director_api.post(base(tournament) + "/document", doc)
    assert r.status_code == 200
    assert r.json()["levels"][0]["ante"] == 25
    assert levels(tournament) == [("level", 50, 100, 25, 0, 900, [])]


def test_a_bad_document_is_400_with_fields_per_item(director_api, tournament):
    before = levels(tournament)
    doc = {
        "format": "tourney.structure",
        "version": 1,
        "items": [
            {"kind": "level", "small_blind": 100, "big_blind": 50, "minutes": 20},
            {"kind": "pause", "minutes": 5},
        ],
    }
    r = director_api.post(base(tournament) + "/document", doc)
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "bad_document"
    assert err["fields"] == {"items[1].kind": '"pause" is not one of "level" or "break"'}
    doc["items"].pop()
    err = director_api.post(base(tournament) + "/document", doc).json()["error"]
    assert list(err["fields"]) == ["items[0].big_blind"]
    assert levels(tournament) == before


def test_a_document_of_another_version_is_refused(director_api, tournament):
    r = director_api.post(
        base(tournament) + "/document", {"format": "tourney.structure", "version": 2, "items": []}
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "unsupported_version"


def test_post_text_imports_it(director_api, tournament):
    r = director_api.post(base(tournament) + "/text", {"text": "20; 1,000; 2,000; 2,000 BBA\n"})
    assert r.status_code == 200
    assert levels(tournament) == [("level", 1000, 2000, 0, 2000, 1200, [])]


def test_bad_text_is_400_with_a_field_per_line(director_api, tournament):
    before = levels(tournament)
    r = director_api.post(
        base(tournament) + "/text", {"text": "20, 100, 200\nbreak\n20, 400, 300\n"}
    )
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "bad_structure_text"
    assert list(err["fields"]) == ["line 2", "line 3"]
    assert err["fields"]["line 3"].startswith("the big blind 300 is below the small blind 400")
    assert levels(tournament) == before


def test_chip_problems_of_text_are_named_by_line(director_api, tournament):
    r = director_api.post(base(tournament) + "/text", {"text": "20, 100, 200\n20, 130, 260\n"})
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "bad_structure"
    assert set(err["fields"]) == {"line 2"}


def test_409_when_the_clock_has_played_an_item_the_file_changes(director_api, director, tournament):
    services.clock_action(tournament_id=tournament.pk, action="start", actor=director)
    before = levels(tournament)
    r = director_api.post(base(tournament) + "/text", {"text": "20, 25, 50\n"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "structure_past"
    assert levels(tournament) == before


def test_the_desk_cannot_import(desk_api, tournament):
    r = desk_api.post(base(tournament) + "/text", {"text": "20, 25, 50\n"})
    assert r.status_code == 403
