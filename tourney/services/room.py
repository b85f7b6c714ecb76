"""The card room's settings (issue 28, RULES 13): its name and its floor plan, saved as a room
action (``tourney/core/room_journal.py``), so the room's undo takes a change back.

A plan typed as ranges is read by the engine (``tourney.engine.floor_plan.parse``); a plan that
leaves out a table number an unfinished event holds open now is refused, naming the event
(the table would be handed out twice, RULES 13.2)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_noop as N_

from tourney.core.locking import lock_room_tables
from tourney.core.room_journal import room_action, room_undo
from tourney.engine import floor_plan as plan_engine
from tourney.engine.errors import DomainError
from tourney.models import Event, Room
from tourney.selectors.room import events_using, tables_in_use

NAME_MAX = 120
MSG_NAME = N_("The room's name is at most 120 characters.")
MSG_IN_USE = N_(
    "The floor plan leaves out table(s) %(numbers)s, in use now by %(using)s: keep them in the "
    "plan until those tables are broken."
)
MSG_NOT_A_ROOM_CHANGE = N_("Choose a change of the room's settings from the list.")
KIND = "room_updated"
MSG_PLAN_TYPE = N_("Type the floor plan as table numbers and ranges, e.g. 1-20, 31-35, 40.")


def _plan(floor_plan: str | Sequence[int]) -> list[int]:
    """The plan from typed ranges, or from a list of numbers (the API) checked the same way."""
    if isinstance(floor_plan, str):
        return list(plan_engine.parse(floor_plan))
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in floor_plan):
        raise DomainError("bad_floor_plan", MSG_PLAN_TYPE, fields={"floor_plan": MSG_PLAN_TYPE})
    return list(plan_engine.parse(plan_engine.format_plan(list(floor_plan))))


def room_update(*, name: str, floor_plan: str | Sequence[int], actor=None) -> Room:
    """Save the room's ``name`` and ``floor_plan`` (ranges as typed, or the numbers in order;
    empty: no plan, tables numbered counting up). Errors: ``bad_name``, ``bad_floor_plan``
    (400), ``table_in_use`` (409)."""
    clean = (name or "").strip()
    if len(clean) > NAME_MAX:
        raise DomainError("bad_name", MSG_NAME, fields={"name": MSG_NAME})
    plan = _plan(floor_plan)
    Room.get()  # the one row exists before the action notes its image
    payload = {"name": clean, "floor_plan": plan_engine.format_plan(plan)}
    with room_action(KIND, actor, payload) as j:
        lock_room_tables()  # no table is opened between the check and the save
        room = Room.objects.select_for_update().get(pk=1)
        if plan:
            kept = set(plan)
            dropped = [row for row in tables_in_use() if row["number"] not in kept]
            if dropped:
                numbers = plan_engine.compact(row["number"] for row in dropped)
                params = {"numbers": numbers, "using": events_using(dropped)}
                raise DomainError(
                    "table_in_use",
                    MSG_IN_USE,
                    status=409,
                    params=params,
                    fields={"floor_plan": MSG_IN_USE % params},
                )
        j.before(room, ["name", "floor_plan"])
        room.name = clean
        room.floor_plan = plan
        room.save(update_fields=["name", "floor_plan", "updated_at"])
    return room


def room_update_undo(*, event_id: int, actor=None) -> Event:
    """Undo one change of the room's settings (the room's undo, ``room_undo``: refused while a
    later change of the settings is not undone). The plan put back is not checked against the
    tables in use: a table outside the plan stays open, only new tables follow the plan."""
    if not Event.objects.filter(pk=event_id, tournament__isnull=True, kind=KIND).exists():
        raise DomainError("not_found", MSG_NOT_A_ROOM_CHANGE, status=404)
    return room_undo(event_id=event_id, actor=actor)
