"""The clock engine (RULES 4.3): derived from anchors and ``now``, integer milliseconds."""

from __future__ import annotations

import random
import subprocess
import sys
from datetime import UTC, datetime, timedelta, timezone

import pytest
import time_machine
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.engine import clock
from tourney.engine.clock import (
    Anchor,
    Item,
    adjust,
    boundaries,
    finishes_at,
    index_within_anchor,
    initial_anchor,
    jump,
    next_item,
    pause,
    previous_item,
    resume,
    start,
    state,
    state_to_dict,
)
from tourney.engine.errors import DomainError

T0 = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)
MS = timedelta(milliseconds=1)

L1 = Item("level", 1200, small_blind=25, big_blind=50)
L2 = Item("level", 1200, small_blind=50, big_blind=100)
L3 = Item("level", 1200, small_blind=75, big_blind=150)
B1 = Item("break", 600, color_up=(25,))
L4 = Item("level", 1200, small_blind=100, big_blind=200, big_blind_ante=200)
ITEMS = (L1, L2, L3, B1, L4)  # 20+20+20+10+20 minutes = 90 minutes


def at(minutes: float = 0, ms: int = 0) -> datetime:
    return T0 + timedelta(minutes=minutes) + ms * MS


def running() -> Anchor:
    return start(ITEMS, T0)


def raises(code: str, status: int, message: str, fn, *args, **kwargs) -> DomainError:
    with pytest.raises(DomainError) as info:
        fn(*args, **kwargs)
    assert (info.value.code, info.value.status, info.value.message) == (code, status, message)
    return info.value


# -- reading --------------------------------------------------------------------------------------


def test_initial_anchor_is_first_item_full_time_not_running():
    assert initial_anchor(ITEMS) == Anchor(0, 1_200_000, None, running=False, started=False)


def test_not_started_clock_does_not_run():
    s = state(ITEMS, initial_anchor(ITEMS), at(500))
    assert (s.status, s.index, s.remaining_ms, s.ends_at) == ("not_started", 0, 1_200_000, None)


def test_running_clock_counts_down_exactly():
    s = state(ITEMS, running(), at(5, ms=123))
    assert (s.status, s.index, s.remaining_ms) == ("running", 0, 900_000 - 123)
    assert s.ends_at == at(20)


def test_next_item_starts_with_full_duration_at_exactly_zero():
    before = state(ITEMS, running(), at(20, ms=-1))
    on = state(ITEMS, running(), at(20))
    assert (before.index, before.remaining_ms) == (0, 1)
    assert (on.index, on.remaining_ms, on.item) == (1, 1_200_000, L2)


def test_clock_walks_through_several_items():
    s = state(ITEMS, running(), at(65))  # 60 minutes of levels, 5 into the break
    assert (s.index, s.item.kind, s.remaining_ms, s.level_number) == (3, "break", 300_000, None)


def test_clock_is_finished_after_the_last_item():
    s = state(ITEMS, running(), at(90))
    assert (s.status, s.index, s.remaining_ms, s.ends_at) == ("finished", 4, 0, None)
    assert (s.next_index, s.next_level_index, s.next_break_index, s.ms_to_next_break) == (
        None,
        None,
        None,
        None,
    )
    assert state(ITEMS, running(), at(90, ms=-1)).status == "running"
    assert state(ITEMS, running(), at(10_000)).status == "finished"


def test_level_number_counts_levels_only():
    assert state(ITEMS, running(), at(45)).level_number == 3
    assert state(ITEMS, running(), at(75)).level_number == 4


def test_next_indexes_and_time_to_next_break():
    s = state(ITEMS, running(), at(10))
    assert (s.next_index, s.next_level_index, s.next_break_index) == (1, 1, 3)
    assert s.ms_to_next_break == 600_000 + 2 * 1_200_000
    on_break = state(ITEMS, running(), at(62))
    assert (on_break.next_level_index, on_break.next_break_index) == (4, None)
    assert on_break.ms_to_next_break is None


def test_reading_before_a_running_anchor_shows_the_anchor():
    s = state(ITEMS, running(), at(-3))
    assert (s.index, s.remaining_ms) == (0, 1_200_000)


def test_sub_millisecond_times_are_floored():
    anchor = start(ITEMS, T0 + timedelta(microseconds=700))
    assert anchor.at == T0
    assert state(ITEMS, anchor, at(0, ms=5) + timedelta(microseconds=999)).remaining_ms == (
        1_200_000 - 5
    )


def test_other_timezones_give_the_same_reading():
    paris = timezone(timedelta(hours=1))
    s = state(ITEMS, running(), at(5).astimezone(paris))
    assert s.remaining_ms == 900_000
    assert s.ends_at == at(20)


def test_naive_now_is_refused():
    raises(
        "naive_datetime", 400, clock.MSG_NAIVE_TIME, state, ITEMS, running(), datetime(2026, 1, 1)
    )


def test_empty_structure_is_refused():
    raises("bad_structure", 400, clock.MSG_NO_ITEMS, initial_anchor, ())


def test_item_without_duration_is_refused():
    raises("bad_structure", 400, clock.MSG_BAD_ITEM, initial_anchor, (Item("level", 0),))


def test_anchor_outside_the_structure_is_refused():
    anchor = Anchor(5, 1000, T0, running=True, started=True)
    raises("bad_anchor", 400, clock.MSG_BAD_ANCHOR, state, ITEMS, anchor, T0)


def test_state_to_dict_has_the_api_shape():
    body = state_to_dict(ITEMS, state(ITEMS, running(), at(5)), at(5, ms=7))
    assert body["status"] == "running"
    assert body["level_index"] == 0
    assert body["level"] == {
        "kind": "level",
        "small_blind": 25,
        "big_blind": 50,
        "ante": 0,
        "big_blind_ante": 0,
        "minutes": 20,
        "seconds": 1200,
    }
    assert body["next"]["small_blind"] == 50
    assert body["remaining_ms"] == 900_000
    assert body["server_time"] == "2026-11-29T19:05:00.007Z"
    assert body["ends_at"] == "2026-11-29T19:20:00.000Z"


def test_with_time_machine_the_clock_reads_the_frozen_now():
    with time_machine.travel(T0, tick=False) as traveller:
        anchor = start(ITEMS, datetime.now(UTC))
        traveller.shift(timedelta(minutes=21, seconds=30))
        s = state(ITEMS, anchor, datetime.now(UTC))
    assert (s.index, s.remaining_ms) == (1, 1_110_000)


# -- start / pause / resume -----------------------------------------------------------------------


def test_start_runs_from_the_first_item():
    assert running() == Anchor(0, 1_200_000, T0, running=True, started=True)


def test_start_twice_is_refused():
    raises(
        "clock_already_started",
        409,
        clock.MSG_ALREADY_STARTED,
        start,
        ITEMS,
        at(1),
        anchor=running(),
    )


def test_start_begins_where_a_not_started_anchor_was_moved():
    moved = jump(ITEMS, initial_anchor(ITEMS), at(-10), 2)
    assert (moved.index, moved.started, moved.at) == (2, False, None)
    anchor = start(ITEMS, T0, anchor=moved)
    assert state(ITEMS, anchor, at(1)).index == 2


def test_pause_freezes_the_remaining_time():
    paused = pause(ITEMS, running(), at(25))
    assert paused == Anchor(1, 900_000, at(25), running=False, started=True)
    s = state(ITEMS, paused, at(300))
    assert (s.status, s.index, s.remaining_ms, s.ends_at) == ("paused", 1, 900_000, None)


def test_resume_continues_from_the_time_left():
    resumed = resume(ITEMS, pause(ITEMS, running(), at(25)), at(40))
    s = state(ITEMS, resumed, at(45))
    assert (s.status, s.index, s.remaining_ms) == ("running", 1, 600_000)
    assert s.ends_at == at(55)


def test_pause_before_start_is_refused():
    raises("clock_not_started", 409, clock.MSG_NOT_STARTED, pause, ITEMS, initial_anchor(ITEMS), T0)


def test_resume_before_start_is_refused():
    raises(
        "clock_not_started", 409, clock.MSG_NOT_STARTED, resume, ITEMS, initial_anchor(ITEMS), T0
    )


def test_pause_twice_is_refused():
    paused = pause(ITEMS, running(), at(1))
    raises("clock_already_paused", 409, clock.MSG_ALREADY_PAUSED, pause, ITEMS, paused, at(2))


def test_resume_a_running_clock_is_refused():
    raises("clock_not_paused", 409, clock.MSG_NOT_PAUSED, resume, ITEMS, running(), at(1))


def test_pause_a_finished_clock_is_refused():
    raises("clock_finished", 409, clock.MSG_FINISHED, pause, ITEMS, running(), at(95))


# -- adjust ---------------------------------------------------------------------------------------


def test_adjust_adds_time_to_the_current_item():
    anchor = adjust(ITEMS, running(), at(5), 60)
    assert state(ITEMS, anchor, at(5)).remaining_ms == 960_000
    assert state(ITEMS, anchor, at(21, ms=-1)).index == 0
    assert state(ITEMS, anchor, at(21)).index == 1


def test_adjust_removes_time_from_the_current_item():
    anchor = adjust(ITEMS, running(), at(5), -60)
    assert state(ITEMS, anchor, at(5)).remaining_ms == 840_000
    assert state(ITEMS, anchor, at(19)).index == 1


def test_removing_more_than_is_left_starts_the_next_item_now():
    anchor = adjust(ITEMS, running(), at(5), -3600)
    s = state(ITEMS, anchor, at(5))
    assert (s.index, s.remaining_ms) == (1, 1_200_000)


def test_removing_exactly_what_is_left_starts_the_next_item_now():
    anchor = adjust(ITEMS, running(), at(5), -900)
    assert (state(ITEMS, anchor, at(5)).index, state(ITEMS, anchor, at(5)).remaining_ms) == (
        1,
        1_200_000,
    )


def test_removing_all_time_from_the_last_item_finishes_the_clock():
    anchor = adjust(ITEMS, running(), at(80), -600)
    assert state(ITEMS, anchor, at(80)).status == "finished"


def test_adjust_keeps_a_paused_clock_paused():
    anchor = adjust(ITEMS, pause(ITEMS, running(), at(5)), at(8), 30)
    s = state(ITEMS, anchor, at(50))
    assert (s.status, s.remaining_ms) == ("paused", 930_000)


def test_adjust_a_finished_clock_is_refused():
    raises("clock_finished", 409, clock.MSG_FINISHED, adjust, ITEMS, running(), at(99), 60)


@pytest.mark.parametrize("seconds", [1.5, "60", True, 86_401, -86_401, None])
def test_adjust_with_bad_seconds_is_refused(seconds):
    error = raises(
        "bad_seconds", 400, clock.MSG_BAD_SECONDS, adjust, ITEMS, running(), at(1), seconds
    )
    assert error.fields == {"seconds": clock.MSG_BAD_SECONDS}


# -- jump / next / previous -----------------------------------------------------------------------


def test_jump_starts_the_item_with_full_duration_and_keeps_running():
    anchor = jump(ITEMS, running(), at(5), 3)
    s = state(ITEMS, anchor, at(6))
    assert (s.status, s.index, s.remaining_ms) == ("running", 3, 540_000)


def test_jump_keeps_a_paused_clock_paused():
    anchor = jump(ITEMS, pause(ITEMS, running(), at(5)), at(6), 2)
    s = state(ITEMS, anchor, at(60))
    assert (s.status, s.index, s.remaining_ms) == ("paused", 2, 1_200_000)


def test_jump_brings_a_finished_clock_back():
    s = state(ITEMS, jump(ITEMS, running(), at(100), 4), at(101))
    assert (s.status, s.index, s.remaining_ms) == ("running", 4, 1_140_000)


@pytest.mark.parametrize("index", [-1, 5, True, 1.0, "2"])
def test_jump_to_a_bad_index_is_refused(index):
    raises("bad_index", 400, clock.MSG_BAD_INDEX, jump, ITEMS, running(), at(1), index)


def test_next_starts_the_following_item_now():
    s = state(ITEMS, next_item(ITEMS, running(), at(5)), at(5))
    assert (s.index, s.remaining_ms) == (1, 1_200_000)


def test_next_on_the_last_item_finishes_the_clock():
    anchor = jump(ITEMS, running(), at(1), 4)
    assert state(ITEMS, next_item(ITEMS, anchor, at(2)), at(2)).status == "finished"


def test_next_on_a_finished_clock_is_refused():
    raises("clock_finished", 409, clock.MSG_FINISHED, next_item, ITEMS, running(), at(90))


def test_previous_starts_the_item_before_with_full_duration():
    s = state(ITEMS, previous_item(ITEMS, running(), at(30)), at(31))
    assert (s.index, s.remaining_ms) == (0, 1_140_000)


def test_previous_on_the_first_item_restarts_it():
    s = state(ITEMS, previous_item(ITEMS, running(), at(7)), at(7))
    assert (s.index, s.remaining_ms) == (0, 1_200_000)


def test_previous_on_a_finished_clock_restarts_the_last_item():
    s = state(ITEMS, previous_item(ITEMS, running(), at(200)), at(200))
    assert (s.status, s.index, s.remaining_ms) == ("running", 4, 1_200_000)


# -- boundaries -----------------------------------------------------------------------------------


def test_boundaries_are_exact_to_the_millisecond():
    anchor = start(ITEMS, at(0, ms=1))
    assert boundaries(ITEMS, anchor, T0, at(100)) == [
        (1, at(20, ms=1)),
        (2, at(40, ms=1)),
        (3, at(60, ms=1)),
        (4, at(70, ms=1)),
    ]
    assert finishes_at(ITEMS, anchor) == at(90, ms=1)


def test_boundaries_are_half_open_after_and_closed_until():
    anchor = running()
    assert boundaries(ITEMS, anchor, at(20), at(40)) == [(2, at(40))]
    assert boundaries(ITEMS, anchor, at(20, ms=-1), at(40, ms=-1)) == [(1, at(20))]
    assert boundaries(ITEMS, anchor, at(21), at(39)) == []


def test_boundaries_follow_pauses_and_adjustments():
    anchor = adjust(ITEMS, resume(ITEMS, pause(ITEMS, running(), at(10)), at(15)), at(15), -120)
    assert boundaries(ITEMS, anchor, at(15), at(45)) == [(1, at(23)), (2, at(43))]


def test_paused_and_not_started_clocks_have_no_boundaries():
    assert boundaries(ITEMS, initial_anchor(ITEMS), T0, at(1000)) == []
    assert boundaries(ITEMS, pause(ITEMS, running(), at(1)), T0, at(1000)) == []
    assert finishes_at(ITEMS, pause(ITEMS, running(), at(1))) is None


# -- properties -----------------------------------------------------------------------------------

items_strategy = st.lists(
    st.builds(
        Item,
        kind=st.sampled_from(["level", "break"]),
        seconds=st.integers(min_value=1, max_value=3600),
    ),
    min_size=1,
    max_size=12,
)


def expected_position(items: list[Item], elapsed_ms: int) -> tuple[int, int]:
    """Independent oracle: cumulative sums of the durations."""
    end = 0
    for i, item in enumerate(items):
        end += item.seconds * 1000
        if elapsed_ms < end:
            return i, end - elapsed_ms
    return len(items) - 1, 0


@settings(max_examples=150, deadline=None)
@given(
    items=items_strategy,
    segments=st.lists(st.tuples(st.integers(0, 3_000_000), st.integers(0, 3_000_000)), max_size=15),
    micro=st.integers(0, 999),
)
def test_pauses_never_change_the_running_time(items, segments, micro):
    """Running for r1, pausing for p1, ... ends where running sum(r) ms from the start would."""
    now = T0 + timedelta(microseconds=micro)
    anchor = start(items, now)
    run_total = 0
    for run_ms, pause_ms in segments:
        now += run_ms * MS
        run_total += run_ms
        if state(items, anchor, now).status == "finished":
            break
        anchor = pause(items, anchor, now)
        now += pause_ms * MS
        anchor = resume(items, anchor, now)
    s = state(items, anchor, now)
    assert (s.index, s.remaining_ms) == expected_position(items, run_total)


@settings(max_examples=150, deadline=None)
@given(items=items_strategy, offset=st.integers(0, 10_000))
def test_every_boundary_is_where_the_state_changes_item(items, offset):
    anchor = start(items, at(0, ms=offset))
    found = boundaries(items, anchor, T0, at(24 * 60))
    assert [i for i, _ in found] == list(range(1, len(items)))
    for index, moment in found:
        on, before = state(items, anchor, moment), state(items, anchor, moment - MS)
        assert (on.index, on.remaining_ms) == (index, items[index].seconds * 1000)
        assert (before.index, before.remaining_ms) == (index - 1, 1)


@settings(max_examples=150, deadline=None)
@given(items=items_strategy, a=st.integers(0, 50_000_000), b=st.integers(0, 50_000_000))
def test_remaining_time_falls_by_exactly_the_elapsed_time_within_an_item(items, a, b):
    anchor = start(items, T0)
    first, second = (
        state(items, anchor, T0 + min(a, b) * MS),
        state(items, anchor, T0 + max(a, b) * MS),
    )
    if first.index == second.index and second.status == "running":
        assert first.remaining_ms - second.remaining_ms == abs(a - b)
    assert second.index >= first.index


def test_the_anchor_item_is_read_without_the_structure_while_it_has_time_left():
    anchor = running()  # level 1: 20 minutes from T0
    assert index_within_anchor(anchor, at(0)) == 0
    assert index_within_anchor(anchor, at(20, ms=-1)) == 0
    assert index_within_anchor(anchor, at(20)) is None  # level 2 starts: the walk decides
    paused = pause(ITEMS, anchor, at(5))
    assert index_within_anchor(paused, at(500)) == 0  # a paused clock stays in its item
    assert index_within_anchor(initial_anchor(ITEMS), at(-60)) == 0  # not started


@settings(max_examples=200, deadline=None)
@given(
    items=items_strategy,
    run_ms=st.integers(0, 50_000_000),
    read_ms=st.integers(0, 50_000_000),
    paused=st.booleans(),
)
def test_the_anchor_shortcut_agrees_with_the_walk(items, run_ms, read_ms, paused):
    """RULES 4.3: whenever the shortcut answers, ``state`` gives the same item; it answers
    whenever the clock is still in the anchor's item."""
    anchor = start(items, T0)
    if state(items, anchor, T0 + run_ms * MS).status != "finished":
        anchor = (pause if paused else reanchored)(items, anchor, T0 + run_ms * MS)
    now = T0 + (run_ms + read_ms) * MS
    got = index_within_anchor(anchor, now)
    s = state(items, anchor, now)
    if got is not None:
        assert got == s.index
    in_anchor_item = s.index == anchor.index and (
        s.remaining_ms > 0 if s.status != "finished" else False
    )
    assert (got is not None) == in_anchor_item


def reanchored(items, anchor, now):
    """A running anchor taken at ``now`` (pause then resume at the same instant)."""
    return resume(items, pause(items, anchor, now), now)


def test_a_twelve_hour_day_with_pauses_has_zero_drift():
    """36 levels and 9 breaks (12.5 h), random pauses and zero adjustments, 1 ms steps."""
    rng = random.Random(20261129)
    items = []
    for n in range(36):
        items.append(Item("level", 1200, small_blind=25 * (n + 1), big_blind=50 * (n + 1)))
        if n % 4 == 3:
            items.append(Item("break", 600))
    now = T0 + timedelta(microseconds=417)
    anchor = start(items, now)
    run_total = 0
    while run_total < 12 * 3600 * 1000 - 10 * 60 * 1000:
        run_ms = rng.randint(1, 600_000)
        now += run_ms * MS
        run_total += run_ms
        anchor = pause(items, anchor, now)
        now += rng.randint(1, 300_000) * MS
        anchor = resume(items, anchor, now)
        anchor = adjust(items, anchor, now, 0)
    s = state(items, anchor, now)
    assert (s.index, s.remaining_ms) == expected_position(items, run_total)
    assert s.status == "running"


def test_engine_imports_no_django():
    code = (
        "import sys; import tourney.engine.clock, tourney.engine.structure; "
        "sys.exit(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
