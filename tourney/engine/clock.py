"""The tournament clock, derived from anchors and ``now`` (RULES 4.3).

The clock is never a counter. An :class:`Anchor` records the item (level or break) the clock was
in, the time left in it, the wall time of the anchor and whether the clock runs. Every reading
(:func:`state`) walks the structure from the anchor: while running, time left = left at anchor -
(now - anchor); when it reaches zero the next item starts with its full duration, and so on.
Pause, resume, adjust, jump, next and previous return a new anchor; nothing ever ticks.

Arithmetic is in integer milliseconds since the Unix epoch, so there is no drift: a timestamp is
floored to the millisecond (the clock's resolution) before any subtraction, and the anchors this
module creates carry millisecond-aligned times. Datetimes must be timezone-aware; the ones
returned are in UTC.

Readings of ambiguous points (documented here once, tested in ``tests/engine/test_clock.py``):

- At exactly zero the next item has started: at the boundary instant :func:`state` shows the new
  item with its full duration, and :func:`boundaries` includes it in ``(after, until]``.
- A reading earlier than a running anchor's time shows the anchor itself (no negative elapsed).
- ``jump``, ``next_item``, ``previous_item`` and ``adjust`` work before the start too (the
  director may open on a later level or shorten the first); the clock stays not started and
  :func:`start` begins where the anchor says.
- ``next_item`` on the last item finishes the clock ("after the last item the clock is
  finished"); on a finished clock it is refused. ``previous_item`` on the first item restarts it;
  on a finished clock it restarts the last item (so it undoes a ``next_item`` that finished).
- ``jump`` is allowed on a finished clock (it is the way back into the structure); it keeps the
  running/paused flag.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from tourney.engine.errors import N_, DomainError

LEVEL = "level"
BREAK = "break"
KINDS = (LEVEL, BREAK)

NOT_STARTED = "not_started"
RUNNING = "running"
PAUSED = "paused"
FINISHED = "finished"

MAX_ADJUST_SECONDS = 24 * 3600

MSG_NO_ITEMS = N_("The structure has no levels.")
MSG_BAD_ITEM = N_("Every item needs a kind of level or break and a duration above zero.")
MSG_BAD_ANCHOR = N_("The clock anchor does not fit the structure.")
MSG_NAIVE_TIME = N_("Times must carry a timezone.")
MSG_NOT_STARTED = N_("The clock has not started.")
MSG_ALREADY_STARTED = N_("The clock has already started.")
MSG_ALREADY_PAUSED = N_("The clock is already paused.")
MSG_NOT_PAUSED = N_("The clock is not paused.")
MSG_FINISHED = N_("The clock has run through the whole structure.")
MSG_BAD_INDEX = N_("There is no such level or break.")
MSG_BAD_SECONDS = N_("Seconds must be a whole number between -86400 and 86400.")
MSG_BAD_TIME_LEFT = N_(
    'Type the time left as minutes ("12") or minutes:seconds ("12:30"), up to 24 hours.'
)

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)


@dataclass(frozen=True, slots=True)
class Item:
    """One level or break of a structure (RULES 4.1). Amounts in chips, duration in seconds."""

    kind: str
    seconds: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    big_blind_ante: int = 0
    color_up: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Anchor:
    """A recorded clock position (RULES 4.3): item ``index`` had ``left_ms`` left at ``at``."""

    index: int
    left_ms: int
    at: datetime | None
    running: bool
    started: bool


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clock as derived at one instant."""

    status: str
    index: int
    remaining_ms: int
    item: Item
    next_index: int | None
    next_level_index: int | None
    next_break_index: int | None
    ms_to_next_break: int | None
    level_number: int | None
    ends_at: datetime | None


# -- time helpers ---------------------------------------------------------------------------------


def to_ms(moment: datetime) -> int:
    """Milliseconds since the epoch, floored (the clock's resolution). Rejects naive times."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise DomainError("naive_datetime", MSG_NAIVE_TIME, status=400)
    return (moment - _EPOCH) // _ONE_MS


def from_ms(ms: int) -> datetime:
    """The UTC datetime of ``ms`` milliseconds since the epoch."""
    return _EPOCH + timedelta(milliseconds=ms)


# -- validation -----------------------------------------------------------------------------------


def _check_items(items: Sequence[Item]) -> None:
    if not items:
        raise DomainError("bad_structure", MSG_NO_ITEMS, status=400)
    for item in items:
        if (
            not isinstance(item, Item)
            or item.kind not in KINDS
            or isinstance(item.seconds, bool)
            or not isinstance(item.seconds, int)
            or item.seconds <= 0
        ):
            raise DomainError("bad_structure", MSG_BAD_ITEM, status=400)


def _check_anchor(items: Sequence[Item], anchor: Anchor) -> None:
    ok = (
        isinstance(anchor.index, int)
        and 0 <= anchor.index < len(items)
        and isinstance(anchor.left_ms, int)
        and not (anchor.running and anchor.at is None)
        and not (anchor.running and not anchor.started)
    )
    if not ok:
        raise DomainError("bad_anchor", MSG_BAD_ANCHOR, status=400)
    if anchor.at is not None:
        to_ms(anchor.at)


def _derive(items: Sequence[Item], anchor: Anchor, now_ms: int) -> tuple[int, int, bool]:
    """(index, remaining_ms, finished) at ``now_ms``. RULES 4.3: the walk through the items."""
    index = anchor.index
    left = anchor.left_ms
    if anchor.running:
        assert anchor.at is not None
        left -= max(0, now_ms - to_ms(anchor.at))
    last = len(items) - 1
    while left <= 0 and index < last:
        index += 1
        left += items[index].seconds * 1000
    if left <= 0:
        return last, 0, True
    return index, left, False


def index_within_anchor(anchor: Anchor, now: datetime) -> int | None:
    """The item the clock is in at ``now`` when that is still the anchor's own item (RULES
    4.3: it has time left), read without the structure; None when the walk through the items
    is needed (``state``). Most reads fall inside the anchor's item: a late entry asking
    whether registration is still open need not read the structure for it."""
    left = anchor.left_ms
    if anchor.running:
        if anchor.at is None:
            return None
        left -= max(0, to_ms(now) - to_ms(anchor.at))
    return anchor.index if left > 0 else None


def _anchor_time(anchor: Anchor, now_ms: int) -> datetime | None:
    return from_ms(now_ms) if anchor.started else None


# -- reading --------------------------------------------------------------------------------------


def initial_anchor(items: Sequence[Item]) -> Anchor:
    """The clock of a new tournament: first item, full time, not started, not running."""
    _check_items(items)
    return Anchor(index=0, left_ms=items[0].seconds * 1000, at=None, running=False, started=False)


def state(items: Sequence[Item], anchor: Anchor, now: datetime) -> ClockState:
    """The clock at ``now`` (RULES 4.3), derived from ``anchor``; nothing is counted.

    ``ms_to_next_break`` counts the current item's remaining time plus the full durations of the
    items between it and the next break. ``level_number`` counts levels only (1-based).
    """
    _check_items(items)
    _check_anchor(items, anchor)
    now_ms = to_ms(now)
    index, left, finished = _derive(items, anchor, now_ms)
    item = items[index]
    if not anchor.started:
        status = NOT_STARTED
    elif finished:
        status = FINISHED
    elif anchor.running:
        status = RUNNING
    else:
        status = PAUSED

    level_number = None
    if item.kind == LEVEL:
        level_number = sum(1 for it in items[: index + 1] if it.kind == LEVEL)

    next_index = next_level = next_break = to_break = None
    if not finished:
        if index + 1 < len(items):
            next_index = index + 1
        between = 0
        for j in range(index + 1, len(items)):
            kind = items[j].kind
            if kind == LEVEL and next_level is None:
                next_level = j
            if kind == BREAK:
                next_break = j
                to_break = left + between
                break
            between += items[j].seconds * 1000

    ends_at = None
    if status == RUNNING:
        ends_at = from_ms(now_ms + left)
    return ClockState(
        status=status,
        index=index,
        remaining_ms=left,
        item=item,
        next_index=next_index,
        next_level_index=next_level,
        next_break_index=next_break,
        ms_to_next_break=to_break,
        level_number=level_number,
        ends_at=ends_at,
    )


def boundaries(
    items: Sequence[Item], anchor: Anchor, after: datetime, until: datetime
) -> list[tuple[int, datetime]]:
    """(index, start time) of every item that starts in ``(after, until]`` while running.

    For scheduling the announcement timer (RULES 4.2) and catching missed transitions. A paused
    or not started clock has no boundaries. The end of the last item is not an item start; see
    :func:`finishes_at`.
    """
    _check_items(items)
    _check_anchor(items, anchor)
    after_ms, until_ms = to_ms(after), to_ms(until)
    if not anchor.running:
        return []
    assert anchor.at is not None
    start = to_ms(anchor.at) + anchor.left_ms
    found: list[tuple[int, datetime]] = []
    for j in range(anchor.index + 1, len(items)):
        if start > until_ms:
            break
        if start > after_ms:
            found.append((j, from_ms(start)))
        start += items[j].seconds * 1000
    return found


def finishes_at(items: Sequence[Item], anchor: Anchor) -> datetime | None:
    """When a running clock runs out of structure (RULES 4.3); None when paused or not started."""
    _check_items(items)
    _check_anchor(items, anchor)
    if not anchor.running:
        return None
    assert anchor.at is not None
    rest = sum(it.seconds for it in items[anchor.index + 1 :]) * 1000
    return from_ms(to_ms(anchor.at) + anchor.left_ms + rest)


# -- transitions (RULES 4.3): each returns a new anchor -------------------------------------------


def _prepare(items: Sequence[Item], anchor: Anchor, now: datetime) -> tuple[int, int, int, bool]:
    _check_items(items)
    _check_anchor(items, anchor)
    now_ms = to_ms(now)
    index, left, finished = _derive(items, anchor, now_ms)
    return now_ms, index, left, finished


def start(items: Sequence[Item], now: datetime, *, anchor: Anchor | None = None) -> Anchor:
    """Start the clock at ``now``. Without ``anchor`` from the first item with full time;
    with a not started ``anchor`` (e.g. after a jump) from where it stands."""
    base = initial_anchor(items) if anchor is None else anchor
    now_ms, index, left, finished = _prepare(items, base, now)
    if base.started:
        raise DomainError("clock_already_started", MSG_ALREADY_STARTED, status=409)
    if finished:
        raise DomainError("clock_finished", MSG_FINISHED, status=409)
    return Anchor(index=index, left_ms=left, at=from_ms(now_ms), running=True, started=True)


def pause(items: Sequence[Item], anchor: Anchor, now: datetime) -> Anchor:
    """Pause: re-anchor at the derived position with the clock stopped."""
    now_ms, index, left, finished = _prepare(items, anchor, now)
    if not anchor.started:
        raise DomainError("clock_not_started", MSG_NOT_STARTED, status=409)
    if finished:
        raise DomainError("clock_finished", MSG_FINISHED, status=409)
    if not anchor.running:
        raise DomainError("clock_already_paused", MSG_ALREADY_PAUSED, status=409)
    return Anchor(index=index, left_ms=left, at=from_ms(now_ms), running=False, started=True)


def resume(items: Sequence[Item], anchor: Anchor, now: datetime) -> Anchor:
    """Resume a paused clock: the time left at the pause runs again from ``now``."""
    now_ms, index, left, finished = _prepare(items, anchor, now)
    if not anchor.started:
        raise DomainError("clock_not_started", MSG_NOT_STARTED, status=409)
    if finished:
        raise DomainError("clock_finished", MSG_FINISHED, status=409)
    if anchor.running:
        raise DomainError("clock_not_paused", MSG_NOT_PAUSED, status=409)
    return Anchor(index=index, left_ms=left, at=from_ms(now_ms), running=True, started=True)


def adjust(items: Sequence[Item], anchor: Anchor, now: datetime, seconds: int) -> Anchor:
    """Add (``seconds`` > 0) or remove time from the current item. Removing as much as is left or
    more ends the item now: the next item starts now with its full duration (on the last item
    the clock finishes). The item may end up with more time than its nominal duration."""
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int)
        or abs(seconds) > MAX_ADJUST_SECONDS
    ):
        raise DomainError("bad_seconds", MSG_BAD_SECONDS, fields={"seconds": MSG_BAD_SECONDS})
    now_ms, index, left, finished = _prepare(items, anchor, now)
    if finished:
        raise DomainError("clock_finished", MSG_FINISHED, status=409)
    left += seconds * 1000
    if left <= 0:
        if index + 1 < len(items):
            index += 1
            left = items[index].seconds * 1000
        else:
            left = 0
    return Anchor(
        index=index,
        left_ms=left,
        at=_anchor_time(anchor, now_ms),
        running=anchor.running,
        started=anchor.started,
    )


def set_remaining(items: Sequence[Item], anchor: Anchor, now: datetime, seconds: int) -> Anchor:
    """The director types the time left of the current item (RULES 4.3: a change of the current
    item's time left, like ``adjust``): from ``now`` it has exactly ``seconds`` left, running or
    paused as it was. It may be more than the item's nominal duration."""
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int)
        or not 0 < seconds <= MAX_ADJUST_SECONDS
    ):
        raise DomainError("bad_seconds", MSG_BAD_TIME_LEFT, fields={"seconds": MSG_BAD_TIME_LEFT})
    now_ms, index, _, finished = _prepare(items, anchor, now)
    if finished:
        raise DomainError("clock_finished", MSG_FINISHED, status=409)
    return Anchor(
        index=index,
        left_ms=seconds * 1000,
        at=_anchor_time(anchor, now_ms),
        running=anchor.running,
        started=anchor.started,
    )


def jump(items: Sequence[Item], anchor: Anchor, now: datetime, index: int) -> Anchor:
    """Start item ``index`` now with its full duration, keeping the clock running or paused."""
    now_ms, _, _, _ = _prepare(items, anchor, now)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(items):
        raise DomainError("bad_index", MSG_BAD_INDEX, fields={"index": MSG_BAD_INDEX})
    return Anchor(
        index=index,
        left_ms=items[index].seconds * 1000,
        at=_anchor_time(anchor, now_ms),
        running=anchor.running,
        started=anchor.started,
    )


def next_item(items: Sequence[Item], anchor: Anchor, now: datetime) -> Anchor:
    """Start the next item now with its full duration; on the last item, finish the clock."""
    now_ms, index, _, finished = _prepare(items, anchor, now)
    if finished:
        raise DomainError("clock_finished", MSG_FINISHED, status=409)
    if index + 1 < len(items):
        return jump(items, anchor, now, index + 1)
    return Anchor(
        index=index,
        left_ms=0,
        at=_anchor_time(anchor, now_ms),
        running=anchor.running,
        started=anchor.started,
    )


def previous_item(items: Sequence[Item], anchor: Anchor, now: datetime) -> Anchor:
    """Start the previous item now with its full duration (the first item restarts itself;
    a finished clock restarts its last item)."""
    _, index, _, finished = _prepare(items, anchor, now)
    target = index if finished else max(index - 1, 0)
    return jump(items, anchor, now, target)


def stop(items: Sequence[Item], anchor: Anchor, now: datetime) -> Anchor:
    """The tournament is over (one player left): the clock stops where it stands at ``now``,
    whatever it was doing (running, paused, past the end). A clock that never started stays
    as it is. Unlike ``pause`` this never refuses: the last bust must always end the day."""
    now_ms, index, left, _ = _prepare(items, anchor, now)
    if not anchor.started:
        return anchor
    return Anchor(index=index, left_ms=left, at=from_ms(now_ms), running=False, started=True)


def over(clock: ClockState) -> ClockState:
    """The reading of a clock whose tournament is over: finished where it stopped, nothing
    next, nothing to count down to."""
    return replace(
        clock,
        status=FINISHED,
        next_index=None,
        next_level_index=None,
        next_break_index=None,
        ms_to_next_break=None,
        ends_at=None,
    )


# -- plain-data views -----------------------------------------------------------------------------


def item_to_dict(item: Item) -> dict[str, Any]:
    """An item in the shape of docs/api.md's ``levels`` entries (``minutes`` when whole)."""
    data: dict[str, Any] = {"kind": item.kind}
    if item.kind == LEVEL:
        data.update(
            small_blind=item.small_blind,
            big_blind=item.big_blind,
            ante=item.ante,
            big_blind_ante=item.big_blind_ante,
        )
    else:
        data["color_up"] = list(item.color_up)
    if item.seconds % 60 == 0:
        data["minutes"] = item.seconds // 60
    data["seconds"] = item.seconds
    return data


def format_time(moment: datetime) -> str:
    """ISO 8601 in UTC with milliseconds and ``Z``, as docs/api.md's ``server_time``."""
    return from_ms(to_ms(moment)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def state_to_dict(items: Sequence[Item], clock: ClockState, now: datetime) -> dict[str, Any]:
    """The body of ``GET /api/v1/tournaments/{id}/clock`` (docs/api.md) plus derived extras."""
    nxt = items[clock.next_index] if clock.next_index is not None else None
    return {
        "status": clock.status,
        "level_index": clock.index,
        "level": item_to_dict(clock.item),
        "remaining_ms": clock.remaining_ms,
        "next": item_to_dict(nxt) if nxt is not None else None,
        "level_number": clock.level_number,
        "next_break_index": clock.next_break_index,
        "ms_to_next_break": clock.ms_to_next_break,
        "ends_at": format_time(clock.ends_at) if clock.ends_at is not None else None,
        "server_time": format_time(now),
    }
