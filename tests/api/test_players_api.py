"""Issue 27: the player database through the JSON API (docs/api.md "Players, leagues and
points"): search, add, read with the history and league points, edit, merge, removal of a
person's data, CSV import and export; the room's actions and their undo; the roles; every
refusal with its code and nothing changed."""

from __future__ import annotations

import json
from datetime import timedelta

import jsonschema_rs
import pytest

from tests.conftest import ApiClient
from tests.services.test_leagues import T0, _players, _season, play
from tourney.api import api
from tourney.models import Entry, Event, Player
from tourney.tokens import token_create

pytestmark = pytest.mark.django_db

DOC = api.get_openapi_schema()
PLAYERS = "/api/v1/players"
ACTIONS = "/api/v1/room/actions"


def _matches(method: str, path: str, body, status: int = 200) -> bool:
    operation = DOC["paths"][f"/api/v1/{path}"][method]
    schema = operation["responses"][status]["content"]["application/json"]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": DOC["components"]}).is_valid(body)


def patch(client: ApiClient, path: str, body):
    return client.client.patch(
        path, data=json.dumps(body), content_type="application/json", **client.headers
    )


def _state() -> tuple:
    players = list(Player.objects.order_by("pk").values())
    entries = list(Entry.objects.order_by("pk").values_list("pk", "player_id"))
    return players, entries, Event.objects.count()


def _error(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.content
    body = r.json()["error"]
    assert body["code"] == code, body
    return body


@pytest.fixture
def stranger_api(stranger) -> ApiClient:
    return ApiClient(token_create(user=stranger))


def _add(api_client, **fields) -> dict:
    r = api_client.post(PLAYERS, fields)
    assert r.status_code == 201, r.content
    return r.json()


# ---------------------------------------------------------------- the desk's


def test_the_desk_adds_finds_reads_and_edits_a_player(desk_api, director_api):
    body = _add(desk_api, name="  Ann   Lee ", email="ann@example.org", membership="M-7")
    assert _matches("post", "players", body, 201)
    p = Player.objects.get()
    assert body == {
        "id": p.pk,
        "name": "Ann Lee",
        "nickname": "",
        "email": "ann@example.org",
        "phone": "",
        "membership": "M-7",
        "notes": "",
        "photo": False,
        "merged_into": None,
        "anonymised": False,
        "created": p.created_at.isoformat(),
        "action": Event.objects.get(kind="player_created").pk,
    }
    _add(desk_api, name="Bob Ray")
    r = desk_api.get(f"{PLAYERS}?q=m-7")
    assert r.status_code == 200 and _matches("get", "players", r.json())
    found = r.json()
    assert (found["total"], found["limit"]) == (1, 200)
    assert found["players"] == [{**{k: v for k, v in body.items() if k != "action"}, "entries": 0}]
    assert [x["name"] for x in desk_api.get(PLAYERS).json()["players"]] == ["Ann Lee", "Bob Ray"]

    r = patch(desk_api, f"{PLAYERS}/{p.pk}", {"nickname": "Annie", "phone": "+44 1"})
    assert r.status_code == 200, r.content
    assert _matches("patch", "players/{player_id}", r.json())
    changed = r.json()
    assert (changed["name"], changed["nickname"], changed["phone"]) == ("Ann Lee", "Annie", "+44 1")
    assert changed["email"] == "ann@example.org"  # left out: kept
    assert changed["action"] == Event.objects.get(kind="player_updated").pk
    r = patch(desk_api, f"{PLAYERS}/{p.pk}", {"email": None})
    assert r.json()["email"] == ""

    r = desk_api.get(f"{PLAYERS}/{p.pk}")
    assert r.status_code == 200 and _matches("get", "players/{player_id}", r.json())
    assert r.json()["history"] == []
    assert r.json()["totals"] == {"events": 0, "wins": 0, "cashes": 0, "winnings": 0, "bounties": 0}

    # the director undoes the first edit: the nickname and phone go back, not the later email
    r = director_api.post(f"{ACTIONS}/{changed['action']}/undo")
    _error(r, 409, "stale_undo")
    last = Event.objects.filter(kind="player_updated").latest("pk")
    assert director_api.post(f"{ACTIONS}/{last.pk}/undo").json() == {
        "undid": last.pk,
        "kind": "player_updated",
    }
    r = director_api.post(f"{ACTIONS}/{changed['action']}/undo")
    assert r.status_code == 200, r.content
    p.refresh_from_db()
    assert (p.nickname, p.phone, p.email) == ("", "", "ann@example.org")


def test_a_players_history_shows_the_points_of_a_season(director, desk_api):
    ann, bob, cat = _players("Ann Lee", "Bob Ray", "Cat Fox")
    season = _season(director, scoring="place_table", points_table="10 6 3")
    one = play(director, [ann, bob, cat], out=[[ann], [bob]], season=season)  # Cat wins
    two = play(director, [cat, ann, bob], out=[[cat], [bob]], name="Two", at=T0 + timedelta(1))
    r = desk_api.get(f"{PLAYERS}/{cat.pk}")
    assert r.status_code == 200, r.content
    rows = {row["tournament"]: row for row in r.json()["history"]}
    assert [row["tournament"] for row in r.json()["history"]] == [two.pk, one.pk]
    assert rows[one.pk] == {
        "tournament": one.pk,
        "name": "Thursday",
        "date": one.created_at.isoformat(),
        "status": "finished",
        "place": 1,
        "place_to": 1,
        "prize": rows[one.pk]["prize"],
        "bounties": 0,
        "entries": 1,
        "rebuys": 0,
        "addons": 0,
        "season": season.pk,
        "points": "10.00",
    }
    assert rows[one.pk]["prize"] > 0
    assert (rows[two.pk]["season"], rows[two.pk]["points"], rows[two.pk]["place"]) == (
        None,
        None,
        3,
    )
    assert r.json()["totals"]["events"] == 2 and r.json()["totals"]["wins"] == 1


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"name": " "}, "name", "bad_input"),
        ({"name": "Ann", "email": "not-an-email"}, "email", "bad_input"),
        ({"name": "Ann\x07"}, "name", "bad_input"),
        ({"name": "A" * 121}, "name", "bad_input"),
        ({"name": "Ann", "photo": "x.png"}, "photo", "bad_input"),  # the API takes no photo
        ({"name": "Ann", "membership": "m-1"}, "membership", "membership_taken"),
    ],
)
def test_a_refused_player_writes_nothing(desk_api, body, field, code):
    _add(desk_api, name="Zed", membership="M-1")
    other = _add(desk_api, name="Yan")
    before = _state()
    assert field in _error(desk_api.post(PLAYERS, body), 400, code)["fields"]
    assert field in _error(patch(desk_api, f"{PLAYERS}/{other['id']}", body), 400, code)["fields"]
    assert _state() == before
