"""Issue 28, API: the events a desk registers into (GET /room/events-open) and a full event's
waiting list (POST /tournaments/{tid}/waiting-list), with their refusals and roles."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tourney import services
from tourney.models import Entry, Event, Player

pytestmark = pytest.mark.django_db

API = "/api/v1"


def _event(director, name, *, seats=9, auto=True, **options):
    return services.tournament_create(
        actor=director,
        name=name,
        seats_per_table=seats,
        tables=1,
        buy_in=5000,
        fee=500,
        seed=3,
        options={"auto_open_tables": auto, **options},
    )


@pytest.fixture
def full(director):
    t = _event(director, "Turbo", seats=2, auto=False)
    for name in ("Bea One", "Bea Two"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    return t


def test_events_open_lists_seats_alternates_price_and_start(desk_api, director, full):
    start = timezone.now().replace(microsecond=0) + timedelta(hours=2)
    main = _event(director, "Main", bounty_kind="fixed", bounty=2000, starts_at=start)
    r = desk_api.get(f"{API}/room/events-open")
    assert r.status_code == 200
    events = {e["id"]: e for e in r.json()["events"]}
    assert set(events) == {full.pk, main.pk}
    assert events[main.pk] == {
        "id": main.pk,
        "name": "Main",
        "status": "setup",
        "status_text": "registering",
        "level": None,
        "starts_at": timezone.localtime(start, main.zone).isoformat(),
        "seats_left": 9,
        "new_tables": True,
        "alternates": 0,
        "full": False,
        "entries": 0,
        "price": 7500,
        "prize_pool": 5000,
        "bounty": 2000,
        "fee": 500,
        "registration_open": True,
        "late_reg_level": None,
        "action": "register",
    }
    assert events[full.pk]["full"] is True and events[full.pk]["action"] == "waiting_list"
    assert events[full.pk]["starts_at"] is None
    r = desk_api.get(f"{API}/room/events-open?exclude={main.pk}")
    assert [e["id"] for e in r.json()["events"]] == [full.pk]
    assert desk_api.get(f"{API}/room/events-open?exclude=0").status_code == 400


def test_a_player_joins_the_waiting_list_201_with_the_place(desk_api, full):
    ann = Player.objects.create(name="Ann Lee")
    r = desk_api.post(f"{API}/tournaments/{full.pk}/waiting-list", {"player_id": ann.pk})
    assert r.status_code == 201, r.content
    entry = Entry.objects.get(tournament=full, player=ann)
    assert r.json() == {
        "id": entry.pk,
        "number": 3,
        "name": "Ann Lee",
        "player_id": ann.pk,
        "status": "alternate",
        "place": 1,
        "table": None,
        "seat": None,
        "waits_for_button": False,
    }
    r = desk_api.post(f"{API}/tournaments/{full.pk}/waiting-list", {"name": "Cy New"})
    assert r.status_code == 201 and r.json()["place"] == 2


def _refused(api, tid, body, status, code):
    before = (Entry.objects.count(), Event.objects.count(), Player.objects.count())
    r = api.post(f"{API}/tournaments/{tid}/waiting-list", body)
    assert r.status_code == status, r.content
    assert r.json()["error"]["code"] == code
    assert (Entry.objects.count(), Event.objects.count(), Player.objects.count()) == before
    return r.json()["error"]


def test_waiting_list_refusals_change_nothing(desk_api, director, full):
    ann = Player.objects.create(name="Ann Lee")
    desk_api.post(f"{API}/tournaments/{full.pk}/waiting-list", {"player_id": ann.pk})
    err = _refused(desk_api, full.pk, {"player_id": ann.pk}, 409, "player_in_play")
    assert err["fields"]["place"] == 1
    roomy = _event(director, "Roomy")
    err = _refused(desk_api, roomy.pk, {"name": "Dee"}, 409, "seats_open")
    assert err["fields"] == {"seats_left": 9, "new_tables": True}
    _refused(desk_api, full.pk, {}, 400, "bad_input")
    _refused(desk_api, full.pk, {"name": "x" * 121}, 400, "bad_input")
    _refused(desk_api, full.pk, {"player_id": 0}, 400, "bad_input")
    _refused(desk_api, full.pk, {"player_id": 10**9}, 404, "not_found")
    _refused(desk_api, 10**9, {"name": "Dee"}, 404, "not_found")
    services.registration_close(tournament_id=full.pk, actor=director)
    _refused(desk_api, full.pk, {"name": "Dee"}, 409, "registration_closed")


def test_roles(anon_api, director, full, stranger):
    from tests.conftest import ApiClient
    from tourney.tokens import token_create

    assert anon_api.get(f"{API}/room/events-open").status_code == 401
    stranger_api = ApiClient(token_create(user=stranger))
    assert stranger_api.get(f"{API}/room/events-open").status_code == 403
    r = stranger_api.post(f"{API}/tournaments/{full.pk}/waiting-list", {"name": "Z"})
    assert r.status_code == 403
    assert not Player.objects.filter(name="Z").exists()


def test_the_waiting_list_sent_twice_with_its_key_is_one_alternate(desk_api, full):
    import json

    path = f"{API}/tournaments/{full.pk}/waiting-list"
    headers = {**desk_api.headers, "HTTP_IDEMPOTENCY_KEY": "wait-gus-1"}
    body = {"data": json.dumps({"name": "Gus"}), "content_type": "application/json"}
    first = desk_api.client.post(path, **body, **headers)
    second = desk_api.client.post(path, **body, **headers)
    assert (first.status_code, second.status_code) == (201, 201)
    assert second["Idempotent-Replayed"] == "true" and second.json() == first.json()
    assert Entry.objects.filter(tournament=full, status=Entry.Status.ALTERNATE).count() == 1
