"""Issue 26: multi-day events through the JSON API (RULES 10, docs/api.md "Multi-day
events"): the event created with its flights, its read, bag and tag table by table and its
close, Day 2 built and seated; the roles; every refusal with its code and nothing changed;
a three-flight event run through the API alone; undo of a bag and of Day 2's seating."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import jsonschema_rs
import pytest
import time_machine

from tables.models import Table
from tests.conftest import TWO_LEVELS
from tourney.api import api
from tourney.models import ChipCount, Entry, Event, MultiDayEvent, Tournament

pytestmark = pytest.mark.django_db

DOC = api.get_openapi_schema()
EVENTS = "/api/v1/events"
T0 = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def _matches(method: str, path: str, body, status: int) -> bool:
    operation = DOC["paths"][f"/api/v1/{path}"][method]
    schema = operation["responses"][status]["content"]["application/json"]["schema"]
    return jsonschema_rs.validator_for({**schema, "components": DOC["components"]}).is_valid(body)


def _body(**kw) -> dict:
    body = {
        "name": "Main Event",
        "flights": ["A", "B", "C"],
        "levels": TWO_LEVELS,
        "tables": 1,
        "seats_per_table": 9,
        "starting_stack": 20000,
        "buy_in": 10000,
        "fee": 1000,
        "seed": 11,
        "late_reg_until": 0,  # registration closes when the clock leaves level 1
        "end_at_players": 3,
    }
    body.update(kw)
    return body


def _create(director_api, **kw) -> dict:
    r = director_api.post(EVENTS, _body(**kw))
    assert r.status_code == 201, r.content
    return r.json()


def _bags(tid: int) -> str:
    return f"/api/v1/tournaments/{tid}/bags"


def _register(desk_api, tid: int, players) -> list[dict]:
    """Register each of ``players`` (a name, or a player id to enter a known player)."""
    out = []
    for p in players:
        body = {"player_id": p} if isinstance(p, int) else {"name": p}
        r = desk_api.post(f"/api/v1/tournaments/{tid}/entries", body)
        assert r.status_code == 201, r.content
        out.append(r.json())
    return out


def _play_down(director_api, tid: int, bust: list[int]) -> None:
    """Start the clock, move it past level 1 (registration closes, RULES 4.4) and bust
    ``bust`` one hand at a time, through the API: the flight ends at its field (RULES 10.2)."""
    for action in ("start", "next"):
        r = director_api.post(f"/api/v1/tournaments/{tid}/clock", {"action": action})
        assert r.status_code == 200, r.content
    for entry in bust:
        r = director_api.post(
            f"/api/v1/tournaments/{tid}/eliminations",
            {"entries": [{"id": entry, "starting_stack": 500}]},
        )
        assert r.status_code == 200, r.content


def _ended_flight(director_api, desk_api, flights=("A",)) -> tuple[dict, list[dict]]:
    """A flight of five, played down to three: the event and the three entries still in."""
    event = _create(director_api, flights=list(flights))
    tid = event["flights"][0]["tournament"]
    entries = _register(desk_api, tid, ["Ann Lee", "Bob Ray", "Cy Young", "Dee Park", "Eve Moss"])
    _play_down(director_api, tid, [entries[0]["id"], entries[1]["id"]])
    return event, entries[2:]


def _bag_table(director_api, tid: int, counts: dict[int, int], table: int | None = None):
    if table is None:  # the flight's one table: its number is the room's (RULES 13.1)
        table = Table.objects.filter(tournament_id=tid).order_by("number")[0].number
    body = {"table": table, "counts": [{"entry": e, "chips": c} for e, c in counts.items()]}
    return director_api.post(_bags(tid), body)


# ---------------------------------------------------------------- the event (RULES 10.1)


def test_the_director_creates_an_event_and_the_desk_reads_it(director_api, desk_api):
    body = _create(director_api, end_at_level=2)
    assert _matches("post", "events", body, 201)
    a, b, c = (f["tournament"] for f in body["flights"])
    assert body == {
        "id": MultiDayEvent.objects.get().pk,
        "name": "Main Event",
        "policy": "largest",
        "pays_on_day1": False,
        "end_at_level": 2,
        "end_at_players": 3,
        "flights": [
            {
                "tournament": tid,
                "letter": letter,
                "name": f"Main Event Day 1{letter}",
                "status": "setup",
                "entries": 0,
                "players_in": 0,
                "ended": None,
                "bagged": False,
                "bags": 0,
                "bagged_chips": 0,
                "qualified": 0,
                "qualified_chips": 0,
            }
            for tid, letter in ((a, "A"), (b, "B"), (c, "C"))
        ],
        "entries": 0,
        "players_in": 0,
        "all_bagged": False,
        "day2_players": 0,
        "day2_chips": 0,
        "forfeited": [],
        "pool": 0,
        "prizes": None,
        "money_error": "",
        "day2": None,
    }
    r = desk_api.get(f"{EVENTS}/{body['id']}")
    assert r.status_code == 200 and r.json() == body
    # RULES 10.2: level 2 is the structure's item 2 (a break between); the read says 2
    assert Tournament.objects.get(pk=a).end_at_level == 2
    read = desk_api.get(f"/api/v1/tournaments/{b}").json()
    assert _matches("get", "tournaments/{tid}", read, 200)
    assert {k: read[k] for k in ("multi_day_event", "day", "flight", "bagged")} == {
        "multi_day_event": body["id"],
        "day": 1,
        "flight": "B",
        "bagged": False,
    }
    assert (read["end_at_level"], read["end_at_players"], read["seed"]) == (2, 3, 12)


def test_a_tournament_of_no_event_reads_as_before(tournament, desk_api):
    read = desk_api.get(f"/api/v1/tournaments/{tournament.pk}").json()
    assert not {"multi_day_event", "day", "flight", "end_at_level", "bagged"} & set(read)


def test_without_levels_the_level_number_counts_the_regular_presets_levels(director_api):
    body = _create(director_api, levels=None, flights=["A"], end_at_level=6)
    t = Tournament.objects.get(pk=body["flights"][0]["tournament"])
    assert t.end_at_level == 6  # level 6 comes after the break that follows level 5
    assert body["end_at_level"] == 6


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"pays_on_day1": True}, "pays_on_day1", "pays_on_day1"),
        ({"end_at_players": None}, "no_flight_end", None),
        ({"end_at_level": 3}, "bad_input", "end_at_level"),  # two levels only
        ({"end_at_level": 0}, "bad_input", "end_at_level"),
        ({"flights": ["A", "A"]}, "bad_input", "flights"),
        ({"flights": []}, "bad_input", "flights"),
        ({"flights": ["A", "TOO-LONG-1"]}, "bad_input", "flights"),
        ({"policy": "biggest"}, "unknown_policy", "policy"),
        ({"bounty_kind": "fixed", "bounty": 500}, "no_bounties", "bounty_kind"),
        ({"name": ""}, "bad_input", "name"),
    ],
)
def test_event_refusals_create_nothing(director_api, change, code, field):
    r = director_api.post(EVENTS, _body(**change))
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert error["code"] == code
    if field:
        assert field in error["fields"]
    assert not MultiDayEvent.objects.exists() and not Tournament.objects.exists()


def test_roles_for_the_event(director_api, desk_api, anon_api):
    assert desk_api.post(EVENTS, _body()).status_code == 403
    assert anon_api.post(EVENTS, _body()).status_code == 401
    assert not MultiDayEvent.objects.exists()
    event = _create(director_api)
    assert anon_api.get(f"{EVENTS}/{event['id']}").status_code == 401
    r = desk_api.get(f"{EVENTS}/{event['id'] + 1}")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = desk_api.post(f"{EVENTS}/{event['id']}/day2", {"tables": 1})
    assert r.status_code == 403
    assert anon_api.post(f"{EVENTS}/{event['id']}/day2", {"tables": 1}).status_code == 401


# ---------------------------------------------------------------- bag and tag (RULES 10.4)


def test_bags_table_by_table_then_closed(director_api, desk_api):
    _, still = _ended_flight(director_api, desk_api)
    tid = Tournament.objects.get(flight="A").pk
    first = desk_api.get(_bags(tid)).json()
    assert _matches("get", "tournaments/{tid}/bags", first, 200)
    assert first["status"]["ended"] == "players" and first["report"] == []
    assert first["status"]["missing"] == sorted(e["id"] for e in still)
    counts = {still[0]["id"]: 41000, still[1]["id"]: 30000, still[2]["id"]: 28000}
    r = _bag_table(director_api, tid, counts)
    assert r.status_code == 201, r.content
    body = r.json()
    assert _matches("post", "tournaments/{tid}/bags", body, 201)
    seat = {e["id"]: e["seat"] for e in still}
    assert body["recorded"] == sorted(
        ({"entry": e, "chips": c, "table": 1, "seat": seat[e]} for e, c in counts.items()),
        key=lambda x: x["seat"],
    )
    assert body["status"] == {
        "tournament": tid,
        "flight": "A",
        "ended": "players",
        "bagged": False,
        "tables": [{"table": 1, "players": 3, "chips": 99000}],
        "counted": 99000,
        "chips_in_play": 100000,
        "difference": -1000,
        "missing": [],
        "not_in": [],
    }
    report = desk_api.get(_bags(tid)).json()["report"]
    assert [(x["rank"], x["entry"], x["chips"], x["name"]) for x in report] == [
        (1, still[0]["id"], 41000, "Cy Young"),
        (2, still[1]["id"], 30000, "Dee Park"),
        (3, still[2]["id"], 28000, "Eve Moss"),
    ]
    by_seat = sorted(report, key=lambda x: x["seat"])
    assert [x["label"] for x in by_seat] == [1, 2, 3]
    entry = Entry.objects.get(pk=still[0]["id"])
    assert (report[0]["player"], report[0]["number"]) == (entry.player_id, entry.number)
    r = director_api.post(f"{_bags(tid)}/close")
    assert r.status_code == 200, r.content
    closed = r.json()
    assert _matches("post", "tournaments/{tid}/bags/close", closed, 200)
    assert closed["bagged"] is True and closed["difference"] == -1000
    assert Event.objects.get(tournament_id=tid, kind="flight_bagged").payload["difference"] == -1000
    assert desk_api.get(f"/api/v1/tournaments/{tid}").json()["bagged"] is True


def test_a_flight_ends_at_its_last_level_and_bags(director_api, desk_api):
    """RULES 10.2 by the clock: level 1 is the last; the director cannot move past it, and
    once its time is up the flight has ended and its players bag."""
    event = _create(director_api, flights=["A"], end_at_players=None, end_at_level=1)
    tid = event["flights"][0]["tournament"]
    clock = f"/api/v1/tournaments/{tid}/clock"
    with time_machine.travel(T0, tick=False):
        entries = _register(desk_api, tid, ["Ann Lee", "Bob Ray"])
        assert director_api.post(clock, {"action": "start"}).status_code == 200
        r = director_api.post(clock, {"action": "next"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "flight_ended"
        assert desk_api.get(_bags(tid)).json()["status"]["ended"] is None
    with time_machine.travel(T0 + timedelta(minutes=21), tick=False):
        assert desk_api.get(_bags(tid)).json()["status"]["ended"] == "level"
        # The clock reads as the screens show it: finished at the end of its last level.
        read = desk_api.get(clock).json()
        assert (read["status"], read["level_number"], read["remaining_ms"]) == ("finished", 1, 0)
        assert read["next"] is None
        r = _bag_table(director_api, tid, {e["id"]: 20000 for e in entries})
        assert r.status_code == 201, r.content
        assert r.json()["status"]["difference"] == 0
        assert director_api.post(f"{_bags(tid)}/close").json()["bagged"] is True


def _bag_state():
    return list(ChipCount.objects.order_by("pk").values_list("entry_id", "chips", "table"))


@pytest.mark.parametrize(
    ("bad", "status", "code"),
    [
        ("not_at_table", 409, "not_at_table"),
        ("no_table", 404, "no_table"),
        ("zero", 400, "bad_count"),
        ("negative", 400, "bad_input"),
        ("twice", 400, "duplicate_entry"),
        ("no_counts", 400, "bad_input"),
        ("table_text", 400, "bad_input"),
    ],
)
def test_bag_refusals_change_nothing(director_api, desk_api, bad, status, code):
    _, still = _ended_flight(director_api, desk_api)
    tid = Tournament.objects.get(flight="A").pk
    _bag_table(director_api, tid, {still[0]["id"]: 50000})
    before, events = _bag_state(), Event.objects.count()
    busted = Entry.objects.filter(tournament_id=tid, status="busted").first().pk
    a, b = still[1]["id"], still[2]["id"]
    body = {
        "not_at_table": {"table": 1, "counts": [{"entry": busted, "chips": 100}]},
        "no_table": {"table": 9, "counts": [{"entry": a, "chips": 100}]},
        "zero": {"table": 1, "counts": [{"entry": a, "chips": 0}]},
        "negative": {"table": 1, "counts": [{"entry": a, "chips": -5}]},
        "twice": {"table": 1, "counts": [{"entry": a, "chips": 5}, {"entry": a, "chips": 6}]},
        "no_counts": {"table": 1, "counts": []},
        "table_text": {"table": "one", "counts": [{"entry": b, "chips": 5}]},
    }[bad]
    r = director_api.post(_bags(tid), body)
    assert r.status_code == status, r.content
    assert r.json()["error"]["code"] == code
    assert _bag_state() == before and Event.objects.count() == events


def test_bags_wait_for_the_end_and_stop_once_closed(director_api, desk_api, tournament):
    event = _create(director_api, flights=["A"])
    tid = event["flights"][0]["tournament"]
    (e,) = _register(desk_api, tid, ["Early Bird"])
    r = _bag_table(director_api, tid, {e["id"]: 20000})
    assert r.status_code == 409 and r.json()["error"]["code"] == "flight_not_ended"
    r = _bag_table(director_api, tournament.pk, {1: 20000})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_a_flight"
    r = desk_api.get(_bags(tournament.pk))
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_a_flight"
    assert desk_api.get(_bags(99999)).status_code == 404
    assert not ChipCount.objects.exists()


def test_close_refused_while_a_player_has_no_bag(director_api, desk_api):
    _, still = _ended_flight(director_api, desk_api)
    tid = Tournament.objects.get(flight="A").pk
    _bag_table(director_api, tid, {still[0]["id"]: 50000})
    events = Event.objects.count()
    r = director_api.post(f"{_bags(tid)}/close")
    assert r.status_code == 409, r.content
    error = r.json()["error"]
    assert error["code"] == "counts_missing"
    assert error["fields"]["missing"] == sorted([still[1]["id"], still[2]["id"]])
    assert not Tournament.objects.get(pk=tid).bagged and Event.objects.count() == events
    _bag_table(director_api, tid, {e["id"]: 25000 for e in still})
    assert director_api.post(f"{_bags(tid)}/close").status_code == 200
    again = director_api.post(f"{_bags(tid)}/close")
    assert again.status_code == 409 and again.json()["error"]["code"] == "flight_bagged"
    r = _bag_table(director_api, tid, {still[0]["id"]: 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "flight_bagged"


def test_roles_for_the_bags(director_api, desk_api, anon_api):
    _, still = _ended_flight(director_api, desk_api)
    tid = Tournament.objects.get(flight="A").pk
    body = {"table": 1, "counts": [{"entry": still[0]["id"], "chips": 100}]}
    assert desk_api.post(_bags(tid), body).status_code == 403
    assert anon_api.post(_bags(tid), body).status_code == 401
    assert desk_api.post(f"{_bags(tid)}/close").status_code == 403
    assert anon_api.get(_bags(tid)).status_code == 401
    assert not ChipCount.objects.exists()


def test_undo_of_a_bag_through_the_api(director_api, desk_api):
    _, still = _ended_flight(director_api, desk_api)
    tid = Tournament.objects.get(flight="A").pk
    _bag_table(director_api, tid, {e["id"]: 33000 for e in still})
    first = _bag_state()
    _bag_table(director_api, tid, {still[0]["id"]: 34000})  # a recount of table 1
    assert _bag_state() == [(still[0]["id"], 34000, 1)]
    r = director_api.post(f"/api/v1/tournaments/{tid}/undo")
    assert r.status_code == 200, r.content
    assert r.json()["kind"] == "bags_recorded"
    assert _bag_state() == first
    status = desk_api.get(_bags(tid)).json()["status"]
    assert (status["counted"], status["missing"]) == (99000, [])
    director_api.post(f"/api/v1/tournaments/{tid}/undo")
    assert not ChipCount.objects.exists()
    assert desk_api.get(_bags(tid)).json()["status"]["missing"] == sorted(e["id"] for e in still)


def test_a_bag_sent_twice_with_its_key_is_recorded_once(director_api, desk_api):
    _, still = _ended_flight(director_api, desk_api)
    tid = Tournament.objects.get(flight="A").pk
    body = {"table": 1, "counts": [{"entry": still[0]["id"], "chips": 40000}]}
    headers = {"HTTP_IDEMPOTENCY_KEY": "bag-table-1", **director_api.headers}
    sent = [
        director_api.client.post(_bags(tid), data=body, content_type="application/json", **headers)
        for _ in range(2)
    ]
    assert [r.status_code for r in sent] == [201, 201]
    assert sent[1]["Idempotent-Replayed"] == "true" and sent[0].json() == sent[1].json()
    assert Event.objects.filter(tournament_id=tid, kind="bags_recorded").count() == 1


# ---------------------------------------------------------------- Day 2 (RULES 10.3, 10.5)


def _flight_bagged(director_api, desk_api, tid: int, players, chips: dict[str, int]) -> dict:
    """Register ``players``, bust the first two, bag the three left with ``chips`` (by name)
    at their one table and close the bags, all through the API. The chip report by name."""
    entries = _register(desk_api, tid, players)
    _play_down(director_api, tid, [entries[0]["id"], entries[1]["id"]])
    by_name = {e["name"]: e["id"] for e in entries[2:]}
    r = _bag_table(director_api, tid, {by_name[n]: c for n, c in chips.items()})
    assert r.status_code == 201, r.content
    assert r.json()["status"]["difference"] == 0
    assert director_api.post(f"{_bags(tid)}/close").status_code == 200
    return {x["name"]: x for x in desk_api.get(_bags(tid)).json()["report"]}


def _three_flights(director_api, desk_api, bag_c=True) -> tuple[dict, dict]:
    """The issue's case, through the API alone: three flights of five, played down to three;
    Sam bags in all three flights, Sue in A and B (RULES 10.3)."""
    event = _create(director_api)
    a, b, c = (f["tournament"] for f in event["flights"])
    ra = _flight_bagged(
        director_api,
        desk_api,
        a,
        ["Al One", "Al Two", "Sam Shared", "Sue Shared", "Al Three"],
        {"Sam Shared": 40000, "Sue Shared": 30000, "Al Three": 30000},
    )
    sam, sue = ra["Sam Shared"]["player"], ra["Sue Shared"]["player"]
    _flight_bagged(
        director_api,
        desk_api,
        b,
        ["Bo One", "Bo Two", sam, sue, "Bo Three"],
        {"Sam Shared": 20000, "Sue Shared": 50000, "Bo Three": 30000},
    )
    if bag_c:
        _flight_bagged(
            director_api,
            desk_api,
            c,
            ["Cy One", "Cy Two", sam, "Cy Three", "Cy Four"],
            {"Sam Shared": 40000, "Cy Three": 35000, "Cy Four": 25000},
        )
    return event, {"A": a, "B": b, "C": c}


KEPT = {  # RULES 10.3, largest stack forward: each player's biggest bag, the earlier on a tie
    "Sam Shared": ("A", 40000),
    "Sue Shared": ("B", 50000),
    "Al Three": ("A", 30000),
    "Bo Three": ("B", 30000),
    "Cy Three": ("C", 35000),
    "Cy Four": ("C", 25000),
}


def test_three_flights_through_the_api_to_day2(director_api, desk_api):
    event, flights = _three_flights(director_api, desk_api)
    read = desk_api.get(f"{EVENTS}/{event['id']}").json()
    assert _matches("get", "events/{event_id}", read, 200)
    assert [
        (f["letter"], f["bags"], f["qualified"], f["qualified_chips"]) for f in read["flights"]
    ] == [
        ("A", 3, 2, 70000),
        ("B", 3, 2, 80000),
        ("C", 3, 2, 60000),
    ]
    assert all(f["ended"] == "players" and f["bagged"] for f in read["flights"])
    assert (read["entries"], read["players_in"], read["all_bagged"]) == (15, 9, True)
    assert (read["day2_players"], read["day2_chips"]) == (6, 210000)
    forfeited = [
        (f["player"], f["flight"], f["chips"], f["kept_flight"], f["kept_chips"], f["reason"])
        for f in read["forfeited"]
    ]
    assert forfeited == [  # in flight order
        ("Sue Shared", "A", 30000, "B", 50000, "smaller_stack"),
        ("Sam Shared", "B", 20000, "A", 40000, "smaller_stack"),
        ("Sam Shared", "C", 40000, "A", 40000, "same_stack_later_flight"),
    ]
    # RULES 10.6: the pool is every flight's money (15 entries of 10,000), paid on Day 2
    assert read["pool"] == 150000 and sum(read["prizes"]) == 150000
    assert read["money_error"] == "" and read["day2"] is None

    r = director_api.post(f"{EVENTS}/{event['id']}/day2", {"tables": 2, "seats_per_table": 6})
    assert r.status_code == 201, r.content
    built = r.json()
    assert _matches("post", "events/{event_id}/day2", built, 201)
    day2 = built["tournament"]
    assert {k: day2[k] for k in ("multi_day_event", "day", "flight", "registration_open")} == {
        "multi_day_event": event["id"],
        "day": 2,
        "flight": None,
        "registration_open": False,
    }
    seats = built["seats"]
    assert [s["name"] for s in seats] == sorted(KEPT)  # the seat draw by name
    assert {s["name"]: (s["flight"], s["chips"]) for s in seats} == KEPT  # the bags kept
    assert {(s["table"], s["seat"]) for s in seats} == {
        (e.seat.table.number, e.seat.number)
        for e in Entry.objects.filter(tournament_id=day2["id"]).select_related("seat__table")
    }
    assert sorted(sum(1 for s in seats if s["table"] == n) for n in (1, 2)) == [3, 3]
    bags = {(x.entry_id, x.chips) for x in ChipCount.objects.filter(bag=True)}
    assert all((s["bag_entry"], s["chips"]) in bags for s in seats)
    read = desk_api.get(f"{EVENTS}/{event['id']}").json()
    assert read["day2"] == {
        "tournament": day2["id"],
        "name": "Main Event Day 2",
        "status": "setup",
        "players": 6,
        "chips": 210000,
    }
    money = desk_api.get(f"/api/v1/tournaments/{day2['id']}/money").json()
    assert money["prize_pool"] == 150000 == sum(p["prize"] for p in money["prizes"])
    for tid in flights.values():  # the flights pay nothing themselves
        assert desk_api.get(f"/api/v1/tournaments/{tid}/money").json()["prizes"] == []


def test_day2_refusals_change_nothing(director_api, desk_api):
    event, flights = _three_flights(director_api, desk_api, bag_c=False)
    url = f"{EVENTS}/{event['id']}/day2"
    r = director_api.post(url, {"tables": 2})
    assert r.status_code == 409, r.content
    assert r.json()["error"]["code"] == "flights_not_bagged"
    assert r.json()["error"]["fields"] == {"flights": ["C"]}
    r = director_api.post(f"{EVENTS}/{event['id'] + 1}/day2", {"tables": 2})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = director_api.post(url, {"tables": 2, "seats_per_table": 1})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_input"
    r = director_api.post(f"/api/v1/tournaments/{flights['A']}/day2/seat")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_day2"
    assert not Tournament.objects.filter(day=2).exists()


def test_day2_refuses_a_table_paying_below_its_field(director_api, desk_api):
    event = _create(director_api, flights=["A"])
    tid = event["flights"][0]["tournament"]
    Tournament.objects.filter(pk=tid).update(payout_percentages=[4000, 3000, 2000, 1000])
    chips = {"C": 40000, "D": 30000, "E": 30000}
    _flight_bagged(director_api, desk_api, tid, ["A", "B", "C", "D", "E"], chips)
    r = director_api.post(f"{EVENTS}/{event['id']}/day2", {"tables": 1})
    assert r.status_code == 409, r.content
    assert r.json()["error"]["code"] == "paid_below_day2"
    assert not Tournament.objects.filter(day=2).exists()
    assert desk_api.get(f"{EVENTS}/{event['id']}").json()["money_error"] != ""


def test_day2_seating_undone_and_seated_again_through_the_api(director_api, desk_api):
    event, _ = _three_flights(director_api, desk_api)
    url = f"{EVENTS}/{event['id']}/day2"
    d2 = director_api.post(url, {"tables": 1, "seats_per_table": 9}).json()["tournament"]["id"]
    r = director_api.post(url, {"tables": 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "day2_exists"
    seat = f"/api/v1/tournaments/{d2}/day2/seat"
    r = director_api.post(seat)
    assert r.status_code == 409 and r.json()["error"]["code"] == "day2_seated"
    assert desk_api.post(seat).status_code == 403
    r = director_api.post(f"/api/v1/tournaments/{d2}/undo")
    assert r.status_code == 200 and r.json()["kind"] == "day2_seated"
    assert not Entry.objects.filter(tournament_id=d2).exists()
    assert desk_api.get(f"{EVENTS}/{event['id']}").json()["day2"]["players"] == 0
    r = director_api.post(seat)
    assert r.status_code == 200, r.content
    assert _matches("post", "tournaments/{tid}/day2/seat", r.json(), 200)
    assert {s["name"]: (s["flight"], s["chips"]) for s in r.json()["seats"]} == KEPT
    assert Entry.objects.filter(tournament_id=d2).count() == 6


def test_ids_beyond_the_database_are_refused(director_api, desk_api):
    huge = 10**30
    for r in (
        desk_api.get(f"{EVENTS}/{huge}"),
        desk_api.get(_bags(huge)),
        director_api.post(f"{EVENTS}/{huge}/day2", {"tables": 1}),
        director_api.post(f"/api/v1/tournaments/{huge}/day2/seat"),
        director_api.post(_bags(huge), {"table": 1, "counts": [{"entry": 1, "chips": 1}]}),
    ):
        assert r.status_code in (400, 404), r.content
        assert r.json()["error"]["code"] in ("bad_input", "not_found")
    r = director_api.post(EVENTS, _body(name="N" * 107))  # no room for " Day 1" and a letter
    assert r.status_code == 400 and "name" in r.json()["error"]["fields"]
    assert not Tournament.objects.exists()


# ---------------------------------------------------------------- a flight's end (RULES 10.2)


def test_the_director_changes_a_flights_end_and_undoes_it(director_api, desk_api):
    event = _create(director_api, flights=["A"], end_at_players=None, end_at_level=1)
    tid = event["flights"][0]["tournament"]
    url = f"/api/v1/tournaments/{tid}/flight-end"
    r = director_api.post(url, {"end_at_level": 2, "end_at_players": 5})
    assert r.status_code == 200, r.content
    assert (r.json()["end_at_level"], r.json()["end_at_players"]) == (2, 5)
    t = Tournament.objects.get(pk=tid)
    assert t.end_at_level == 2  # level 2 comes after the break: item 2
    for body, status, code in [
        ({"end_at_level": 2, "end_at_players": 5}, 400, "unchanged"),
        ({"end_at_level": 9}, 400, "bad_input"),
        ({}, 400, "no_flight_end"),
        ({"end_at_level": "two"}, 400, "bad_input"),
    ]:
        r = director_api.post(url, body)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), body
    assert desk_api.post(url, {"end_at_level": 1}).status_code == 403
    r = director_api.post(f"/api/v1/tournaments/{tid}/undo")
    assert r.json()["kind"] == "flight_end_set"
    t.refresh_from_db()
    assert (t.end_at_level, t.end_at_players) == (0, None)


def test_day2_starts_at_the_level_the_director_names(director_api, desk_api):
    event, still = _ended_flight(director_api, desk_api)
    tid = event["flights"][0]["tournament"]
    _bag_table(director_api, tid, {e["id"]: 33000 for e in still})
    director_api.post(f"{_bags(tid)}/close")
    url = f"/api/v1/events/{event['id']}/day2"
    r = director_api.post(url, {"tables": 1, "start_level": 9})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_input")
    assert not Tournament.objects.filter(day=2).exists()
    r = director_api.post(url, {"tables": 1, "start_level": 2})
    assert r.status_code == 201, r.content
    day2 = Tournament.objects.get(pk=r.json()["tournament"]["id"])
    clock = desk_api.get(f"/api/v1/tournaments/{day2.pk}/clock").json()
    assert (clock["status"], clock["level_number"]) == ("not_started", 2)
