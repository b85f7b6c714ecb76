"""Audit: undo and redo the last action, and read the event log."""

from __future__ import annotations

from ninja import Router

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import director_tournament
from tourney.services.undo import action_redo, action_undo

router = Router(tags=["audit"], **out.ROUTER_OPTIONS)


@router.post(
    "/tournaments/{tid}/undo",
    auth=api_auth.DIRECTOR,
    response=out.UndoOut,
    summary="Undo the last action",
)
def undo_post(request, tid: int):
    director_tournament(request, tid)
    return action_undo(tournament_id=tid, actor=request.user)


@router.post(
    "/tournaments/{tid}/redo",
    auth=api_auth.DIRECTOR,
    response=out.RedoOut,
    summary="Redo the last undone action",
)
def redo_post(request, tid: int):
    director_tournament(request, tid)
    return action_redo(tournament_id=tid, actor=request.user)


@router.get(
    "/tournaments/{tid}/events",
    auth=api_auth.DIRECTOR,
    response=out.EventsOut,
    summary="The event log, newest first",
)
def events_get(request, tid: int, kind: str | None = None, limit: int = 100):
    t = director_tournament(request, tid)
    qs = t.events.select_related("actor").order_by("-id")
    if kind:
        qs = qs.filter(kind=kind)
    return {
        "events": [
            {
                "id": e.pk,
                "kind": e.kind,
                "at": e.created_at.isoformat(),
                "actor": e.actor.get_username() if e.actor else None,
                "undone": e.undone,
                "payload": {k: v for k, v in e.payload.items() if k not in ("undo", "call")},
            }
            for e in qs[: max(1, min(limit, 1000))]
        ]
    }
