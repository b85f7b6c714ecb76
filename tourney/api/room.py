"""The room's actions (issue 27): the changes that belong to no one tournament (the player
database, leagues and seasons), newest first, and the undo of one of them
(``tourney/core/room_journal.py``). Also what the players and leagues routers share: a row id
from the path, and the room action a write just recorded (its id is the handle of its undo).

Readings:

* The undo goes through ``player_action_undo``: ``room_undo`` of any room action, refused
  (``players_entered``) when it would delete a player who has entered a tournament since.
* Issue 28, the room itself (RULES 13): ``GET``/``PUT /room`` (its name, floor plan and the
  tables in use) and ``GET /room/tournaments`` (the director home's rows, with their alerts).
* ``action`` in a write's answer is the id of the room action it recorded, found among the
  caller's latest actions of that kind by what it wrote (the services return the rows, not the
  log's row).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404
from ninja import Field, Query, Router, Schema

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import need_desk, need_director
from tourney.core.room_journal import room_log
from tourney.engine.numbers import MAX_ID
from tourney.models import Event
from tourney.selectors import room as room_reads
from tourney.selectors import room_home
from tourney.services import room as room_writes
from tourney.services.players import player_action_undo

router = Router(tags=["room actions"], **out.ROUTER_OPTIONS)

MAX_LOG = 200
LOOKBACK = 20  # the caller's latest actions of a kind searched for the one just written


def row_id(value: int) -> int:
    """A row id from the path; beyond what the database holds is no row (404, never an
    overflow in the driver)."""
    if not 0 < value <= MAX_ID:
        raise Http404
    return value


def created_in(label: str, pk: int) -> Callable[[dict[str, Any]], bool]:
    """A room action's payload that created the row ``label`` #``pk``."""
    return lambda payload: [label, pk] in (payload.get("undo") or {}).get("created", [])


def action_of(request, kind: str, wrote: Callable[[dict[str, Any]], bool]) -> int | None:
    """The id of the caller's latest room action of ``kind`` whose payload ``wrote`` says is
    the one just recorded; None if there is none."""
    actor = request.user if request.user.is_authenticated else None
    latest = Event.objects.filter(
        tournament__isnull=True, kind=kind, actor=actor, undone=False
    ).order_by("-pk")
    for pk, payload in latest.values_list("pk", "payload")[:LOOKBACK]:
        if wrote(payload or {}):
            return pk
    return None


class RoomActionOut(out.Out):
    id: int
    kind: str
    payload: dict[str, Any]
    actor: str
    at: str
    undone: bool
    can_undo: bool


class RoomActionsOut(out.Out):
    actions: list[RoomActionOut]


class RoomActionsQuery(Schema):
    kind: str | None = Field(default=None, max_length=40)
    limit: int = Field(default=50, ge=1, le=MAX_LOG)


@router.get(
    "/room/actions",
    auth=api_auth.DIRECTOR,
    response=RoomActionsOut,
    summary="The room's actions (players, leagues, seasons), newest first, with their undo",
)
def room_actions_get(request, query: Query[RoomActionsQuery]):
    need_director(request)
    kinds = [query.kind] if query.kind else None
    rows = room_log(kinds=kinds, limit=query.limit)
    return {"actions": [{**r, "at": r["at"].isoformat()} for r in rows]}


@router.post(
    "/room/actions/{event_id}/undo",
    auth=api_auth.DIRECTOR,
    response=out.UndoOut,
    summary="Undo one room action (refused while a later action changed the same rows)",
)
def room_action_undo(request, event_id: int):
    need_director(request)
    undo = player_action_undo(event_id=row_id(event_id), actor=request.user)
    return {"undid": undo.payload["undid"], "kind": undo.payload["kind"]}


# ---------------------------------------------------------------- the room (issue 28)


class TableInUseOut(out.Out):
    number: int
    tournament_id: int


class RoomOut(out.Out):
    name: str
    floor_plan: list[int]
    tables_in_use: list[TableInUseOut]


class RoomIn(Schema):
    name: str = Field(default="", max_length=200)
    # the table numbers in the order they are handed out, or ranges as typed ("1-20, 40")
    floor_plan: list[int] | str = Field(default_factory=list)


class AlertOut(out.Out):
    code: str
    message: str


class HomeLevelOut(out.Out):
    kind: str
    number: int | None
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: int


class HomeRowOut(out.Out):
    id: int
    name: str
    starts_at: str | None
    status: str
    level: HomeLevelOut | None
    remaining_ms: int | None
    clock_running: bool
    players_left: int
    entries: int
    tables: list[int]
    alerts: list[AlertOut]


class HomeRowsOut(out.Out):
    tournaments: list[HomeRowOut]


def _room() -> dict[str, Any]:
    read = room_reads.room_read()
    return {
        "name": read["name"],
        "floor_plan": read["floor_plan"],
        "tables_in_use": [
            {"number": r["number"], "tournament_id": r["tournament_id"]}
            for r in read["tables_in_use"]
        ],
    }


@router.get(
    "/room",
    auth=api_auth.DESK,
    response=RoomOut,
    summary="The room: its name, its floor plan and the tables in use now (RULES 13)",
)
def room_get(request):
    need_desk(request)
    return _room()


@router.put(
    "/room",
    auth=api_auth.DIRECTOR,
    response=RoomOut,
    summary="Set the room's name and floor plan (refused if it leaves out a table in use)",
)
def room_put(request, payload: RoomIn):
    need_director(request)
    room_writes.room_update(name=payload.name, floor_plan=payload.floor_plan, actor=request.user)
    return _room()


HOME_KEYS = tuple(HomeRowOut.model_fields)


@router.get(
    "/room/tournaments",
    auth=api_auth.DESK,
    response=HomeRowsOut,
    summary="Today's and upcoming events with their clocks, fields, tables and alerts",
)
def room_tournaments_get(request):
    need_desk(request)
    rows = []
    for r in room_home.home_rows():
        row = {k: r[k] for k in HOME_KEYS}
        row["starts_at"] = r["starts_at"].isoformat() if r["starts_at"] else None
        rows.append(row)
    return {"tournaments": rows}
