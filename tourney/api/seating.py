"""Seating: the seat list, a table's button, and eliminations (bust-outs, places, moves)."""

from __future__ import annotations

from typing import Annotated

from ninja import Field, Router, Schema

from tables import services as table_services
from tourney import selectors, services
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import MAX_CHIPS, desk_tournament, director_tournament, need_director
from tourney.engine.errors import DomainError
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


# The winners of a pot: one entry, or several who split it (RULES 9.5); at most a full table.
Winners = Annotated[
    list[Annotated[int, Field(ge=1, le=MAX_ID)]], Field(min_length=1, max_length=12)
]
MSG_WINNER_TWICE = "A winner is named twice for the same pot."
# The answer's bounty keys (the service's also carry the winner's name).
BOUNTY_KEYS = ("busted", "winner", "cash", "to_head", "envelope", "table", "seat")


class BustIn(Schema):
    id: int = Field(ge=1, le=MAX_ID)
    starting_stack: int = Field(ge=1, le=MAX_CHIPS)
    # RULES 9.7: the winner(s) of the pot that took this player's last chips (a side pot)
    winners: Winners | None = None


class EliminationIn(Schema):
    entries: list[BustIn] = Field(min_length=1, max_length=100)
    winners: Winners | None = None  # the hand's winner(s), for every player out (RULES 9.5)


def winners_of(payload: EliminationIn) -> dict[int, list[int]] | list[int] | None:
    """The service's ``winners``: the hand's list, or per busted entry when any entry names
    the winners of its own pot (the others then take the hand's)."""
    for ws in [payload.winners, *(b.winners for b in payload.entries)]:
        if ws is not None and len(set(ws)) != len(ws):
            raise DomainError("bad_input", MSG_WINNER_TWICE, fields={"winners": MSG_WINNER_TWICE})
    if all(b.winners is None for b in payload.entries):
        return payload.winners
    return {
        b.id: b.winners or payload.winners for b in payload.entries if b.winners or payload.winners
    }


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
        winners=winners_of(payload),
        actor=request.user,
    )
    return {
        "places": result["places"],
        "moves": [{k: v for k, v in m.items() if k != "id"} for m in result["moves"]],
        "winner": result["winner"],
        "provisional": result["provisional"],
        "bounties": [{k: p[k] for k in BOUNTY_KEYS} for p in result["bounties"]],
    }
