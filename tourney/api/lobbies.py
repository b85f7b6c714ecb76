"""Lobby displays (issue 28): a screen that shows several events' clocks at once, by its own
link. The desk reads them, the director creates, changes and deletes them (room actions of
tourney/services/lobbies.py, undone by ``POST /room/actions/{id}/undo``); anyone with a
lobby's link reads what it shows (``GET /lobby/{token}``, no login, as the display's).

Readings:

* ``tournaments``: the ids of the events chosen; empty means every event of today and upcoming
  that is not finished (``all_events`` true). ``showing``: the events the lobby shows now, in
  its order (running first, then registering, each by start time).
* ``PATCH /lobbies/{id}`` changes what is given and keeps the rest; ``"tournaments": []``
  shows every event of today and upcoming again.
* ``action`` in a write's answer is the id of the room action it recorded (its undo's handle).
* ``GET /lobby/{token}`` answers what the lobby screen polls (``/lobby/{token}/state.json``,
  which also answers 304 to an unchanged ETag): each event's clock as ``remaining_ms`` at
  ``server_time_ms`` with the items that follow (RULES 4.3), its field and money, and for an
  event one may still enter its seats left and price.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from ninja import Field, Router, Schema, Status
from pydantic import ConfigDict

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import need_desk, need_director
from tourney.api.room import action_of, created_in, row_id
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.models import Lobby
from tourney.selectors import lobby as reads
from tourney.services import lobbies as writes

router = Router(tags=["lobby displays"], **out.ROUTER_OPTIONS)

TEXT_MAX = 1000  # the service refuses past its own limit, naming the field
SETTING_MAX = 10**6


# ---------------------------------------------------------------- the answers


class LobbyEventOut(out.Out):
    id: int
    name: str
    status: str


class LobbyOut(out.Out):
    id: int
    name: str
    token: str
    url: str
    per_page: int
    page_seconds: int
    all_events: bool
    tournaments: list[int]
    showing: list[LobbyEventOut]
    created: str


class LobbyWrittenOut(LobbyOut):
    action: int | None


class LobbiesOut(out.Out):
    lobbies: list[LobbyOut]


class LobbyDeletedOut(out.Out):
    deleted: int
    action: int | None


class LobbyCardOut(out.Out):
    token: str
    name: str
    phase: str
    status: str
    level_index: int
    remaining_ms: int
    ms_to_next_break: int | None
    server_time_ms: int
    items: list[dict[str, Any]]
    more_items: bool
    players_left: int
    entries: int
    average_stack: int
    prize_pool: str
    pool_label: str
    hand_for_hand: bool
    starts_at_ms: int | None
    starts_text: str
    flight_line: str
    registering: bool
    seats_left: int | None
    price: str
    price_parts: str


class LobbyStateOut(out.Out):
    format: int
    etag: str
    name: str
    per_page: int
    page_seconds: int
    server_time_ms: int
    events: list[LobbyCardOut]


def lobby_dict(lobby: Lobby) -> dict[str, Any]:
    chosen = sorted(lobby.tournaments.values_list("pk", flat=True))
    return {
        "id": lobby.pk,
        "name": lobby.name,
        "token": lobby.token,
        "url": reverse("tourney-lobby", args=[lobby.token]),
        "per_page": lobby.per_page,
        "page_seconds": lobby.page_seconds,
        "all_events": not chosen,
        "tournaments": chosen,
        "showing": [
            {"id": t.pk, "name": t.name, "status": t.status} for t in reads.lobby_events(lobby)
        ],
        "created": lobby.created_at.isoformat(),
    }


def _lobby(lobby_id: int) -> Lobby:
    lobby = Lobby.objects.filter(pk=row_id(lobby_id)).first()
    if lobby is None:
        raise DomainError("not_found", writes.MSG_NO_LOBBY, status=404)
    return lobby


def _for(lobby_id: int):
    return lambda payload: payload.get("lobby") == lobby_id


# ---------------------------------------------------------------- the director's lobbies


@router.get("/lobbies", auth=api_auth.DESK, response=LobbiesOut, summary="Every lobby display")
def lobbies_get(request):
    need_desk(request)
    return {"lobbies": [lobby_dict(x) for x in Lobby.objects.order_by("name", "pk")]}


class LobbyIn(Schema):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=TEXT_MAX)
    tournaments: list[int] = Field(default=[], max_length=writes.EVENTS_MAX + 1)
    per_page: int = Field(default=6, ge=-SETTING_MAX, le=SETTING_MAX)
    page_seconds: int = Field(default=15, ge=-SETTING_MAX, le=SETTING_MAX)


class LobbyPatchIn(Schema):
    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, max_length=TEXT_MAX)
    tournaments: list[int] | None = Field(default=None, max_length=writes.EVENTS_MAX + 1)
    per_page: int | None = Field(default=None, ge=-SETTING_MAX, le=SETTING_MAX)
    page_seconds: int | None = Field(default=None, ge=-SETTING_MAX, le=SETTING_MAX)


def _ids(ids: list[int] | None) -> list[int] | None:
    if ids is not None and any(not 0 < i <= MAX_ID for i in ids):
        msg = writes.MSG_TOURNAMENTS
        raise DomainError("bad_tournaments", msg, fields={"tournaments": msg})
    return ids


@router.post(
    "/lobbies",
    auth=api_auth.DIRECTOR,
    response={201: LobbyWrittenOut},
    summary="Create a lobby display (no tournaments: every event of today and upcoming)",
)
def lobby_create(request, payload: LobbyIn):
    need_director(request)
    lobby = writes.lobby_create(
        name=payload.name,
        tournament_ids=_ids(payload.tournaments),
        per_page=payload.per_page,
        page_seconds=payload.page_seconds,
        actor=request.user,
    )
    action = action_of(request, "lobby_created", created_in("tourney.lobby", lobby.pk))
    return Status(201, {**lobby_dict(lobby), "action": action})


@router.get(
    "/lobbies/{lobby_id}",
    auth=api_auth.DESK,
    response=LobbyOut,
    summary="A lobby display: its settings, link and the events it shows now",
)
def lobby_get(request, lobby_id: int):
    need_desk(request)
    return lobby_dict(_lobby(lobby_id))


@router.patch(
    "/lobbies/{lobby_id}",
    auth=api_auth.DIRECTOR,
    response=LobbyWrittenOut,
    summary="Change a lobby display (what is left out keeps its value)",
)
def lobby_patch(request, lobby_id: int, payload: LobbyPatchIn):
    need_director(request)
    lobby = _lobby(lobby_id)
    lobby = writes.lobby_update(
        lobby_id=lobby.pk,
        name=payload.name,
        tournament_ids=_ids(payload.tournaments),
        per_page=payload.per_page,
        page_seconds=payload.page_seconds,
        actor=request.user,
    )
    return {**lobby_dict(lobby), "action": action_of(request, "lobby_updated", _for(lobby.pk))}


@router.delete(
    "/lobbies/{lobby_id}",
    auth=api_auth.DIRECTOR,
    response=LobbyDeletedOut,
    summary="Delete a lobby display (its link answers 404; undo brings it back)",
)
def lobby_delete(request, lobby_id: int):
    need_director(request)
    lobby = _lobby(lobby_id)
    writes.lobby_delete(lobby_id=lobby.pk, actor=request.user)
    return {"deleted": lobby.pk, "action": action_of(request, "lobby_deleted", _for(lobby.pk))}


# ---------------------------------------------------------------- the public lobby


@router.get(
    "/lobby/{token}",
    auth=None,
    response=LobbyStateOut,
    summary="What a lobby display shows, by its link (no login): every event's clock and field",
)
def lobby_state_get(request, token: str):
    found = reads.lobby_state(token)
    if found is None:
        raise DomainError("not_found", reads.MSG_NO_LOBBY, status=404)
    return found[1]
