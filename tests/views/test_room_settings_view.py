"""The room's settings page (issue 28, RULES 13): the name and the floor plan typed as ranges,
the tables in use by event, a refusal shown in place with what was typed, the changes with
their undo; directors only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tourney import services
from tourney.models import Event, Room
from tourney.services import room as room_writes

pytestmark = pytest.mark.django_db

URL = "/td/room/"


def test_the_url_and_who_may_open_it(client, desk_clerk, td):
    assert reverse("tourney-room") == URL
    assert td.get(URL).status_code == 200
    client.force_login(desk_clerk)
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"name": "x", "floor_plan": "1"}).status_code == 403
    assert Room.objects.filter(name="x").count() == 0


def test_the_page_shows_the_plan_and_the_tables_in_use(td, director):
    room_writes.room_update(name="Riverside", floor_plan="31-33, 1-4", actor=director)
    services.tournament_create(actor=director, name="Main Event", tables=3, seed=1)
    html = td.get(URL).content.decode()
    assert 'value="Riverside"' in html
    assert ">31-33, 1-4</textarea>" in html
    assert "Tables in use now (3)" in html
    assert "<td>31–33</td>" in html
    assert 'class="rule-ref"' in html  # RULES 13.1 linked to the rule book


def test_saving_redirects_and_keeps_the_plan(td):
    r = td.post(URL, {"name": "Casino", "floor_plan": "1-10, 20"})
    assert r.status_code == 302 and r["Location"] == URL + "?saved=1"
    room = Room.get()
    assert (room.name, room.floor_plan) == ("Casino", [*range(1, 11), 20])
    assert 'id="room-saved"' in td.get(r["Location"]).content.decode()


def test_a_refusal_shows_in_place_with_what_was_typed(td, director):
    services.tournament_create(actor=director, name="Main Event", tables=2, seed=1)
    r = td.post(URL, {"name": "Casino", "floor_plan": "1, 5-9"})
    assert r.status_code == 409
    html = r.content.decode()
    message = room_writes.MSG_IN_USE % {"numbers": "2", "using": "Main Event (2)"}
    assert message in html
    assert ">1, 5-9</textarea>" in html
    r = td.post(URL, {"name": "Casino", "floor_plan": "1-3 ten"})
    assert r.status_code == 400
    assert "“ten” is not a table number" in r.content.decode()
    assert Room.get().floor_plan == []


def test_undo_of_a_change_from_the_page(td):
    td.post(URL, {"name": "A", "floor_plan": "1-3"})
    td.post(URL, {"name": "B", "floor_plan": "1-5"})
    last = Event.objects.filter(kind="room_updated").latest("pk")
    html = td.get(URL).content.decode()
    assert f'name="undo" value="{last.pk}"' in html
    assert td.post(URL, {"undo": str(last.pk)}).status_code == 302
    room = Room.get()
    assert (room.name, room.floor_plan) == ("A", [1, 2, 3])
    r = td.post(URL, {"undo": str(last.pk)})
    assert r.status_code == 409  # undone already
    assert td.post(URL, {"undo": "12x"}).status_code == 400
