"""Writing Event rows and the tournament's counters in plain SQL.

Every write action ends here: its Event row (with the undo journal) and the tournament's
counters (the version screens poll, the draw counter of RULES 1.1). They are the two writes
every action makes, so they take the fewest round trips the database allows: on PostgreSQL
one statement (the counters' UPDATE rides in a data-modifying WITH clause), elsewhere two.
Plain SQL also spares the model ``save()`` machinery, which cost more than the query.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection
from django.utils import timezone

from tourney.core.rows import kept_cursor
from tourney.models import Event, Tournament

EVENT = Event._meta.db_table
TOURNAMENT = Tournament._meta.db_table


class Counters:
    """Pending counter updates of one tournament row: ``version`` steps, a new
    ``draw_counter`` (None: unchanged) and chip value added by color-ups (RULES 5.9); and
    ``writes``, row writes an action left to its last statement ((SQL, parameters), no
    RETURNING; e.g. a new entry's seat), which ride along where the database allows it."""

    __slots__ = ("tournament_id", "version_steps", "draw_counter", "chips_delta", "writes")

    def __init__(
        self,
        tournament_id: int,
        version_steps: int,
        draw_counter: int | None,
        chips_delta: int = 0,
        writes: list[tuple[str, list[Any]]] | None = None,
    ):
        self.tournament_id = tournament_id
        self.version_steps = version_steps
        self.draw_counter = draw_counter
        self.chips_delta = chips_delta
        self.writes = writes or []

    def __bool__(self) -> bool:
        return self.counts() or bool(self.writes)

    def counts(self) -> bool:
        return bool(self.version_steps) or self.draw_counter is not None or bool(self.chips_delta)

    def sql(self) -> tuple[str, list[Any]]:
        """The counters' UPDATE (when ``counts()``)."""
        sets, params = [], []
        if self.version_steps:
            sets.append("version = version + %s")
            params.append(self.version_steps)
        if self.draw_counter is not None:
            sets.append("draw_counter = %s")
            params.append(self.draw_counter)
        if self.chips_delta:
            sets.append("chips_color_up_delta = chips_color_up_delta + %s")
            params.append(self.chips_delta)
        params.append(self.tournament_id)
        return f"UPDATE {TOURNAMENT} SET {', '.join(sets)} WHERE id = %s", params

    def ctes(self) -> tuple[list[str], list[Any]]:
        """The counters' UPDATE and the writes as data-modifying WITH items (PostgreSQL)."""
        items, params = [], []
        if self.counts():
            head, params = self.sql()
            items.append(f"c AS ({head})")
        for i, (sql, write_params) in enumerate(self.writes):
            items.append(f"w{i} AS ({sql})")
            params = params + list(write_params)
        return items, params


def combined_statements() -> bool:
    # Data-modifying statements in WITH: PostgreSQL only.
    return connection.vendor == "postgresql"


def counters_write(counters: Counters | None) -> None:
    if not counters:
        return
    with kept_cursor() as cursor:
        if combined_statements():
            items, params = counters.ctes()  # run even though nothing reads them
            cursor.execute(f"WITH {', '.join(items)} SELECT 1", params)
            return
        if counters.counts():
            sql, params = counters.sql()
            cursor.execute(sql, params)
        for sql, params in counters.writes:
            cursor.execute(sql, params)


def _jsonb() -> str:
    return "%s::jsonb" if connection.vendor == "postgresql" else "%s"


def insert_statement(event: Event) -> tuple[str, list[Any]]:
    """The event's INSERT (without RETURNING) and its parameters; sets its time."""
    if event.created_at is None:
        event.created_at = timezone.now()
    params: list[Any] = [
        event.tournament_id,
        event.kind,
        json.dumps(event.payload),
        event.actor_id,
        connection.ops.adapt_datetimefield_value(event.created_at),
        event.undone,
        event.table_number,
    ]
    insert = (
        f"INSERT INTO {EVENT} (tournament_id, kind, payload, actor_id, created_at, undone, "
        f"table_number) VALUES (%s, %s, {_jsonb()}, %s, %s, %s, %s)"
    )
    return insert, params


def event_insert(event: Event, counters: Counters | None = None) -> Event:
    """INSERT the event (setting its id and time), with the counters' UPDATE if given."""
    insert, params = insert_statement(event)
    with kept_cursor() as cursor:
        if counters and combined_statements():
            items, head_params = counters.ctes()
            cursor.execute(f"WITH {', '.join(items)} {insert} RETURNING id", head_params + params)
            event.pk = cursor.fetchone()[0]
        else:
            counters_write(counters)
            if connection.features.can_return_columns_from_insert:
                cursor.execute(insert + " RETURNING id", params)
                event.pk = cursor.fetchone()[0]
            else:
                cursor.execute(insert, params)
                event.pk = cursor.lastrowid
    event._state.adding = False
    return event


def event_payload_write(event: Event, counters: Counters | None = None) -> None:
    """UPDATE the event's payload, with the counters' UPDATE if given."""
    update = f"UPDATE {EVENT} SET payload = {_jsonb()} WHERE id = %s"
    params = [json.dumps(event.payload), event.pk]
    with kept_cursor() as cursor:
        if counters and combined_statements():
            items, head_params = counters.ctes()
            cursor.execute(f"WITH {', '.join(items)} {update}", head_params + params)
        else:
            counters_write(counters)
            cursor.execute(update, params)
