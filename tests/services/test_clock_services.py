"""Issue 4: clock services and API (RULES 4.2–4.4). Time is moved with time-machine."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Event

T0 = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)
LEVELS = [
    {"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 20},
    {"kind": "level", "small_blind": 50, "big_blind": 100, "minutes": 20},
    {"kind": "break", "minutes": 10, "color_up": [25]},
    {"kind": "level", "small_blind": 100, "big_blind": 200, "big_blind_ante": 200, "minutes": 20},
]

pytestmark = pytest.mark.django_db


@pytest.fixture
def t(director):
    return services.tournament_create(
        actor=director, name="Clock", tables=0, levels=LEVELS, options={"late_reg_until": 1}
    )


def _clock(api, t):
    r = api.get(f"/api/v1/tournaments/{t.pk}/clock")
    assert r.status_code == 200
    return r.json()


def test_clock_counts_down_from_anchors_not_a_counter(t, director, director_api):
    with time_machine.travel(T0, tick=False):
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    with time_machine.travel(T0 + timedelta(minutes=5, milliseconds=250), tick=False):
        c = _clock(director_api, t)
    assert (c["status"], c["level_index"], c["remaining_ms"]) == ("running", 0, 899_750)
    assert c["level"]["big_blind"] == 50 and c["next"]["big_blind"] == 100
    assert c["server_time"] == "2026-11-29T19:05:00.250Z"


def test_boundary_is_exact_to_the_millisecond(t, director, director_api):
    with time_machine.travel(T0, tick=False):
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    with time_machine.travel(T0 + timedelta(minutes=20) - timedelta(milliseconds=1), tick=False):
        c = _clock(director_api, t)
        assert (c["level_index"], c["remaining_ms"]) == (0, 1)
    with time_machine.travel(T0 + timedelta(minutes=20), tick=False):
        c = _clock(director_api, t)
        assert (c["level_index"], c["remaining_ms"]) == (1, 1_200_000)


def test_pause_resume_adjust_and_jump(t, director, director_api):
    tid = t.pk
    with time_machine.travel(T0, tick=False):
        services.clock_action(tournament_id=tid, action="start", actor=director)
    with time_machine.travel(T0 + timedelta(minutes=3), tick=False):
        r = director_api.post(f"/api/v1/tournaments/{tid}/clock", {"action": "pause"})
        assert r.status_code == 200 and r.json()["status"] == "paused"
    with time_machine.travel(T0 + timedelta(hours=2), tick=False):
        c = _clock(director_api, t)
        assert (c["status"], c["remaining_ms"]) == ("paused", 17 * 60_000)
        r = director_api.post(f"/api/v1/tournaments/{tid}/clock", {"action": "resume"})
        r = director_api.post(
            f"/api/v1/tournaments/{tid}/clock", {"action": "adjust", "seconds": 60}
        )
        assert r.json()["remaining_ms"] == 18 * 60_000
        r = director_api.post(
            f"/api/v1/tournaments/{tid}/clock", {"action": "adjust", "seconds": -3600}
        )
        # removing more than is left ends the item now (RULES 4.3)
        assert (r.json()["level_index"], r.json()["remaining_ms"]) == (1, 1_200_000)
        r = director_api.post(f"/api/v1/tournaments/{tid}/clock", {"action": "next"})
        assert r.json()["level_index"] == 2 and r.json()["level"]["kind"] == "break"
        r = director_api.post(f"/api/v1/tournaments/{tid}/clock", {"action": "previous"})
        assert r.json()["level_index"] == 1
    kinds = list(
        Event.objects.filter(tournament=t, kind__startswith="clock_")
        .order_by("id")
        .values_list("kind", flat=True)
    )
    assert kinds == [
        "clock_start",
        "clock_pause",
        "clock_resume",
        "clock_adjust",
        "clock_adjust",
        "clock_next",
        "clock_previous",
    ]


def test_state_forbids_pause_before_start_and_changes_nothing(t, director, director_api):
    r = director_api.post(f"/api/v1/tournaments/{t.pk}/clock", {"action": "pause"})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "clock_not_started"
    t.refresh_from_db()
    assert not t.clock_started and not Event.objects.filter(kind="clock_pause").exists()


def test_bad_clock_action_is_400(t, director_api):
    r = director_api.post(f"/api/v1/tournaments/{t.pk}/clock", {"action": "rewind"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_input"
    r = director_api.post(
        f"/api/v1/tournaments/{t.pk}/clock", {"action": "adjust", "seconds": "a minute"}
    )
    assert r.status_code == 400


def test_announce_records_each_transition_once_and_closes_late_registration(t, director):
    with time_machine.travel(T0, tick=False):
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    # RULES 4.4: late registration closes at the end of level index 1
    with time_machine.travel(T0 + timedelta(minutes=45), tick=False):
        assert services.clock_announce(tournament_id=t.pk) == [1, 2]
        assert services.clock_announce(tournament_id=t.pk) == []
    t.refresh_from_db()
    assert t.registration_open is False
    rows = list(
        Event.objects.filter(tournament=t, kind__in=["level_started", "break_started"])
        .order_by("id")
        .values_list("kind", "payload")
    )
    assert [(k, p["index"]) for k, p in rows] == [("level_started", 1), ("break_started", 2)]
    assert rows[1][1]["color_up"] == [25] and rows[1][1]["closed"] == ["registration"]
    assert rows[0][1]["due"] == (T0 + timedelta(minutes=20)).isoformat()
    with pytest.raises(DomainError) as err:
        services.entry_register(tournament_id=t.pk, name="Late Larry", actor=director)
    assert err.value.code == "registration_closed"


def test_a_twelve_hour_day_with_pauses_has_zero_drift(director):
    levels = [{"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 15}] * 60
    t = services.tournament_create(actor=director, name="Long", tables=0, levels=levels)
    now = T0
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=now)
    paused_total = timedelta(0)
    for i in range(40):  # 40 pauses of 7.3 s .. 2 min, every 17 min 13.7 s
        now += timedelta(minutes=17, seconds=13, milliseconds=700)
        services.clock_action(tournament_id=t.pk, action="pause", actor=director, now=now)
        pause = timedelta(seconds=7.3 + 3 * i)
        now += pause
        paused_total += pause
        services.clock_action(tournament_id=t.pk, action="resume", actor=director, now=now)
    t.refresh_from_db()
    s = services.clock_read(t, now)
    run_ms = round((now - T0 - paused_total).total_seconds() * 1000)
    assert s.index == run_ms // 900_000
    assert s.remaining_ms == 900_000 - run_ms % 900_000


def test_structure_edit_keeps_played_levels_and_checks_chip_rules(t, director, director_api):
    url = f"/api/v1/tournaments/{t.pk}/levels"
    levels = director_api.get(url).json()["levels"]
    assert [lv["big_blind"] for lv in levels if lv["kind"] == "level"] == [50, 100, 200]
    with time_machine.travel(T0, tick=False):
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
        longer = levels + [
            {
                "kind": "level",
                "small_blind": 200,
                "big_blind": 400,
                "big_blind_ante": 400,
                "minutes": 20,
            }
        ]
        r = director_api.put(url, {"levels": longer})
        assert r.status_code == 200 and len(r.json()["levels"]) == 5
        # the running level cannot be rewritten
        first = {k: v for k, v in levels[0].items() if k != "seconds"}
        r = director_api.put(url, {"levels": [{**first, "minutes": 30}] + levels[1:]})
        assert r.status_code == 409 and r.json()["error"]["code"] == "structure_past"
        # RULES 4.5: after the 25s leave, a 125 blind needs 25s: refused
        bad = levels + [{"kind": "level", "small_blind": 125, "big_blind": 250, "minutes": 20}]
        r = director_api.put(url, {"levels": bad})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_structure"
    assert len(director_api.get(url).json()["levels"]) == 5


def test_presets_and_generator_through_the_api(director_api):
    r = director_api.post("/api/v1/structures/generate", {"preset": "regular"})
    bbs = [lv["big_blind"] for lv in r.json()["levels"] if lv["kind"] == "level"]
    assert bbs[:5] == [50, 100, 150, 200, 300]
    r = director_api.post(
        "/api/v1/structures/generate",
        {"starting_stack": 20000, "level_minutes": 15, "target_hours": 6},
    )
    levels = r.json()["levels"]
    assert (
        r.status_code == 200
        and sum(lv.get("seconds", lv.get("minutes", 0) * 60) for lv in levels) >= 6 * 3600
    )
    r = director_api.post("/api/v1/structures/generate", {"preset": "hyper"})
    assert r.status_code == 400


def test_undo_and_redo_through_the_api(t, director, director_api):
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    r = director_api.post(f"/api/v1/tournaments/{t.pk}/undo")
    assert r.status_code == 200 and r.json()["kind"] == "clock_start"
    t.refresh_from_db()
    assert not t.clock_started
    r = director_api.post(f"/api/v1/tournaments/{t.pk}/redo")
    assert r.status_code == 200
    t.refresh_from_db()
    assert t.clock_started
    log = director_api.get(f"/api/v1/tournaments/{t.pk}/events").json()["events"]
    assert [e["kind"] for e in log[:3]] == ["clock_start", "undo", "clock_start"]
    assert log[2]["undone"] is True and "undo" not in log[0]["payload"]
