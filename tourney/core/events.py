"""The audit log: every action records an Event and bumps the tournament's version."""

from __future__ import annotations

from typing import Any

from tourney.core.event_rows import Counters, event_insert, event_payload_write
from tourney.core.journal import current as journal_current
from tourney.models import Event, Tournament


def record_event(
    t: Tournament | None,
    kind: str,
    payload: dict[str, Any],
    actor=None,
    *,
    defer: bool = False,
    table_number: int | None = None,
    also: Counters | None = None,
) -> Event:
    """Write the audit row and bump the tournament's version (screens poll it); inside a
    journaled action the bump is written with the action's other counters, once.
    ``table_number``: the table the event concerns, where it is looked up by table.

    ``defer``: inside a journaled action, the row is inserted at the end together with its
    undo data (one INSERT instead of an INSERT and an UPDATE). For callers that need no id
    during the action; ``event_saved`` gives it one if they do after all.

    ``also``: more counter changes of the tournament row (a draw counter, chips added),
    written by the same statement outside a journal (for actions that keep none)."""
    j = journal_current()
    mine = t is not None and j is not None and j.tournament_id == t.pk
    if also is not None and (mine or t is None):
        raise ValueError("also: for actions outside a journal")
    if mine:
        j.version_steps += 1
    event = Event(
        tournament=t,
        kind=kind,
        payload=payload,
        actor=actor if (actor is not None and actor.is_authenticated) else None,
        table_number=table_number,
    )
    if defer and mine:
        j.events.append(event)
        return event
    if j is not None:
        for earlier in j.events:  # ids follow the order events were recorded in
            event_saved(earlier)
    # Outside this tournament's journal the version steps with the insert (one statement).
    if t is None or mine:
        counters = None
    elif also is not None:
        counters = Counters(t.pk, also.version_steps + 1, also.draw_counter, also.chips_delta)
    else:
        counters = Counters(t.pk, 1, None)
    event_insert(event, counters)
    if j is not None:
        j.events.append(event)
    return event


def event_saved(event: Event) -> Event:
    """The event with its row written (a deferred one is inserted now)."""
    if event.pk is None:
        event_insert(event)
    return event


def event_payload_set(event: Event, payload: dict[str, Any]) -> None:
    """Rewrite an Event's payload once the action knows its outcome. Inside a journaled
    action the journal writes it with the undo data (one UPDATE, not two)."""
    event.payload = payload
    j = journal_current()
    if j is None:
        event_payload_write(event)
    elif event not in j.changed:
        j.changed.append(event)
