"""Issue 31 item 3: the tournament ends at the last bust. The clock stops and reads finished,
the worker's ticks and sweeps do nothing after it, and undoing the last bust (RULES 7.4) puts
back the running clock exactly as it would have been."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from tests.conftest import TWO_LEVELS
from tourney import selectors, services, tasks
from tourney.engine import clock as clock_engine
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Tournament
from tourney.selectors import clock as clock_reads
from tourney.services.undo import action_undo

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)


def _play_to_two(director, players: int = 4) -> tuple[Tournament, list[Entry]]:
    """A started tournament with ``players`` entries, busted down to two players still in."""
    with time_machine.travel(T0, tick=False):
        t = services.tournament_create(
            actor=director,
            name="End",
            tables=1,
            seats_per_table=9,
            seed=5,
            buy_in=10000,
            levels=TWO_LEVELS,
        )
        entries = [
            services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
            for i in range(players)
        ]
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    with time_machine.travel(T0 + timedelta(minutes=3), tick=False):
        for e in entries[: players - 2]:
            services.elimination_record(tournament_id=t.pk, busts=[(e.pk, 100)], actor=director)
    t.refresh_from_db()
    return t, entries


def test_the_last_bust_stops_the_clock_where_it_stands(director):
    t, entries = _play_to_two(director)
    assert t.clock_running
    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        out = services.elimination_record(
            tournament_id=t.pk, busts=[(entries[-2].pk, 100)], actor=director
        )
    assert out["winner"] == entries[-1].pk
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    # Stopped at 5 minutes into the 20-minute first level.
    assert (t.clock_running, t.clock_started, t.clock_index) == (False, True, 0)
    assert t.clock_left_ms == 15 * 60 * 1000
    # Read an hour later: finished where it stopped, no next level, nothing to count down.
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        clock = clock_reads.clock_read(t)
        payload = selectors.clock_payload(t)
    assert clock.status == clock_engine.FINISHED
    assert (clock.index, clock.remaining_ms, clock.ends_at) == (0, 15 * 60 * 1000, None)
    assert payload["status"] == "finished"
    assert payload["next"] is None and payload["ms_to_next_break"] is None


def test_after_the_end_the_worker_announces_no_level(director):
    t, entries = _play_to_two(director)
    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        services.elimination_record(
            tournament_id=t.pk, busts=[(entries[-2].pk, 100)], actor=director
        )
    events = Event.objects.filter(tournament=t).count()
    # Past both boundaries of the structure (the break at 20 min, the next level at 30 min).
    with time_machine.travel(T0 + timedelta(minutes=45), tick=False):
        assert tasks.clock_sweep() == 0
        assert tasks.clock_tick(t.pk, 1) == []
        assert services.clock_announce(tournament_id=t.pk) == []
        with pytest.raises(DomainError) as err:
            services.clock_action(tournament_id=t.pk, action="resume", actor=director)
    assert err.value.code == "tournament_finished"
    assert Event.objects.filter(tournament=t).count() == events
    assert not Event.objects.filter(tournament=t, kind__in=["break_started", "level_started"])


def test_undo_of_the_last_bust_gives_back_the_running_clock_as_it_would_have_been(director):
    t, entries = _play_to_two(director)
    before = clock_reads.anchor_of(t)
    with time_machine.travel(T0 + timedelta(minutes=5), tick=False):
        services.elimination_record(
            tournament_id=t.pk, busts=[(entries[-2].pk, 100)], actor=director
        )
    with time_machine.travel(T0 + timedelta(minutes=8), tick=False):
        action_undo(tournament_id=t.pk, actor=director)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    assert clock_reads.anchor_of(t) == before
    # The clock ran on through the undone end: 12 minutes gone at 12 minutes, not 5.
    with time_machine.travel(T0 + timedelta(minutes=12), tick=False):
        clock = clock_reads.clock_read(t)
    assert clock.status == clock_engine.RUNNING
    assert clock.remaining_ms == 8 * 60 * 1000
    # ... and the worker announces its levels again.
    with time_machine.travel(T0 + timedelta(minutes=21), tick=False):
        assert tasks.clock_sweep() == 1
    assert Event.objects.filter(tournament=t, kind="break_started").count() == 1


def test_a_tournament_ended_without_a_clock_keeps_its_clock_not_started(director):
    t = services.tournament_create(actor=director, name="Home", tables=1, seed=2)
    a, b = (services.entry_register(tournament_id=t.pk, name=n, actor=director) for n in ("A", "B"))
    services.elimination_record(tournament_id=t.pk, busts=[(a.pk, 100)], actor=director)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert (t.clock_started, t.clock_running) == (False, False)
    assert clock_reads.clock_read(t).status == clock_engine.FINISHED


def test_stop_and_over_in_the_engine():
    items = (
        clock_engine.Item(kind="level", seconds=600),
        clock_engine.Item(kind="break", seconds=300),
    )
    running = clock_engine.start(items, T0)
    stopped = clock_engine.stop(items, running, T0 + timedelta(minutes=12))
    assert stopped == clock_engine.Anchor(
        index=1,
        left_ms=180_000,
        at=T0 + timedelta(minutes=12),
        running=False,
        started=True,
    )
    # Past the end of the structure it stops at zero on the last item; never refused.
    late = clock_engine.stop(items, running, T0 + timedelta(hours=2))
    assert (late.index, late.left_ms, late.running) == (1, 0, False)
    fresh = clock_engine.initial_anchor(items)
    assert clock_engine.stop(items, fresh, T0) == fresh
    state = clock_engine.over(clock_engine.state(items, running, T0))
    assert state.status == clock_engine.FINISHED
    assert state.next_index is None and state.ends_at is None and state.ms_to_next_break is None
