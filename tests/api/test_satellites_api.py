"""RULES 12 through the API: a satellite created with its target, the tournament read with its
satellite fields (absent for any other), the tickets of a satellite and of a target, a ticket
registering its player at the target's desk, a refund with its reason, a transfer refused,
the satellite's deal, the undo of each through POST .../undo, the roles and every refusal
with its code and nothing changed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.models import Entry, Event, Tournament
from tourney.room_models import Ticket

pytestmark = pytest.mark.django_db


def _create(api, **body):
    base = {
        "name": "Event",
        "tables": 2,
        "starting_stack": 20000,
        "buy_in": 1000,
        "fee": 100,
        "seed": 5,
        "levels": TWO_LEVELS,
    }
    return api.post("/api/v1/tournaments", {**base, **body})


@pytest.fixture
def target(director_api):
    r = _create(director_api, name="Main event", buy_in=5000, fee=500)
    assert r.status_code == 201
    return Tournament.objects.get(pk=r.json()["id"])


@pytest.fixture
def sat(director_api, target, director):
    r = _create(director_api, name="Satellite", satellite_target=target.pk)
    assert r.status_code == 201
    t = Tournament.objects.get(pk=r.json()["id"])
    for i in range(12):
        services.entry_register(tournament_id=t.pk, name=f"Sat P{i + 1:02d}", actor=director)
    return t


def _bust_down_to(t, left, director):
    while True:
        seated = list(
            Entry.objects.filter(tournament=t, status=Entry.Status.SEATED).order_by("number")
        )
        if len(seated) <= left:
            return
        services.elimination_record(tournament_id=t.pk, busts=[(seated[-1].pk, 1)], actor=director)


def _code(r) -> str:
    return r.json()["error"]["code"]


def test_create_and_read_a_satellite_other_reads_unchanged(director_api, target, sat):
    body = director_api.get(f"/api/v1/tournaments/{sat.pk}").json()
    assert (body["satellite_target"], body["seat_value"], body["tickets_transferable"]) == (
        target.pk,
        0,
        False,
    )
    plain = director_api.get(f"/api/v1/tournaments/{target.pk}").json()
    assert not {"satellite_target", "seat_value", "tickets_transferable"} & set(plain)


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"satellite_target": 10**9}, "bad_satellite", 404),
        ({"seat_value": 100}, "bad_satellite", 409),
        ({"tickets_transferable": True}, "bad_satellite", 409),
    ],
)
def test_create_refused(director_api, target, body, code, status):
    n = Tournament.objects.count()
    r = _create(director_api, name="Bad sat", **body)
    assert (r.status_code, _code(r)) == (status, code)
    assert Tournament.objects.count() == n


def test_tickets_read_and_the_deal_and_its_undo(director_api, desk_api, sat, target, director):
    body = desk_api.get(f"/api/v1/tournaments/{sat.pk}/tickets").json()
    assert body["satellite"] == {
        "target": target.pk,
        "target_name": "Main event",
        "seat_value": 5500,
        "seats": 2,
        "cash": 1000,
        "cash_place": 3,
        "seats_won": 0,
        "seats_left": 2,
        "players_left": 12,
        "deal_possible": False,
        "tickets_transferable": False,
    }
    assert (body["won"], body["into"]) == ([], [])
    r = director_api.post(f"/api/v1/tournaments/{sat.pk}/satellite-deal")
    assert (r.status_code, _code(r)) == (409, "deal_counts")
    assert r.json()["error"]["fields"] == {"players_left": 12, "seats_left": 2}
    _bust_down_to(sat, 2, director)
    r = desk_api.post(f"/api/v1/tournaments/{sat.pk}/satellite-deal")
    assert r.status_code == 403
    r = director_api.post(f"/api/v1/tournaments/{sat.pk}/satellite-deal")
    assert r.status_code == 200
    deal = r.json()
    assert (deal["seats"], deal["value"], len(deal["tickets"])) == (2, 5500, 2)
    won = desk_api.get(f"/api/v1/tournaments/{sat.pk}/tickets").json()["won"]
    assert [t["status"] for t in won] == ["issued", "issued"]
    assert won[0]["label"] == f"ticket from satellite #{sat.pk}"
    into = desk_api.get(f"/api/v1/tournaments/{target.pk}/tickets").json()
    assert into["satellite"] is None and [t["id"] for t in into["into"]] == deal["tickets"]
    r = director_api.post(f"/api/v1/tournaments/{sat.pk}/undo")
    assert r.status_code == 200 and r.json()["kind"] == "satellite_deal"
    assert Ticket.objects.filter(satellite=sat).count() == 0
    sat.refresh_from_db()
    assert sat.status != Tournament.Status.FINISHED


def test_register_refund_transfer(director_api, desk_api, sat, target, director):
    _bust_down_to(sat, 1, director)
    first, second = Ticket.objects.filter(satellite=sat).order_by("pk")
    r = desk_api.post(f"/api/v1/tickets/{first.pk}/register")
    assert r.status_code == 201
    entry = Entry.objects.get(pk=r.json()["id"])
    assert entry.tournament_id == target.pk and r.json()["ticket"] == first.pk
    assert r.json()["name"] == first.player.name and r.json()["table"] is not None
    again = desk_api.post(f"/api/v1/tickets/{first.pk}/register")
    assert (again.status_code, _code(again)) == (409, "ticket_used")
    # a refund: the director's, with a reason
    r = desk_api.post(f"/api/v1/tickets/{second.pk}/refund", {"reason": "x"})
    assert r.status_code == 403
    r = director_api.post(f"/api/v1/tickets/{second.pk}/refund", {"reason": ""})
    assert (r.status_code, _code(r)) == (400, "bad_input")
    r = director_api.post(f"/api/v1/tickets/{first.pk}/refund", {"reason": "late"})
    assert (r.status_code, _code(r)) == (409, "ticket_not_issued")
    r = director_api.post(f"/api/v1/tickets/{second.pk}/transfer", {"player_id": entry.player_id})
    assert (r.status_code, _code(r)) == (409, "ticket_not_transferable")
    r = director_api.post(f"/api/v1/tickets/{second.pk}/refund", {"reason": "Leaves town"})
    assert r.status_code == 200
    assert (r.json()["status"], r.json()["refund_reason"]) == ("refunded", "Leaves town")
    assert r.json()["refunded_at"] is not None
    r = director_api.post(f"/api/v1/tournaments/{sat.pk}/undo")
    assert r.status_code == 200 and r.json()["kind"] == "ticket_refunded"
    second.refresh_from_db()
    assert second.status == "issued"
    # the satellite's last bust cannot be undone while its ticket is used at the target
    r = director_api.post(f"/api/v1/tournaments/{sat.pk}/undo")
    assert (r.status_code, _code(r)) == (409, "ticket_used")
    assert Ticket.objects.filter(satellite=sat).count() == 2
    # the target's undo takes the registration back and frees the ticket
    r = director_api.post(f"/api/v1/tournaments/{target.pk}/undo")
    assert r.status_code == 200 and r.json()["kind"] == "ticket_used"
    first.refresh_from_db()
    assert (first.status, first.used_by_id) == ("issued", None)
    assert not Entry.objects.filter(pk=entry.pk).exists()


def test_satellite_put_sets_and_undoes(director_api, desk_api, target):
    r = _create(director_api, name="Later")
    t = r.json()["id"]
    body = {"satellite_target": target.pk, "seat_value": 6000, "tickets_transferable": True}
    assert desk_api.put(f"/api/v1/tournaments/{t}/satellite", body).status_code == 403
    r = director_api.put(f"/api/v1/tournaments/{t}/satellite", body)
    assert r.status_code == 200 and r.json() == body
    r = director_api.put(f"/api/v1/tournaments/{target.pk}/satellite", {"satellite_target": t})
    assert (r.status_code, _code(r)) == (409, "bad_satellite")
    assert director_api.post(f"/api/v1/tournaments/{t}/undo").json()["kind"] == "satellite_set"
    assert Tournament.objects.get(pk=t).satellite_target_id is None


def test_unknown_ids_are_404(director_api, desk_api):
    for ticket in (1, 2**40, 2**70):
        r = desk_api.post(f"/api/v1/tickets/{ticket}/register")
        assert (r.status_code, _code(r)) == (404, "ticket_not_found")
        r = director_api.post(f"/api/v1/tickets/{ticket}/refund", {"reason": "x"})
        assert r.status_code == 404


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(reason=st.text(max_size=600), player=st.integers(-(2**70), 2**70))
def test_any_reason_or_player_never_a_server_error(director_api, sat, director, reason, player):
    ticket = Ticket.objects.filter(satellite=sat).first()
    if ticket is None:
        _bust_down_to(sat, 1, director)
        ticket = Ticket.objects.filter(satellite=sat).first()
    events = Event.objects.count()
    r = director_api.post(f"/api/v1/tickets/{ticket.pk}/transfer", {"player_id": player})
    assert r.status_code < 500 and Event.objects.count() == events
    r = director_api.post(f"/api/v1/tickets/{ticket.pk}/refund", {"reason": reason})
    assert r.status_code < 500
    if r.status_code == 200:
        assert director_api.post(f"/api/v1/tournaments/{sat.pk}/undo").status_code == 200
