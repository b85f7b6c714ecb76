"""The desk across events (issue 28): the events a desk can send a player to (GET
/room/events-open: today's and upcoming, not finished, with seats, alternates, price parts,
start and registration; ``tourney.selectors.desk_events`` says the readings) and the waiting
list of a full event (POST /tournaments/{tid}/waiting-list: ``services.waiting_list``).

Readings:

* "Today" is the server's zone (TIME_ZONE); each start is given in the event's own zone with
  its offset (ISO 8601), as the tournament's read gives it.
* ``exclude``: the desk's own event, left out of the list (as the desk screen does).
* The waiting list answers 201 with the alternate entry and its ``place`` (1: seated first);
  the refusals are 409 (``tournament_finished``, ``registration_closed``, ``player_in_play``
  with ``place`` when they already wait, ``seats_open``, ``no_reentries_left``), 404 for a
  tournament or player that does not exist, 400 for neither a player nor a name."""

from __future__ import annotations

from django.utils import timezone
from ninja import Field, Query, Router, Schema, Status

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import need_desk, seat_of
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.selectors import desk_events as reads
from tourney.services.waiting_list import waiting_list_join

router = Router(tags=["registration"], **out.ROUTER_OPTIONS)

MSG_WHO = "Give a player_id or a name."


class EventOpenOut(out.Out):
    id: int
    name: str
    status: str
    status_text: str
    level: int | None
    starts_at: str | None
    seats_left: int
    new_tables: bool
    alternates: int
    full: bool
    entries: int
    price: int
    prize_pool: int
    bounty: int
    fee: int
    registration_open: bool
    late_reg_level: int | None
    action: str


class EventsOpenOut(out.Out):
    events: list[EventOpenOut]


class EventsOpenQuery(Schema):
    exclude: int | None = Field(default=None, ge=1, le=MAX_ID)


FIELDS = tuple(EventOpenOut.model_fields)


def _event(row: dict) -> dict:
    shaped = {k: row[k] for k in FIELDS if k != "starts_at"}
    shaped["starts_at"] = row["starts_local"].isoformat() if row["starts_local"] else None
    return shaped


@router.get(
    "/room/events-open",
    auth=api_auth.DESK,
    response=EventsOpenOut,
    summary="The events a desk can register into: today's and upcoming, not finished",
)
def events_open_get(request, query: Query[EventsOpenQuery]):
    need_desk(request)
    rows = reads.events_open(exclude_id=query.exclude, zone=timezone.get_default_timezone())
    return {"events": [_event(r) for r in rows]}


class WaitingListIn(Schema):
    player_id: int | None = Field(default=None, ge=1, le=MAX_ID)
    name: str = Field(default="", max_length=120)


class WaitingListOut(out.Out):
    id: int
    number: int
    name: str
    player_id: int
    status: str
    place: int
    table: int | None
    seat: int | None
    waits_for_button: bool


@router.post(
    "/tournaments/{tid}/waiting-list",
    auth=api_auth.DESK,
    response={201: WaitingListOut},
    summary="Put a player on a full event's alternate list (RULES 1.3)",
)
def waiting_list_create(request, tid: int, payload: WaitingListIn):
    need_desk(request)
    if payload.player_id is None and not payload.name.strip():
        raise DomainError("bad_input", MSG_WHO, fields={"name": MSG_WHO})
    entry, place = waiting_list_join(
        tournament_id=tid, player_id=payload.player_id, name=payload.name, actor=request.user
    )
    return Status(
        201,
        {
            "id": entry.pk,
            "number": entry.number,
            "name": entry.player.name,
            "player_id": entry.player_id,
            "status": entry.status,
            "place": place,
            **seat_of(entry),
        },
    )
