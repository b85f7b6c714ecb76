"""Seating: the seat list, a table's button, and eliminations (bust-outs, places, moves)."""

from __future__ import annotations

from ninja import Field, Router, Schema

from tables import services as table_services
from tourney import selectors, services
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import MAX_CHIPS, desk_tournament, director_tournament, need_director
from tourney.engine.numbers import MAX_ID

router = Router(tags=["seating"], **out.ROUTER_OPTIONS)


@router.get("/tournaments/{tid}/seating", auth=api_auth.DESK, response=out.SeatingOut)
def seating_get(request, tid: int):
    return selectors.seating(desk_tournament(request, tid))


class ButtonIn(Schema):
    seat: int = Field(ge=1, le=100)


@router.put(
    "/tournaments/{tid}/tables/{number}/button",
    auth=api_auth.DIRECTOR,
    response=out.ButtonOut,
)
def button_set(request, tid: int, number: int, payload: ButtonIn):
    need_director(request)
    row = table_services.table_set_button(
        tournament_id=tid, table_number=number, seat=payload.seat, actor=request.user
    )
    return {"table": row.number, "button_seat": row.button_seat}


class BustIn(Schema):
    id: int = Field(ge=1, le=MAX_ID)
    starting_stack: int = Field(ge=1, le=MAX_CHIPS)


class EliminationIn(Schema):
    entries: list[BustIn] = Field(min_length=1, max_length=100)


@router.post(
    "/tournaments/{tid}/eliminations",
    auth=api_auth.DIRECTOR,
    response=out.EliminationOut,
)
def elimination_create(request, tid: int, payload: EliminationIn):
    director_tournament(request, tid)
    result = services.elimination_record(
        tournament_id=tid,
        busts=[(b.id, b.starting_stack) for b in payload.entries],
        actor=request.user,
    )
    return {
        "places": result["places"],
        "moves": [{k: v for k, v in m.items() if k != "id"} for m in result["moves"]],
        "winner": result["winner"],
        "provisional": result["provisional"],
    }
