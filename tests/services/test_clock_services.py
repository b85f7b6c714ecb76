"""Issue 4: clock services and API (RULES 4.2–4.4). Time is moved with time-machine."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Event
from tourney.selectors import clock as clock_reads

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
    s = clock_reads.clock_read(t, now)
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


# -- director actions record what the old anchor still owed (issue 4: "every missed
# transition is recorded once") ------------------------------------------------------------


def _announced(t, kinds=("level_started", "break_started")):
    """(kind, index, due) of the transitions recorded and not undone, in order."""
    return [
        (k, p["index"], p["due"])
        for k, p in Event.objects.filter(tournament=t, kind__in=kinds, undone=False)
        .order_by("id")
        .values_list("kind", "payload")
    ]


def _due(minutes):
    return (T0 + timedelta(minutes=minutes)).isoformat()


def test_adjust_records_the_pending_level_first_exactly_once(t, director):
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=T0)
    # no worker ran: level index 1 started at T0+20 and nobody recorded it
    at = T0 + timedelta(minutes=25)
    s = services.clock_action(
        tournament_id=t.pk, action="adjust", seconds=60, actor=director, now=at
    )
    assert (s.index, s.remaining_ms) == (1, 16 * 60_000)
    assert _announced(t) == [("level_started", 1, _due(20))]
    # recorded before the director's own event, and never again
    ids = list(Event.objects.filter(tournament=t).order_by("id").values_list("kind", flat=True))
    assert ids[-2:] == ["level_started", "clock_adjust"]
    assert services.clock_announce(tournament_id=t.pk, now=at + timedelta(seconds=1)) == []
    t.refresh_from_db()
    assert t.clock_announced == 1
    # the late registration window (until index 1) is still open at level index 1
    assert t.registration_open is True


def test_next_records_every_pending_transition_before_moving_on(t, director):
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=T0)
    at = T0 + timedelta(minutes=45)  # the break (index 2) has run 5 minutes
    s = services.clock_action(tournament_id=t.pk, action="next", actor=director, now=at)
    assert s.index == 3
    assert _announced(t) == [("level_started", 1, _due(20)), ("break_started", 2, _due(40))]
    t.refresh_from_db()
    # RULES 4.4: the break closed late registration, recorded with the break
    assert t.registration_open is False
    breaks = Event.objects.get(tournament=t, kind="break_started")
    assert breaks.payload["closed"] == ["registration"]
    # the director's next is its own announcement of index 3; nothing is recorded twice
    assert services.clock_announce(tournament_id=t.pk, now=at + timedelta(minutes=1)) == []
    assert len(_announced(t)) == 2


def test_pause_records_the_pending_level_and_a_refused_action_records_nothing(t, director):
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=T0)
    at = T0 + timedelta(minutes=25)
    with pytest.raises(DomainError) as err:  # bad input: changes nothing, records nothing
        services.clock_action(tournament_id=t.pk, action="adjust", actor=director, now=at)
    assert err.value.code == "bad_input"
    assert _announced(t) == []
    s = services.clock_action(tournament_id=t.pk, action="pause", actor=director, now=at)
    assert (s.status, s.index, s.remaining_ms) == ("paused", 1, 15 * 60_000)
    assert _announced(t) == [("level_started", 1, _due(20))]
    # paused for an hour, then resumed: still recorded once
    later = at + timedelta(hours=1)
    services.clock_action(tournament_id=t.pk, action="resume", actor=director, now=later)
    assert services.clock_announce(tournament_id=t.pk, now=later) == []
    assert len(_announced(t)) == 1


def test_undoing_an_adjust_undoes_its_announcement_and_the_sweep_records_it_again(t, director):
    from tourney.services.undo import action_undo

    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=T0)
    at = T0 + timedelta(minutes=25)
    services.clock_action(tournament_id=t.pk, action="adjust", seconds=60, actor=director, now=at)
    action_undo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert (t.clock_announced, t.clock_left_ms, t.clock_at) == (0, 20 * 60_000, T0)
    assert _announced(t) == []  # undone with the action that recorded it
    assert services.clock_announce(tournament_id=t.pk, now=at) == [1]
    assert _announced(t) == [("level_started", 1, _due(20))]


def test_a_paused_clock_with_a_pending_item_is_swept(t, director):
    """A row written before director actions recorded the pending items first: paused in
    level index 1 with only index 0 recorded. The sweep records it (due unknown: paused)."""
    from tourney.models import Tournament
    from tourney.tasks import clock_sweep

    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=T0)
    services.clock_action(
        tournament_id=t.pk, action="pause", actor=director, now=T0 + timedelta(minutes=25)
    )
    Event.objects.filter(tournament=t, kind="level_started").delete()
    Tournament.objects.filter(pk=t.pk).update(clock_announced=0)
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        assert clock_sweep() == 1
        assert clock_sweep() == 0
    assert _announced(t) == [("level_started", 1, None)]
    t.refresh_from_db()
    assert t.clock_announced == 1 and not t.clock_running


# -- the sweep queues the ticks a restarted worker lost (issue 4: "nothing depends on a
# process staying up") ---------------------------------------------------------------------


def test_the_sweep_queues_the_ticks_of_the_boundaries_before_the_next_sweep(
    t, director, monkeypatch, django_capture_on_commit_callbacks, settings
):
    from tourney import tasks
    from tourney.core import schedule

    settings.CLOCK_SWEEP_SECONDS = 5.0
    queued = []
    monkeypatch.setattr(schedule, "clock_tick", lambda *a: queued.append(a))
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=T0)
    queued.clear()  # the start's own ticks; a killed worker lost them
    boundary = T0 + timedelta(minutes=20)
    with django_capture_on_commit_callbacks(execute=True):
        with time_machine.travel(boundary - timedelta(minutes=5), tick=False):
            assert tasks.clock_sweep() == 0
    assert queued == []  # 5 minutes away: a later sweep queues it
    with django_capture_on_commit_callbacks(execute=True):
        with time_machine.travel(boundary - timedelta(seconds=6), tick=False):
            assert tasks.clock_sweep() == 0
    # within the next sweep interval (5 s) plus the margin: queued now, nothing recorded
    assert queued == [(t.pk, 1, boundary)]
    assert _announced(t) == []


def test_worker_start_queues_a_sweep(monkeypatch):
    from tourney import celery as tourney_celery

    sent = []
    monkeypatch.setattr(tourney_celery.app, "send_task", lambda name, **kw: sent.append(name))
    from celery.signals import worker_ready

    worker_ready.send(sender=None)
    assert sent == ["tourney.tasks.clock_sweep"]


# -- RULES 4.4 rebuys, 5.1 color-up prepared at the break -----------------------------------


def test_announce_closes_rebuys_at_the_end_of_their_level(director):
    t = services.tournament_create(
        actor=director,
        name="Rebuys",
        tables=0,
        levels=LEVELS,
        options={"rebuy_until": 0, "rebuy_price": 1000, "rebuy_chips": 10000},
    )
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=T0)
    assert services.clock_announce(tournament_id=t.pk, now=T0 + timedelta(minutes=19)) == []
    t.refresh_from_db()
    assert t.rebuys_open is True
    assert services.clock_announce(tournament_id=t.pk, now=T0 + timedelta(minutes=25)) == [1]
    t.refresh_from_db()
    assert t.rebuys_open is False and t.registration_open is True
    started = Event.objects.get(tournament=t, kind="level_started")
    assert started.payload["closed"] == ["rebuys"]


def test_a_color_up_break_is_prepared_when_it_starts(director):
    t = services.tournament_create(actor=director, name="Race", tables=2, levels=LEVELS)
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=T0)
    assert services.clock_announce(tournament_id=t.pk, now=T0 + timedelta(minutes=41)) == [1, 2]
    level = Event.objects.get(tournament=t, kind="level_started")
    assert "color_up_pending" not in level.payload
    prepared = Event.objects.get(tournament=t, kind="break_started").payload["color_up_pending"]
    assert prepared["break_index"] == 2
    # RULES 5.1: the 25s go, changed up into 100s; every table with players races them
    assert [(d["value"], d["unit"], d["removable"]) for d in prepared["denominations"]] == [
        (25, 100, True)
    ]
    seated = sorted({e.seat.table.number for e in t.entries.select_related("seat__table")})
    assert prepared["tables"] == seated and seated
    assert prepared["players_left"] == 5
    assert prepared["total_chips"] == 5 * t.starting_stack


# -- bad input ------------------------------------------------------------------------------


def test_create_refuses_a_structure_that_breaks_the_chip_rules(director_api):
    from tourney.models import Tournament

    bad_blinds = [  # RULES 4.5: 10/20 with 25s as the smallest chip
        {"kind": "level", "small_blind": 10, "big_blind": 20, "minutes": 20},
    ]
    all_gone = [  # RULES 5.1: a color-up that takes every chip out of play
        {"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 20},
        {"kind": "break", "minutes": 10, "color_up": [25, 100, 500, 1000, 5000, 25000]},
        {"kind": "level", "small_blind": 50, "big_blind": 100, "minutes": 20},
    ]
    for levels in (bad_blinds, all_gone):
        r = director_api.post("/api/v1/tournaments", {"name": "Bad chips", "levels": levels})
        assert r.status_code == 400, r.json()
        assert r.json()["error"]["code"] == "bad_structure"
        assert r.json()["error"]["fields"]["levels"]
    assert not Tournament.objects.filter(name="Bad chips").exists()
    assert not Event.objects.filter(kind="tournament_created").exists()
    good = director_api.post("/api/v1/tournaments", {"name": "Good", "levels": LEVELS})
    assert good.status_code == 201


@pytest.mark.parametrize(
    "body",
    [
        {"action": "adjust", "seconds": True},
        {"action": "adjust", "seconds": "60"},
        {"action": "adjust", "seconds": 60.0},
        {"action": "jump", "index": True},
        {"action": "jump", "index": "1"},
    ],
)
def test_clock_numbers_must_be_json_integers(t, director, director_api, body):
    services.clock_action(tournament_id=t.pk, action="start", actor=director, now=T0)
    before = Event.objects.filter(tournament=t).count()
    t.refresh_from_db()
    anchor = clock_reads.anchor_of(t)
    r = director_api.post(f"/api/v1/tournaments/{t.pk}/clock", body)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_input"
    t.refresh_from_db()
    assert clock_reads.anchor_of(t) == anchor
    assert Event.objects.filter(tournament=t).count() == before


def test_generator_options_through_the_api(director_api):
    url = "/api/v1/structures/generate"
    r = director_api.post(url, {"break_every": 0, "target_hours": 4})
    assert r.status_code == 200
    assert all(lv["kind"] == "level" for lv in r.json()["levels"])
    r = director_api.post(url, {"break_every": 0, "break_after": [2], "bb_ante_from_level": 0})
    levels = r.json()["levels"]
    assert [i for i, lv in enumerate(levels) if lv["kind"] == "break"] == [2]
    assert all(lv["big_blind_ante"] == 0 for lv in levels if lv["kind"] == "level")
    r = director_api.post(url, {"bb_ante_from_level": 3})
    bbas = [lv["big_blind_ante"] for lv in r.json()["levels"] if lv["kind"] == "level"]
    assert bbas[:2] == [0, 0] and bbas[2] > 0
    for bad in ({"break_after": [3, 2]}, {"break_every": -1}, {"break_after": [0]}):
        assert director_api.post(url, bad).status_code == 400, bad


def test_blinds_beyond_what_a_column_holds_are_bad_input_not_a_server_error(t, director_api):
    from tourney.models import Tournament

    huge = [{"kind": "level", "small_blind": 25 * 10**30, "big_blind": 50 * 10**30, "minutes": 20}]
    r = director_api.post("/api/v1/tournaments", {"name": "Huge", "levels": huge})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_structure"
    assert not Tournament.objects.filter(name="Huge").exists()
    r = director_api.put(f"/api/v1/tournaments/{t.pk}/levels", {"levels": LEVELS + huge})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_structure"
    assert len(clock_reads.structure_items(t)) == len(LEVELS)
