"""The room's API (issue 28, RULES 13): its name, floor plan and tables in use; the plan's
write, refused with a code for a bad plan or a table in use; the home's rows with alerts."""

from __future__ import annotations

import pytest

from tourney import services
from tourney.models import Event, Room
from tourney.services import room as room_writes

pytestmark = pytest.mark.django_db


def test_the_room_read_lists_the_tables_in_use(desk_api, director):
    t = services.tournament_create(actor=director, name="Main", tables=2, seed=1)
    r = desk_api.get("/api/v1/room")
    assert r.status_code == 200
    assert r.json() == {
        "name": "",
        "floor_plan": [],
        "tables_in_use": [
            {"number": 1, "tournament_id": t.pk},
            {"number": 2, "tournament_id": t.pk},
        ],
    }


def test_put_sets_the_plan_from_ranges_or_numbers(director_api):
    r = director_api.put("/api/v1/room", {"name": "Casino", "floor_plan": "11-13, 2"})
    assert r.status_code == 200
    assert r.json()["floor_plan"] == [11, 12, 13, 2]
    r = director_api.put("/api/v1/room", {"name": "Casino", "floor_plan": [5, 4]})
    assert r.status_code == 200
    room = Room.get()
    assert (room.name, room.floor_plan) == ("Casino", [5, 4])
    assert Event.objects.filter(kind="room_updated").count() == 2


def test_a_bad_plan_is_400_with_its_code(director_api):
    r = director_api.put("/api/v1/room", {"name": "", "floor_plan": "1-3, 2"})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "bad_floor_plan"
    assert error["fields"]["floor_plan"] == error["message"]
    r = director_api.put("/api/v1/room", {"name": "", "floor_plan": [0]})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_floor_plan"
    assert Room.get().floor_plan == []


def test_a_plan_leaving_out_a_table_in_use_is_409(director_api, director):
    services.tournament_create(actor=director, name="Main", tables=3, seed=1)
    r = director_api.put("/api/v1/room", {"name": "", "floor_plan": "1-2"})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "table_in_use"
    assert r.json()["error"]["message"] == room_writes.MSG_IN_USE % {
        "numbers": "3",
        "using": "Main (3)",
    }


def test_the_desk_cannot_write_the_room(desk_api):
    assert desk_api.put("/api/v1/room", {"name": "x", "floor_plan": []}).status_code == 403


def test_no_free_table_is_409_on_table_open(director_api, director):
    room_writes.room_update(name="", floor_plan="1-2", actor=director)
    services.tournament_create(actor=director, name="Main", tables=2, seed=1)
    r = director_api.post("/api/v1/tournaments", {"name": "Turbo", "tables": 1})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "no_free_table"


def test_the_home_rows_with_their_alerts(desk_api, director):
    t = services.tournament_create(actor=director, name="Main", tables=1, seed=1)
    for i in range(3):
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="set", seconds=60, actor=director)
    r = desk_api.get("/api/v1/room/tournaments")
    assert r.status_code == 200
    (row,) = r.json()["tournaments"]
    assert row["id"] == t.pk and row["name"] == "Main"
    assert row["starts_at"] is None
    assert row["status"] == "running"
    assert row["level"]["number"] == 1 and row["level"]["kind"] == "level"
    assert 0 < row["remaining_ms"] <= 60_000
    assert (row["players_left"], row["entries"], row["tables"]) == (3, 3, [1])
    assert row["clock_running"] is True
    assert [a["code"] for a in row["alerts"]] == ["level_ending"]
    assert "display_token" not in row
