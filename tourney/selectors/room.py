"""The card room's reads (issue 28, RULES 13): which table numbers the unfinished events hold
open now, and the room's settings as the settings page and the API show them."""

from __future__ import annotations

from typing import Any

from tables.models import Table
from tourney.engine import floor_plan as plan_engine
from tourney.models import Room, Tournament

UNFINISHED = (Tournament.Status.SETUP, Tournament.Status.RUNNING)


def tables_in_use(*, exclude_tournament_id: int | None = None) -> list[dict[str, Any]]:
    """The open tables of every unfinished event (setup or running, not bagged: a bagged
    flight's tables are free for the next day, RULES 13.1), by number: ``number``,
    ``tournament_id``, ``tournament`` (its name). One query."""
    rows = Table.objects.filter(
        status=Table.Status.OPEN,
        tournament__status__in=UNFINISHED,
        tournament__bagged=False,
    )
    if exclude_tournament_id is not None:
        rows = rows.exclude(tournament_id=exclude_tournament_id)
    return [
        {"number": n, "tournament_id": tid, "tournament": name}
        for n, tid, name in rows.order_by("number", "tournament_id").values_list(
            "number", "tournament_id", "tournament__name"
        )
    ]


def events_using(in_use: list[dict[str, Any]]) -> str:
    """The events holding these tables, for a message: "Main Event (1–6), Turbo (7, 8)"."""
    by_event: dict[str, list[int]] = {}
    for row in in_use:
        by_event.setdefault(row["tournament"], []).append(row["number"])
    return ", ".join(
        f"{name} ({plan_engine.compact(numbers)})" for name, numbers in by_event.items()
    )


def room_read() -> dict[str, Any]:
    """The room's name, its floor plan (the numbers, and as ranges typed on the settings
    page) and the tables in use now."""
    room = Room.objects.filter(pk=1).first() or Room(pk=1)  # a read writes nothing
    plan = [int(n) for n in room.floor_plan or []]
    return {
        "name": room.name,
        "floor_plan": plan,
        "floor_plan_text": plan_engine.format_plan(plan),
        "tables_in_use": tables_in_use(),
    }
