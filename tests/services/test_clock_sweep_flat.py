"""Issue 30: the clock sweep's cost is flat in the number of events. A sweep with nothing due
reads one statement at 1 or 7 running (and as many registering) events, one queueing the
ticks of the boundaries before the next sweep two, and only a clock with a transition to
record is locked; and the sweep does exactly what announcing every running clock did
(``clock_announce`` with the horizon for each), in every state a clock can be in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
import time_machine
from django.db import transaction
from django.db.models import F, Q

from tests.conftest import TWO_LEVELS
from tourney import services, tasks
from tourney.core import schedule
from tourney.models import Entry, Event, Tournament
from tourney.selectors.clock import clocks_due
from tourney.services import clock as clock_services
from tourney.services import flights

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 3, 19, 0, tzinfo=UTC)
LEVELS = [
    {"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 20},
    {"kind": "level", "small_blind": 50, "big_blind": 100, "minutes": 20},
    {"kind": "break", "minutes": 10},
    {"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
]
BOUNDARY = T0 + timedelta(minutes=20)


@pytest.fixture
def ticks(monkeypatch, settings):
    """The ticks queued, in the order queued; ``on_commit`` of the clock's services run at
    once (the ticks of ``clock_announce`` are queued after its commit)."""
    settings.CLOCK_SWEEP_SECONDS = 5.0  # the horizon: 5 s + the 2 s margin
    queued: list[tuple] = []
    monkeypatch.setattr(schedule, "clock_tick", lambda *a: queued.append(a))
    monkeypatch.setattr(clock_services, "transaction", SimpleNamespace(on_commit=lambda f: f()))
    return queued


def _events(director, n: int) -> list[int]:
    """``n`` events running since T0 and ``n`` registering (clock not started, entries in)."""
    running = []
    for i in range(n):
        t = services.tournament_create(actor=director, name=f"Run {i}", tables=0, levels=LEVELS)
        with time_machine.travel(T0, tick=False):
            services.clock_action(tournament_id=t.pk, action="start", actor=director)
        running.append(t.pk)
        r = services.tournament_create(actor=director, name=f"Reg {i}", tables=1, levels=LEVELS)
        services.entry_register(tournament_id=r.pk, name=f"P{i}", actor=director)
    return running


def _sweep_queries(django_assert_num_queries, at: datetime, queries: int) -> int:
    with time_machine.travel(at, tick=False), django_assert_num_queries(queries):
        return tasks.clock_sweep()


@pytest.mark.parametrize("n", [1, 7])
def test_a_sweep_with_nothing_due_reads_one_statement_at_any_number_of_events(
    director, ticks, django_assert_num_queries, n
):
    _events(director, n)
    ticks.clear()
    assert _sweep_queries(django_assert_num_queries, T0 + timedelta(minutes=5), 1) == 0
    # 8 s before the boundary: beyond the horizon (7 s), a later sweep queues it
    assert _sweep_queries(django_assert_num_queries, BOUNDARY - timedelta(seconds=8), 1) == 0
    assert ticks == []


@pytest.mark.parametrize("n", [1, 7])
def test_a_sweep_queueing_ticks_reads_two_statements_and_locks_nothing(
    director, ticks, django_assert_num_queries, n
):
    running = _events(director, n)
    ticks.clear()
    assert _sweep_queries(django_assert_num_queries, BOUNDARY - timedelta(seconds=6), 2) == 0
    assert sorted(ticks) == [(pk, 1, BOUNDARY) for pk in running]
    assert not Event.objects.filter(kind="level_started", payload__index=1).exists()


def test_only_the_clock_with_a_transition_to_record_is_announced(
    director, ticks, django_assert_num_queries
):
    late = services.tournament_create(actor=director, name="Late", tables=0, levels=LEVELS)
    with time_machine.travel(T0 - timedelta(minutes=10), tick=False):
        services.clock_action(tournament_id=late.pk, action="start", actor=director)
    running = _events(director, 3)
    ticks.clear()
    at = T0 + timedelta(minutes=11)  # the late clock's boundary passed a minute ago
    with time_machine.travel(at, tick=False):
        due = clocks_due(at, tasks.sweep_horizon())
        assert [(d.tournament_id, d.announce) for d in due] == [(late.pk, True)]
        assert tasks.clock_sweep() == 1
    assert list(
        Event.objects.filter(kind="level_started", payload__index=1).values_list(
            "tournament_id", flat=True
        )
    ) == [late.pk]
    assert Tournament.objects.get(pk=late.pk).clock_announced == 1
    assert set(
        Tournament.objects.filter(pk__in=running).values_list("clock_announced", flat=True)
    ) == {0}
    # its next boundaries are queued by the announcement; nothing for the others
    assert {pk for pk, *_ in ticks} == {late.pk}


# -- the same work as announcing every running clock (the sweep before issue 30) -----------


def _sweep_before(horizon: timedelta) -> int:
    """The sweep as it was: ``clock_announce`` for every running or pending clock."""
    n = 0
    for tid in (
        Tournament.objects.filter(
            Q(clock_running=True) | Q(clock_started=True, clock_index__gt=F("clock_announced"))
        )
        .exclude(status=Tournament.Status.FINISHED)
        .values_list("pk", flat=True)
    ):
        n += len(services.clock_announce(tournament_id=tid, schedule_within=horizon))
    return n


def _outcome(sweep, queued: list, at: datetime):
    """What ``sweep`` does at ``at``: its answer, the ticks it queues, the events it records
    and the clocks it leaves; all rolled back after."""
    queued.clear()
    first = Event.objects.order_by("-id").values_list("id", flat=True).first() or 0
    with transaction.atomic():
        with time_machine.travel(at, tick=False):
            n = sweep()
        events = sorted(
            (e.tournament_id, e.kind, e.payload.get("index"), e.payload.get("due"))
            for e in Event.objects.filter(id__gt=first)
        )
        clocks = list(
            Tournament.objects.order_by("pk").values_list(
                "pk",
                "clock_index",
                "clock_left_ms",
                "clock_at",
                "clock_running",
                "clock_announced",
                "registration_open",
            )
        )
        transaction.set_rollback(True)
    return n, sorted(queued), events, clocks


def _every_kind_of_clock(director) -> None:
    def create(name, **kw):
        kw.setdefault("levels", LEVELS)
        return services.tournament_create(actor=director, name=name, tables=0, **kw)

    def act(t, action, at, **kw):
        with time_machine.travel(at, tick=False):
            services.clock_action(tournament_id=t.pk, action=action, actor=director, **kw)

    act(create("Running", options={"late_reg_until": 0}), "start", T0)
    adjusted = create("Adjusted")
    act(adjusted, "start", T0 - timedelta(minutes=3))
    act(adjusted, "adjust", T0 + timedelta(minutes=1), seconds=-57)
    set_ = create("Set")
    act(set_, "start", T0)
    act(set_, "set", T0 + timedelta(minutes=2), seconds=18 * 60 + 2)  # its boundary 2 s later
    pending = create("Paused, its item pending")
    act(pending, "start", T0 - timedelta(minutes=40))
    act(pending, "pause", T0 - timedelta(minutes=15))
    Event.objects.filter(tournament=pending, kind="level_started").delete()
    Tournament.objects.filter(pk=pending.pk).update(clock_announced=0)
    ahead = create("Recorded ahead of its anchor")  # its next boundary at T0 + 15 min
    act(ahead, "start", T0 - timedelta(minutes=25))
    with time_machine.travel(T0 - timedelta(minutes=4), tick=False):
        services.clock_announce(tournament_id=ahead.pk)
    paused = create("Paused")
    act(paused, "start", T0)
    act(paused, "pause", T0 + timedelta(seconds=30))
    act(create("Near its end"), "jump", T0 - timedelta(minutes=10), index=3)
    create("Registering")
    event = flights.event_create(
        actor=director,
        name="Main",
        flights=["A", "B", "C"],
        levels=TWO_LEVELS,
        tables=1,
        seats_per_table=9,
        starting_stack=20000,
        buy_in=100,
        fee=10,
        seed=3,
        end_at_level=0,
        end_at_players=None,
    )
    for i, f in enumerate(Tournament.objects.filter(multi_day_event=event, day=1).order_by("pk")):
        entries = [
            services.entry_register(tournament_id=f.pk, name=f"F{i}{k}", actor=director)
            for k in range(4)
        ]
        if i == 1:  # flight B also ends at 3 players: checked at every sweep
            flights.flight_end_set(tournament_id=f.pk, end_at_level=0, end_at_players=3)
        act(f, "start", T0 + timedelta(seconds=i) - timedelta(minutes=10 * (i == 2)))
        if i == 1:  # down to 3 with registration open, then closed: the sweep stops it
            with time_machine.travel(T0 + timedelta(minutes=1), tick=False):
                services.elimination_record(
                    tournament_id=f.pk, busts=[(entries[0].pk, 100)], actor=director
                )
            with time_machine.travel(T0 + timedelta(minutes=2), tick=False):
                services.registration_close(tournament_id=f.pk, actor=director)
        if i == 2:  # C: in its second level when its end is moved behind it (a row written
            # directly): the sweep stops it at once
            flights.flight_end_set(tournament_id=f.pk, end_at_level=2, end_at_players=None)
            act(f, "jump", T0 - timedelta(minutes=3), index=1)
            Tournament.objects.filter(pk=f.pk).update(end_at_level=0)
    assert Entry.objects.exists()


@pytest.mark.parametrize(
    "offset",
    [
        timedelta(minutes=5),
        timedelta(minutes=15, seconds=-6),
        timedelta(minutes=15),
        timedelta(minutes=20, seconds=-8),
        timedelta(minutes=20, seconds=-6),
        timedelta(minutes=20, milliseconds=-1),
        timedelta(minutes=20),
        timedelta(minutes=20, seconds=3),
        timedelta(minutes=40, seconds=-2),
        timedelta(minutes=55),
        timedelta(hours=3),
    ],
)
def test_the_sweep_does_what_announcing_every_running_clock_did(director, ticks, offset):
    _every_kind_of_clock(director)
    at = T0 + offset
    horizon = tasks.sweep_horizon()
    before = _outcome(lambda: _sweep_before(horizon), ticks, at)
    after = _outcome(tasks.clock_sweep, ticks, at)
    assert after == before


def test_a_clock_recorded_past_its_anchor_is_due_at_its_next_boundary_only(director, ticks):
    """The anchor stays in the item the clock was started (or last moved) in; the items
    recorded since count in its next boundary (RULES 4.3)."""
    t = services.tournament_create(actor=director, name="Ahead", tables=0, levels=LEVELS)
    with time_machine.travel(T0 - timedelta(minutes=25), tick=False):
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    with time_machine.travel(T0 - timedelta(minutes=4), tick=False):
        assert services.clock_announce(tournament_id=t.pk) == [1]
    t.refresh_from_db()
    assert (t.clock_index, t.clock_announced) == (0, 1)
    horizon = tasks.sweep_horizon()
    boundary = T0 + timedelta(minutes=15)  # the break: 20 + 20 minutes after the start
    assert clocks_due(T0 + timedelta(minutes=5), horizon) == []
    assert clocks_due(boundary - timedelta(seconds=8), horizon) == []
    (due,) = clocks_due(boundary - timedelta(seconds=6), horizon)
    assert (due.tournament_id, due.announce) == (t.pk, False)
    (due,) = clocks_due(boundary - timedelta(milliseconds=1), horizon)
    assert due.announce is False
    (due,) = clocks_due(boundary, horizon)
    assert due.announce is True
