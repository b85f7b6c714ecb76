"""Issue 5: the color-up endpoints (RULES 5): GET the color-up under way and the rack plan,
POST a table's chip race, undo it, finish the color-up."""

from __future__ import annotations

import pytest

from tables.models import Seat
from tourney import services
from tourney.models import ChipDenomination, Event, Tournament

pytestmark = pytest.mark.django_db

STACKS = 20 * 20000


@pytest.fixture
def at_break(seated_tournament, director):
    t = seated_tournament
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="jump", index=1, actor=director)
    services.clock_action(tournament_id=t.pk, action="pause", actor=director)
    t.refresh_from_db()
    return t


def _seats(t: Tournament, table: int) -> list[int]:
    return list(
        Seat.objects.filter(tournament=t, table__number=table)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _url(t: Tournament, table: int) -> str:
    return f"/api/v1/tournaments/{t.pk}/tables/{table}/chip-race"


def test_race_a_table_with_the_dealers_cards(at_break, director_api):
    a, b, c = _seats(at_break, 1)[:3]
    body = {
        "remove": 25,
        "odd_chips": {str(a): 3, str(b): 2, str(c): 1},
        "whole_stack": {str(c): True},
        "cards": {str(a): ["2c", "3d", "4h"], str(b): ["As", "2d"], str(c): ["Kd"]},
    }

    r = director_api.post(_url(at_break, 1), body)

    assert r.status_code == 201, r.content
    data = r.json()
    assert data["table"] == 1
    assert (data["remove"], data["unit"], data["awarded"]) == (25, 100, 2)
    assert (data["value_added"], data["value_removed"], data["chips_delta"]) == (50, 0, 50)
    players = {p["seat"]: p for p in data["players"]}
    assert players[b]["won"] == 1 and players[c]["won"] == 1 and players[a]["won"] == 0
    assert players[b]["chips"] == {"100": 1}
    assert players[c]["whole_stack"] is True and players[c]["protected"] is False
    assert players[a]["cards"] == ["2c", "3d", "4h"]
    at_break.refresh_from_db()
    assert at_break.chips_color_up_delta == 50
    assert Event.objects.filter(kind="chip_race", undone=False).count() == 1

    got = director_api.get(f"/api/v1/tournaments/{at_break.pk}/color-up").json()
    assert got["total_chips"] == STACKS + 50
    assert got["average_stack"] == (2 * (STACKS + 50) + 20) // 40  # nearest, RULES 10.8
    assert [r["table"] for r in got["races"]] == [1]
    assert got["races"][0]["players"] == data["players"]
    assert {row["table"]: row["raced"] for row in got["tables"]} == {1: [25], 2: [], 3: []}


def test_a_second_race_is_refused_with_409(at_break, director_api):
    seat = _seats(at_break, 2)[0]
    body = {"remove": 25, "odd_chips": {str(seat): 1}, "seed": 4}
    assert director_api.post(_url(at_break, 2), body).status_code == 201
    at_break.refresh_from_db()
    delta = at_break.chips_color_up_delta

    r = director_api.post(_url(at_break, 2), body)

    assert r.status_code == 409
    assert r.json()["error"]["code"] == "already_raced"
    at_break.refresh_from_db()
    assert at_break.chips_color_up_delta == delta
    assert Event.objects.filter(kind="chip_race").count() == 1

    undo = director_api.post(_url(at_break, 2) + "/undo", {"remove": 25})
    assert undo.status_code == 200 and undo.json()["chips_delta"] == -delta
    at_break.refresh_from_db()
    assert at_break.chips_color_up_delta == 0
    assert director_api.post(_url(at_break, 2), body).status_code == 201


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"remove": 25, "odd_chips": {"99": 1}}, 400, "unknown_seat"),
        ({"remove": 25, "odd_chips": {"SEAT": -1}}, 400, "bad_odd_chips"),
        ({"remove": 25, "odd_chips": {"SEAT": 4}}, 400, "bad_odd_chips"),
        ({"remove": 25, "odd_chips": {"one": 1}}, 400, "bad_input"),
        ({"remove": 30}, 400, "unknown_denomination"),
        ({"remove": 0}, 400, "bad_input"),
        ({"remove": 25, "odd_chips": {"SEAT": "lots"}}, 400, "bad_input"),
        ({"remove": 25, "odd_chips": {"SEAT": 1}, "cards": {"SEAT": ["2c", "2c"]}}, 400, None),
    ],
)
def test_bad_input_is_a_400_and_changes_nothing(at_break, director_api, body, status, code):
    seat = str(_seats(at_break, 1)[0])
    body = {
        k: (
            {(seat if s == "SEAT" else s): v for s, v in val.items()}
            if isinstance(val, dict)
            else val
        )
        for k, val in body.items()
    }
    version = at_break.version

    r = director_api.post(_url(at_break, 1), body)

    assert r.status_code == status, r.content
    error = r.json()["error"]
    assert error["message"]
    if code:
        assert error["code"] == code
    at_break.refresh_from_db()
    assert at_break.chips_color_up_delta == 0 and at_break.version == version
    assert not Event.objects.filter(kind="chip_race").exists()


def test_unknown_table_and_tournament_are_404(at_break, director_api):
    assert director_api.post(_url(at_break, 9), {"remove": 25}).status_code == 404
    r = director_api.post("/api/v1/tournaments/99999/tables/1/chip-race", {"remove": 25})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert director_api.get("/api/v1/tournaments/99999/color-up").status_code == 404


def test_finish_after_every_table_raced(at_break, director_api):
    finish = f"/api/v1/tournaments/{at_break.pk}/color-up/finish"
    for table in (1, 2):
        assert (
            director_api.post(_url(at_break, table), {"remove": 25, "seed": 1}).status_code == 201
        )

    early = director_api.post(finish, {"denominations": [25]})
    assert early.status_code == 409
    assert early.json()["error"]["fields"] == {"tables": {"25": [3]}}
    assert ChipDenomination.objects.get(tournament=at_break, value=25).in_play is True

    assert director_api.post(_url(at_break, 3), {"remove": 25, "seed": 1}).status_code == 201
    r = director_api.post(finish, {"denominations": [25]})

    assert r.status_code == 200, r.content
    data = r.json()
    assert data["removed"] == [25] and data["in_play"][0] == 100
    assert data["total_chips"] == STACKS and data["average_stack"] == STACKS // 20
    assert ChipDenomination.objects.get(tournament=at_break, value=25).in_play is False
    assert Event.objects.filter(kind="color_up_finished").count() == 1
    again = director_api.post(_url(at_break, 1), {"remove": 25, "seed": 1})
    assert again.status_code == 409 and again.json()["error"]["code"] == "denomination_not_in_play"


def test_rack_plan(at_break, director_api):
    seat = _seats(at_break, 1)[0]
    body = {"remove": 25, "odd_chips": {str(seat): 2}, "cards": {str(seat): ["Ah", "Kh"]}}
    assert director_api.post(_url(at_break, 1), {**body, "counted": 42}).status_code == 201

    r = director_api.get(f"/api/v1/tournaments/{at_break.pk}/color-up/rack-plan")

    assert r.status_code == 200
    plan = r.json()
    assert plan["new_smallest"] == 100
    table_1 = plan["tables"][0]
    assert table_1["table"] == 1
    assert table_1["races"][0] == {
        "remove": 25,
        "unit": 100,
        "raced": True,
        "race_chips": 1,
        "direct_chips": 10,
        "needed": 11,
    }
    assert plan["totals"][0]["tables_not_raced"] == [2, 3]


def test_desk_reads_but_cannot_race_or_finish(at_break, desk_api):
    assert desk_api.get(f"/api/v1/tournaments/{at_break.pk}/color-up").status_code == 200
    assert desk_api.get(f"/api/v1/tournaments/{at_break.pk}/color-up/rack-plan").status_code == 200

    race = desk_api.post(_url(at_break, 1), {"remove": 25, "seed": 1})
    undo = desk_api.post(_url(at_break, 1) + "/undo", {"remove": 25})
    finish = desk_api.post(
        f"/api/v1/tournaments/{at_break.pk}/color-up/finish", {"denominations": [25], "force": True}
    )

    for r in (race, undo, finish):
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert not Event.objects.filter(kind__in=["chip_race", "color_up_finished"]).exists()
    assert ChipDenomination.objects.get(tournament=at_break, value=25).in_play is True


def test_anonymous_gets_401(at_break, anon_api):
    assert anon_api.get(f"/api/v1/tournaments/{at_break.pk}/color-up").status_code == 401
    assert anon_api.post(_url(at_break, 1), {"remove": 25, "seed": 1}).status_code == 401


def test_the_api_undo_takes_back_a_finish_then_a_race(at_break, director_api):
    """POST /undo (the last action) after a color-up: the finish, then the race, each with
    the chips it changed (RULES 5.9); the answer names the action undone."""
    seat = _seats(at_break, 1)[0]
    race = director_api.post(
        _url(at_break, 1),
        {"remove": 25, "odd_chips": {str(seat): 2}, "cards": {str(seat): ["Ah", "Kh"]}},
    ).json()
    finish = director_api.post(
        f"/api/v1/tournaments/{at_break.pk}/color-up/finish", {"denominations": [25], "force": True}
    ).json()
    undo = f"/api/v1/tournaments/{at_break.pk}/undo"

    r = director_api.post(undo)

    assert r.status_code == 200, r.content
    assert r.json() == {"undid": finish["event"], "kind": "color_up_finished"}
    assert ChipDenomination.objects.get(tournament=at_break, value=25).in_play is True
    state = director_api.get(f"/api/v1/tournaments/{at_break.pk}/color-up").json()
    assert state["total_chips"] == STACKS + 50 and [r["table"] for r in state["races"]] == [1]

    r = director_api.post(undo)

    assert r.json() == {"undid": race["event"], "kind": "chip_race"}
    state = director_api.get(f"/api/v1/tournaments/{at_break.pk}/color-up").json()
    assert state["total_chips"] == STACKS and state["races"] == []


def test_a_seed_and_the_dealers_cards_together_are_refused(at_break, director_api):
    seat = _seats(at_break, 1)[0]
    r = director_api.post(
        _url(at_break, 1),
        {"remove": 25, "seed": 3, "odd_chips": {str(seat): 1}, "cards": {str(seat): ["Ah"]}},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "no_deal"
    assert not Event.objects.filter(kind="chip_race").exists()
