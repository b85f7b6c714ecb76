"""The room's actions (issue 27): the changes that belong to no one tournament (the player
database, leagues and seasons), newest first, and the undo of one of them
(``tourney/core/room_journal.py``). Also what the players and leagues routers share: a row id
from the path, and the room action a write just recorded (its id is the handle of its undo).

Readings:

* The undo goes through ``player_action_undo``: ``room_undo`` of any room action, refused
  (``players_entered``) when it would delete a player who has entered a tournament since.
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
from tourney.api.common import need_director
from tourney.core.room_journal import room_log
from tourney.engine.numbers import MAX_ID
from tourney.models import Event
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
