"""API v1 endpoints for the color-up at a break (RULES 5), mounted by tourney/api/__init__.
Thin: the writes are tourney/services/colorup.py, the reads tourney/selectors/colorup.py.
Reading is for the desk too (docs/api.md: the desk reads); racing, undoing and finishing are
the director's."""

from __future__ import annotations

from ninja import Field, Router, Schema, Status

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import desk_tournament, int_key, need_director, tournament_or_404
from tourney.selectors.colorup import colorup_pending, colorup_rack_plan
from tourney.services import colorup

router = Router(tags=["colorup"], **out.ROUTER_OPTIONS)

MAX_SEATS = 100


class ChipRaceTableIn(Schema):
    remove: int = Field(ge=1, le=10**9)
    odd_chips: dict[str, int] = Field(default_factory=dict, max_length=MAX_SEATS)
    whole_stack: dict[str, bool] = Field(default_factory=dict, max_length=MAX_SEATS)
    cards: dict[str, list[str]] | None = Field(default=None, max_length=MAX_SEATS)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1)
    counted: int | None = Field(default=None, ge=0, le=colorup.MAX_COUNTED)


class ChipRaceUndoIn(Schema):
    remove: int = Field(ge=1, le=10**9)


class ColorUpFinishIn(Schema):
    denominations: list[int] = Field(min_length=1, max_length=20)
    force: bool = False


@router.get(
    "/tournaments/{tid}/color-up",
    auth=api_auth.DESK,
    response=out.ColorUpOut,
    summary="The color-up under way (RULES 5)",
)
def colorup_get(request, tid: int):
    return colorup_pending(desk_tournament(request, tid))


@router.get(
    "/tournaments/{tid}/color-up/rack-plan",
    auth=api_auth.DESK,
    response=out.RackPlanOut,
    summary="Chips each table needs",
)
def colorup_rack_plan_get(request, tid: int):
    return colorup_rack_plan(desk_tournament(request, tid))


@router.post(
    "/tournaments/{tid}/tables/{number}/chip-race",
    auth=api_auth.DIRECTOR,
    response={201: out.TableRaceOut},
    summary="Race one table's odd chips (RULES 5.2-5.8)",
)
def chip_race_table(request, tid: int, number: int, payload: ChipRaceTableIn):
    need_director(request)
    cards = None
    if payload.cards is not None:
        cards = {int_key(k, "cards"): tuple(v) for k, v in payload.cards.items()}
    result = colorup.colorup_race_table(
        tournament_id=tid,
        table_number=number,
        remove=payload.remove,
        odd_chips={int_key(k, "odd_chips"): v for k, v in payload.odd_chips.items()},
        whole_stack=[int_key(k, "whole_stack") for k, v in payload.whole_stack.items() if v],
        cards=cards,
        seed=payload.seed,
        counted=payload.counted,
        actor=request.user,
    )
    return Status(201, result)


@router.post(
    "/tournaments/{tid}/tables/{number}/chip-race/undo",
    auth=api_auth.DIRECTOR,
    response=out.RaceUndoOut,
    summary="Undo a table's race",
)
def chip_race_undo(request, tid: int, number: int, payload: ChipRaceUndoIn):
    need_director(request)
    return colorup.colorup_race_undo(
        tournament_id=tid, table_number=number, remove=payload.remove, actor=request.user
    )


@router.post(
    "/tournaments/{tid}/color-up/finish",
    auth=api_auth.DIRECTOR,
    response=out.ColorUpFinishOut,
    summary="Take the raced chips out of play",
)
def colorup_finish(request, tid: int, payload: ColorUpFinishIn):
    need_director(request)
    result = colorup.colorup_finish(
        tournament_id=tid,
        denominations=payload.denominations,
        force=payload.force,
        actor=request.user,
    )
    pending = colorup_pending(tournament_or_404(tid))
    return {
        **result,
        "total_chips": pending["total_chips"],
        "average_stack": pending["average_stack"],
    }
