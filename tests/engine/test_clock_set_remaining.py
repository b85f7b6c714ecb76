"""Issue 31 item 9: the director types the time left of the current item (RULES 4.3)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.engine.clock import (
    MSG_BAD_TIME_LEFT,
    MSG_FINISHED,
    Item,
    initial_anchor,
    pause,
    set_remaining,
    start,
    state,
)
from tourney.engine.errors import DomainError

T0 = datetime(2026, 11, 29, 19, 0, tzinfo=UTC)
ITEMS = (
    Item("level", 1200, small_blind=25, big_blind=50),
    Item("break", 600),
    Item("level", 1200, small_blind=50, big_blind=100),
)


@given(
    elapsed=st.integers(min_value=0, max_value=1199),
    seconds=st.integers(min_value=1, max_value=24 * 3600),
    paused=st.booleans(),
)
def test_the_current_item_has_exactly_the_time_typed(elapsed, seconds, paused):
    anchor = start(ITEMS, T0)
    now = T0 + timedelta(seconds=elapsed)
    if paused:
        anchor = pause(ITEMS, anchor, now)
    after = set_remaining(ITEMS, anchor, now, seconds)
    s = state(ITEMS, after, now)
    assert (s.index, s.remaining_ms, after.running) == (0, seconds * 1000, not paused)
    # running, it counts down from there (RULES 4.3: left at anchor − (now − anchor))
    later = state(ITEMS, after, now + timedelta(milliseconds=500))
    assert later.remaining_ms == seconds * 1000 - (0 if paused else 500)


def test_a_clock_not_started_keeps_the_time_typed_for_its_start():
    after = set_remaining(ITEMS, initial_anchor(ITEMS), T0, 600)
    assert not after.started
    assert state(ITEMS, after, T0 + timedelta(minutes=5)).remaining_ms == 600_000


@pytest.mark.parametrize("seconds", [0, -5, 24 * 3600 + 1, True, 12.5, "720"])
def test_a_time_left_that_is_no_time_is_refused(seconds):
    with pytest.raises(DomainError) as err:
        set_remaining(ITEMS, start(ITEMS, T0), T0, seconds)
    assert (err.value.code, err.value.message) == ("bad_seconds", MSG_BAD_TIME_LEFT)


def test_a_finished_clock_takes_no_time_left():
    anchor = start(ITEMS, T0)
    with pytest.raises(DomainError) as err:
        set_remaining(ITEMS, anchor, T0 + timedelta(hours=2), 60)
    assert err.value.message == MSG_FINISHED
