"""The room's settings (RULES 13.2): its name and floor plan, saved as a room action the room's
undo takes back; a plan that leaves out a table in use is refused, naming the event."""

from __future__ import annotations

import pytest

from tourney import services
from tourney.core.room_journal import room_undo
from tourney.engine.errors import DomainError
from tourney.models import Event, Room
from tourney.services import room as room_writes


@pytest.mark.django_db
def test_the_plan_typed_as_ranges_is_saved_in_order(director):
    room = room_writes.room_update(name=" Casino ", floor_plan="31-33, 1-2", actor=director)
    room.refresh_from_db()
    assert room.name == "Casino"
    assert room.floor_plan == [31, 32, 33, 1, 2]
    event = Event.objects.get(kind="room_updated")
    assert event.tournament_id is None
    assert event.payload["floor_plan"] == "31-33, 1-2"


@pytest.mark.django_db
def test_a_list_of_numbers_is_checked_like_text(director):
    room_writes.room_update(name="", floor_plan=[5, 6, 1], actor=director)
    assert Room.get().floor_plan == [5, 6, 1]
    with pytest.raises(DomainError) as exc:
        room_writes.room_update(name="", floor_plan=[5, 5], actor=director)
    assert exc.value.code == "bad_floor_plan"
    with pytest.raises(DomainError) as exc:
        room_writes.room_update(name="", floor_plan=["5"], actor=director)
    assert exc.value.message == room_writes.MSG_PLAN_TYPE


@pytest.mark.django_db
def test_a_bad_plan_changes_nothing(director):
    room_writes.room_update(name="Casino", floor_plan="1-4", actor=director)
    with pytest.raises(DomainError) as exc:
        room_writes.room_update(name="Other", floor_plan="1-4, z", actor=director)
    assert exc.value.code == "bad_floor_plan"
    room = Room.get()
    assert (room.name, room.floor_plan) == ("Casino", [1, 2, 3, 4])
    assert Event.objects.filter(kind="room_updated").count() == 1


@pytest.mark.django_db
def test_a_plan_leaving_out_a_table_in_use_is_refused(director):
    room_writes.room_update(name="", floor_plan="1-6", actor=director)
    services.tournament_create(actor=director, name="Main", tables=4, seed=1)
    with pytest.raises(DomainError) as exc:
        room_writes.room_update(name="", floor_plan="1-2, 5-10", actor=director)
    assert exc.value.code == "table_in_use"
    assert exc.value.status == 409
    assert exc.value.message == room_writes.MSG_IN_USE % {"numbers": "3, 4", "using": "Main (3, 4)"}
    assert Room.get().floor_plan == [1, 2, 3, 4, 5, 6]
    room_writes.room_update(name="", floor_plan="4-1, 9", actor=director)  # every one kept
    assert Room.get().floor_plan == [4, 3, 2, 1, 9]


@pytest.mark.django_db
def test_the_rooms_undo_puts_the_plan_back(director):
    room_writes.room_update(name="A", floor_plan="1-3", actor=director)
    room_writes.room_update(name="B", floor_plan="", actor=director)
    assert Room.get().floor_plan == []
    last = Event.objects.filter(kind="room_updated").latest("pk")
    room_undo(event_id=last.pk, actor=director)
    room = Room.get()
    assert (room.name, room.floor_plan) == ("A", [1, 2, 3])


@pytest.mark.django_db
def test_a_long_name_is_refused(director):
    with pytest.raises(DomainError) as exc:
        room_writes.room_update(name="x" * 121, floor_plan="", actor=director)
    assert exc.value.code == "bad_name"
