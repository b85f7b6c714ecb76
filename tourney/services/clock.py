"""The clock's writes: the director's clock actions, the announcements at each boundary
(the Celery tick and sweep call ``clock_announce``) and the scheduling of the next one."""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as N_

from tables.models import Table
from tourney.core import schedule
from tourney.core.events import record_event
from tourney.core.locking import tournament_action
from tourney.core.messages import MSG_TOURNAMENT_FINISHED
from tourney.engine import clock as clock_engine
from tourney.engine.errors import DomainError
from tourney.models import Tournament
from tourney.selectors.clock import ClockDue, anchor_of, structure_items, structures_items
from tourney.selectors.colorup import colorup_pending
from tourney.selectors.flights import flight_clock_refusal, flight_last_item, flight_stop
from tourney.services.entries import _freeze_if_closed

# ---------------------------------------------------------------- structure and clock


def _store_anchor(t: Tournament, a: clock_engine.Anchor) -> None:
    t.clock_index = a.index
    t.clock_left_ms = a.left_ms
    t.clock_at = a.at
    t.clock_running = a.running
    t.clock_started = a.started


def _anchor_dict(a: clock_engine.Anchor) -> dict[str, Any]:
    d = asdict(a)
    d["at"] = a.at.isoformat() if a.at else None
    return d


# The most ticks one sweep queues for one clock (1-second levels and a long sweep interval).
MAX_SWEEP_TICKS = 20

CLOCK_ACTIONS = ("start", "pause", "resume", "next", "previous", "adjust", "set", "jump")
MSG_BAD_CLOCK_ACTION = N_("Unknown clock action.")


def clock_action(
    *,
    tournament_id: int,
    action: str,
    actor=None,
    seconds: int | None = None,
    index: int | None = None,
    now: datetime | None = None,
) -> clock_engine.ClockState:
    """start, pause, resume, next, previous, adjust (seconds), set (``seconds``: the time left
    of the current item), jump (index) — RULES 4.3."""
    if action not in CLOCK_ACTIONS:
        raise DomainError("bad_action", MSG_BAD_CLOCK_ACTION, fields={"action": action})
    now = now or timezone.now()
    call = {
        "service": "clock_action",
        "kwargs": {"action": action, "seconds": seconds, "index": index, "now": now.isoformat()},
    }
    with tournament_action(tournament_id, call=call) as t:
        if t.status == Tournament.Status.FINISHED:
            raise DomainError("tournament_finished", MSG_TOURNAMENT_FINISHED, status=409)
        items = structure_items(t)
        before = anchor_of(t)
        # Transitions the clock already made under the old anchor but nobody recorded yet (the
        # worker was down, or its tick is a moment away) are recorded first, once: the action
        # then re-anchors from where the clock really is (RULES 4.3). A refused action rolls
        # them back with it; the sweep records them then.
        if before.started:
            _announce_locked(t, items, before, now)
        after = _anchor_after(action, items, before, now, seconds=seconds, index=index)
        if action != "pause" and (refusal := flight_clock_refusal(t, items, after, now)):
            raise DomainError("flight_ended", refusal, status=409)  # RULES 10.2
        _store_anchor(t, after)
        state = clock_engine.state(items, after, now)
        if action == "start":
            if t.status == Tournament.Status.SETUP:
                # RULES 3.7: the event "started with" the tables open now.
                t.started_tables = Table.objects.filter(
                    tournament=t, status=Table.Status.OPEN
                ).count()
            t.status = Tournament.Status.RUNNING
            from tables.services.buttons import buttons_draw_at_start

            buttons_draw_at_start(t, actor=actor)
        # A director's jump is its own announcement: transitions start from here.
        if action in ("start", "next", "previous", "jump") or (
            action == "adjust" and state.index != t.clock_announced
        ):
            t.clock_announced = state.index
        _apply_level_windows(t, state.index)
        t.save()
        _freeze_if_closed(t, actor)
        record_event(
            t,
            f"clock_{action}",
            {
                "before": _anchor_dict(before),
                "after": _anchor_dict(after),
                "seconds": seconds,
                "index": index,
            },
            actor,
        )
        _schedule_next_boundary(t, items, after, now)
    return state


def _anchor_after(
    action: str,
    items,
    before: clock_engine.Anchor,
    now: datetime,
    *,
    seconds: int | None,
    index: int | None,
) -> clock_engine.Anchor:
    """The anchor after the director's ``action`` (RULES 4.3); the engine checks the rest."""
    if action == "start":
        return clock_engine.start(items, now, anchor=before)
    if action == "pause":
        return clock_engine.pause(items, before, now)
    if action == "resume":
        return clock_engine.resume(items, before, now)
    if action == "next":
        return clock_engine.next_item(items, before, now)
    if action == "previous":
        return clock_engine.previous_item(items, before, now)
    if action == "adjust":
        if seconds is None:
            raise DomainError(
                "bad_input",
                "Give the seconds to add or remove.",
                fields={"seconds": "required with adjust"},
            )
        return clock_engine.adjust(items, before, now, seconds)
    if action == "set":
        # The time left typed in (issue 31: not 19 clicks on "-1 min"), RULES 4.3.
        if seconds is None:
            raise DomainError(
                "bad_input",
                clock_engine.MSG_BAD_TIME_LEFT,
                fields={"seconds": clock_engine.MSG_BAD_TIME_LEFT},
            )
        return clock_engine.set_remaining(items, before, now, seconds)
    if index is None:
        raise DomainError(
            "bad_input",
            "Give the index to jump to.",
            fields={"index": "required with jump"},
        )
    return clock_engine.jump(items, before, now, index)


def _apply_level_windows(t: Tournament, index: int) -> list[str]:
    """RULES 4.4: late registration / rebuys close at the end of their configured level."""
    closed = []
    if t.late_reg_until is not None and index > t.late_reg_until and t.registration_open:
        t.registration_open = False
        closed.append("registration")
    if t.rebuy_until is not None and index > t.rebuy_until and t.rebuys_open:
        t.rebuys_open = False
        closed.append("rebuys")
    return closed


def _schedule_next_boundary(t, items, anchor, now, within: timedelta | None = None) -> None:
    """After commit, queue an ETA task for each of the next few boundaries, so the worker
    holds them well before they are due (a stale one, after a pause or a jump, finds nothing
    to announce: the announcement is derived from the anchors). ``within``: every boundary
    before ``now + within`` instead (the sweep's, so a restarted worker that lost the ticks
    it held gets them again before they are due)."""
    if not anchor.running:
        return
    if within is None:
        upcoming = clock_engine.boundaries(items, anchor, now, now + timedelta(hours=2))[:3]
    else:
        upcoming = clock_engine.boundaries(items, anchor, now, now + within)[:MAX_SWEEP_TICKS]
    if not upcoming:
        return
    tid = t.pk

    def send() -> None:
        for index, at in upcoming:
            schedule.clock_tick(tid, index, at)

    transaction.on_commit(send)


def clock_ticks_queue(*, due: list[ClockDue], now: datetime, within: timedelta) -> int:
    """The sweep's ticks for clocks with nothing to record now (``clocks_due``): queue each
    boundary before ``now + within``, as ``clock_announce`` with ``schedule_within`` does,
    without taking each tournament's lock: the structures in one statement, however many
    events (issue 30). A tick from an anchor changed since finds nothing to announce (the
    announcement is derived under the lock), and the action that changed it queued its own."""
    if not due:
        return 0
    structures = structures_items(d.tournament_id for d in due)
    n = 0
    for d in due:
        items = structures[d.tournament_id]
        if not items:
            continue
        upcoming = clock_engine.boundaries(items, d.anchor, now, now + within)
        for index, at in upcoming[:MAX_SWEEP_TICKS]:
            schedule.clock_tick(d.tournament_id, index, at)
            n += 1
    return n


def clock_announce(
    *, tournament_id: int, now: datetime | None = None, schedule_within: timedelta | None = None
) -> list[int]:
    """Record each level or break that has started since the last announcement, exactly once
    (LevelStarted / BreakStarted), and apply what a transition does: close late registration
    and rebuys at their levels (RULES 4.4), prepare a color-up break. Idempotent: the
    tournament lock and `clock_announced` make a second or concurrent run record nothing.
    ``schedule_within`` (the sweep's): also queue the ticks of the boundaries coming before
    ``now + schedule_within``, whether or not anything was recorded."""
    now = now or timezone.now()
    with tournament_action(tournament_id) as t:
        if not t.clock_started or t.status == Tournament.Status.FINISHED:
            return []
        items = structure_items(t)
        anchor = anchor_of(t)
        recorded = _announce_locked(t, items, anchor, now)
        if flight_clock_stop(t, items, anchor, now) is not None:  # RULES 10.2
            return recorded
        if recorded:
            _freeze_if_closed(t)
            _schedule_next_boundary(t, items, anchor, now)
        if schedule_within is not None:
            _schedule_next_boundary(t, items, anchor, now, within=schedule_within)
    return recorded


def _announce_locked(t: Tournament, items, anchor: clock_engine.Anchor, now: datetime) -> list[int]:
    """The body of ``clock_announce`` for a caller holding the lock: record every item started
    under ``anchor`` since ``t.clock_announced`` (a paused anchor's own item too), apply its
    windows (RULES 4.4) and, at a color-up break, the color-up it prepares (RULES 5.1)."""
    if not anchor.started:
        return []
    # RULES 10.2: nothing past a flight's last level is started (its clock stops there)
    last = flight_last_item(t, clock_engine.state(items, anchor, now).index)
    if last <= t.clock_announced:
        return []
    recorded: list[int] = []
    for idx in range(t.clock_announced + 1, last + 1):
        item = items[idx]
        kind = "break_started" if item.kind == "break" else "level_started"
        closed = _apply_level_windows(t, idx)
        due = _item_start(items, anchor, idx, now)
        payload = {
            "index": idx,
            "due": due,
            "recorded_at": now.isoformat(),
            "closed": closed,
            "color_up": list(item.color_up),
        }
        if item.kind == "break" and item.color_up:
            due_at = datetime.fromisoformat(due) if due else now
            payload["color_up_pending"] = _color_up_prepared(t, due_at)
        record_event(t, kind, payload)
        recorded.append(idx)
    t.clock_announced = last
    Tournament.objects.filter(pk=t.pk).update(
        clock_announced=last,
        registration_open=t.registration_open,
        rebuys_open=t.rebuys_open,
    )
    return recorded


def flight_clock_stop(t: Tournament, items, anchor: clock_engine.Anchor, now: datetime, actor=None):
    """A running flight's clock stops at the flight's end (RULES 10.2; ``flight_stop`` says
    where and why) and ``flight_ended`` is recorded; returns that event, or None when the
    flight plays on. Stopped, the clock is left alone by the ticks and the sweep; the
    action's journal keeps the running anchor, so its undo puts the clock back."""
    stop = flight_stop(t, items, anchor, now)
    if stop is None:
        return None
    _store_anchor(t, stop.anchor)
    Tournament.objects.filter(pk=t.pk).update(
        clock_index=t.clock_index,
        clock_left_ms=t.clock_left_ms,
        clock_at=t.clock_at,
        clock_running=t.clock_running,
    )
    return record_event(t, "flight_ended", stop.payload(), actor, defer=True)


def _color_up_prepared(t: Tournament, at: datetime) -> dict[str, Any]:
    """What the color-up of the break starting at ``at`` will do (``colorup_pending``
    at that instant, RULES 5.1): the chips it removes, the chip each changes up into, the
    tables that have to race and the chips in play; recorded in the BreakStarted event, so
    the floor has the plan at the boundary (the color-up page derives the same live)."""
    p = colorup_pending(t, at)
    return {
        "break_index": p["break_index"],
        "denominations": p["denominations"],
        "tables": [x["table"] for x in p["tables"] if x["to_race"]],
        "total_chips": p["total_chips"],
        "players_left": p["players_left"],
        "average_stack": p["average_stack"],
    }


def _item_start(items, anchor, idx, now) -> str | None:
    if anchor.at is None:
        return None
    for i, at in clock_engine.boundaries(items, anchor, anchor.at, now):
        if i == idx:
            return at.isoformat()
    return None
