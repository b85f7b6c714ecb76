"""Satellites and their tickets (RULES 12): a tournament's tickets (won in it as a satellite,
or issued into it as a target) with the satellite's seats; the satellite settings of a
tournament; registering with a ticket (the desk), a refund with its reason and a transfer
(the director); and the satellite's deal. Undo goes through ``POST .../undo`` as any action.
The writes are tourney/services/satellites.py and tourney/services/tickets.py."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Field, Router, Schema, Status

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import (
    MAX_MONEY,
    desk_tournament,
    director_tournament,
    need_desk,
    need_director,
    seat_of,
)
from tourney.engine.numbers import MAX_ID
from tourney.models import Tournament
from tourney.selectors import satellites as reads
from tourney.selectors.tickets import (
    TicketRow,
    ticket_row,
    tickets_for_target,
    tickets_of_satellite,
)
from tourney.services import satellites as sat_writes
from tourney.services import tickets as writes

router = Router(tags=["satellites"], **out.ROUTER_OPTIONS)

TicketStatus = Literal["issued", "used", "refunded"]


class TicketOut(out.Out):
    id: int
    satellite: int
    satellite_name: str
    target: int
    target_name: str
    entry: int
    player: int
    player_name: str
    value: int
    status: TicketStatus
    used_by: int | None
    used_by_number: int | None
    refund_reason: str
    refunded_at: str | None
    transferable: bool
    label: str


class SatelliteOut(out.Out):
    target: int
    target_name: str
    seat_value: int
    seats: int
    cash: int
    cash_place: int
    seats_won: int
    seats_left: int
    players_left: int
    deal_possible: bool
    tickets_transferable: bool


class TicketsOut(out.Out):
    satellite: SatelliteOut | None
    won: list[TicketOut]
    into: list[TicketOut]


def _tickets(rows: list[TicketRow]) -> list[dict[str, Any]]:
    return [r.as_dict() for r in rows]


def satellite_dict(t: Tournament) -> dict[str, Any] | None:
    s = reads.satellite_summary(t)
    if s is None:
        return None
    return {
        "target": s["target"].pk,
        "target_name": s["target"].name,
        "seat_value": s["seat_value"],
        "seats": s["seats"],
        "cash": s["cash"],
        "cash_place": s["cash_place"],
        "seats_won": s["seats_won"],
        "seats_left": s["seats_left"],
        "players_left": s["players_left"],
        "deal_possible": s["deal_possible"],
        "tickets_transferable": s["transferable"],
    }


@router.get(
    "/tournaments/{tid}/tickets",
    auth=api_auth.DESK,
    response=TicketsOut,
    summary="A tournament's tickets: won in it as a satellite, issued into it (RULES 12)",
)
def tickets_get(request, tid: int):
    t = desk_tournament(request, tid)
    return {
        "satellite": satellite_dict(t),
        "won": _tickets(tickets_of_satellite(t.pk)),
        "into": _tickets(tickets_for_target(t.pk)),
    }


class SatelliteIn(Schema):
    satellite_target: int | None = Field(default=None, ge=1, le=MAX_ID)
    seat_value: int = Field(default=0, ge=0, le=MAX_MONEY)
    tickets_transferable: bool = False


class SatelliteSetOut(out.Out):
    satellite_target: int | None
    seat_value: int
    tickets_transferable: bool


@router.put(
    "/tournaments/{tid}/satellite",
    auth=api_auth.DIRECTOR,
    response=SatelliteSetOut,
    summary="Make a tournament a satellite of a target, or no satellite (RULES 12.1)",
)
def satellite_put(request, tid: int, payload: SatelliteIn):
    director_tournament(request, tid)
    t = sat_writes.satellite_set(
        tournament_id=tid,
        satellite_target=payload.satellite_target,
        seat_value=payload.seat_value,
        tickets_transferable=payload.tickets_transferable,
        actor=request.user,
    )
    return {
        "satellite_target": t.satellite_target_id,
        "seat_value": t.seat_value,
        "tickets_transferable": t.tickets_transferable,
    }


class TicketEntryOut(out.EntryOut):
    ticket: int


@router.post(
    "/tickets/{ticket_id}/register",
    auth=api_auth.DESK,
    response={201: TicketEntryOut},
    summary="Register a ticket's player into its target at no charge (RULES 12.5)",
)
def ticket_register(request, ticket_id: int):
    need_desk(request)
    entry = writes.ticket_register(ticket_id=ticket_id, actor=request.user)
    return Status(
        201,
        {
            "id": entry.pk,
            "number": entry.number,
            "name": entry.player.name,
            "status": entry.status,
            **seat_of(entry),
            "ticket": ticket_id,
        },
    )


class RefundIn(Schema):
    reason: str = Field(max_length=2000)


@router.post(
    "/tickets/{ticket_id}/refund",
    auth=api_auth.DIRECTOR,
    response=TicketOut,
    summary="Refund an unused ticket to cash, with the reason (RULES 12.6)",
)
def ticket_refund(request, ticket_id: int, payload: RefundIn):
    need_director(request)
    writes.ticket_refund(ticket_id=ticket_id, reason=payload.reason, actor=request.user)
    return ticket_row(ticket_id).as_dict()


class TransferIn(Schema):
    player_id: int = Field(ge=1, le=MAX_ID)


@router.post(
    "/tickets/{ticket_id}/transfer",
    auth=api_auth.DIRECTOR,
    response=TicketOut,
    summary="Hand an unused ticket to another player, if transferable (RULES 12.7)",
)
def ticket_transfer(request, ticket_id: int, payload: TransferIn):
    need_director(request)
    writes.ticket_transfer(ticket_id=ticket_id, player_id=payload.player_id, actor=request.user)
    return ticket_row(ticket_id).as_dict()


class SatelliteDealOut(out.Out):
    entries: list[int]
    seats: int
    value: int
    tickets: list[int]


@router.post(
    "/tournaments/{tid}/satellite-deal",
    auth=api_auth.DIRECTOR,
    response=SatelliteDealOut,
    summary="The satellite's deal: every player left takes a seat (RULES 12.8)",
)
def satellite_deal(request, tid: int):
    director_tournament(request, tid)
    return sat_writes.satellite_deal(tournament_id=tid, actor=request.user)
