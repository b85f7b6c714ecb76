"""Issue 29: announcements through the API (docs/api_part_announcements.md): the director
announces a text and reads the latest, reads and changes the announcement settings; bad input
answers 400 with nothing written; the desk and strangers are refused; the answers match the
OpenAPI document."""

from __future__ import annotations

import jsonschema_rs
import pytest

from tourney.api import api
from tourney.feed_models import Announcement
from tourney.models import Event

pytestmark = pytest.mark.django_db

DOC = api.get_openapi_schema()


def _matches(method: str, path: str, body, status: int) -> bool:
    operation = DOC["paths"][f"/api/v1/{path}"][method]
    schema = operation["responses"][status]["content"]["application/json"]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": DOC["components"]}).is_valid(body)


def _url(t, what: str = "announcements") -> str:
    return f"/api/v1/tournaments/{t.pk}/{what}"


def test_the_director_announces_and_reads_the_latest_first(director_api, tournament):
    r = director_api.post(_url(tournament), {"text": " Seat open at table 7 "})
    assert r.status_code == 201, r.content
    body = r.json()
    assert (body["text"], body["by"]) == ("Seat open at table 7", "td")
    assert _matches("post", "tournaments/{tid}/announcements", body, 201)
    director_api.post(_url(tournament), {"text": "Last hand at table 3"})
    listed = director_api.get(_url(tournament)).json()
    assert [a["text"] for a in listed["announcements"]] == [
        "Last hand at table 3",
        "Seat open at table 7",
    ]
    assert _matches("get", "tournaments/{tid}/announcements", listed, 200)
    assert Event.objects.filter(tournament=tournament, kind="announced").count() == 2


@pytest.mark.parametrize("body", [{"text": ""}, {"text": "x" * 301}, {"text": "a\x00b"}, {}])
def test_bad_text_is_refused_and_nothing_is_written(director_api, tournament, body):
    r = director_api.post(_url(tournament), body)
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "bad_input"
    assert Announcement.objects.count() == 0


def test_the_desk_and_strangers_are_refused(desk_api, anon_api, tournament):
    assert desk_api.post(_url(tournament), {"text": "Hi"}).status_code == 403
    assert desk_api.get(_url(tournament, "announce-settings")).status_code == 403
    assert anon_api.post(_url(tournament), {"text": "Hi"}).status_code == 401
    assert Announcement.objects.count() == 0


def test_an_unknown_tournament_is_a_404(director_api, tournament):
    r = director_api.post(f"/api/v1/tournaments/{tournament.pk + 99}/announcements", {"text": "x"})
    assert r.status_code == 404


def test_the_settings_change_read_back_and_undo(director_api, tournament):
    url = _url(tournament, "announce-settings")
    body = director_api.get(url).json()
    assert body["language"] == "" and body["speech"] is True
    assert body["templates"]["level"] == ""
    assert body["defaults"]["colorup"] == "We are coloring up the %(chips)s chips."
    assert _matches("get", "tournaments/{tid}/announce-settings", body, 200)
    r = director_api.put(url, {"language": "es", "speech": False, "templates": {"break": "Pausa."}})
    assert r.status_code == 200, r.content
    body = r.json()
    assert (body["language"], body["speech"], body["templates"]["break"]) == ("es", False, "Pausa.")
    assert body["defaults"]["colorup"] == "Hacemos el cambio de color de las fichas de %(chips)s."
    assert _matches("put", "tournaments/{tid}/announce-settings", body, 200)
    tournament.refresh_from_db()
    assert tournament.language == "es" and tournament.announce_templates == {"break": "Pausa."}
    assert director_api.post(f"/api/v1/tournaments/{tournament.pk}/undo").status_code == 200
    tournament.refresh_from_db()
    assert (tournament.language, tournament.announce_speech) == ("", True)


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"templates": {"break": "Break %(mins)s"}}, "bad_template", "break"),
        ({"templates": {"jingle": "la"}}, "bad_template", None),
        ({"language": "fr"}, "bad_input", "language"),
        ({"templates": {"level": 5}}, "bad_input", None),
    ],
)
def test_bad_settings_answer_400_and_change_nothing(director_api, tournament, body, code, field):
    r = director_api.put(_url(tournament, "announce-settings"), body)
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert error["code"] == code
    if field:
        assert field in error["fields"]
    tournament.refresh_from_db()
    assert (tournament.language, tournament.announce_templates) == ("", {})
    assert not Event.objects.filter(tournament=tournament, kind="settings_changed").exists()
