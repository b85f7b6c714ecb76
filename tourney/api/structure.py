"""The structure: a tournament's levels and breaks, and the structure generator and presets
(RULES 4.5, 5.1; tagged clock)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from ninja import Field, Router, Schema

from tourney import services
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import desk_tournament, director_tournament
from tourney.engine import structure as structure_engine
from tourney.selectors import clock as clock_reads

router = Router(tags=["clock"], **out.ROUTER_OPTIONS)


@router.get("/tournaments/{tid}/levels", auth=api_auth.DESK, response=out.LevelsOut)
def levels_get(request, tid: int):
    t = desk_tournament(request, tid)
    return {"levels": structure_engine.items_to_data(clock_reads.structure_items(t))}


class LevelsIn(Schema):
    levels: list[dict[str, Any]] = Field(min_length=1, max_length=500)


@router.put("/tournaments/{tid}/levels", auth=api_auth.DIRECTOR, response=out.LevelsOut)
def levels_put(request, tid: int, payload: LevelsIn):
    director_tournament(request, tid)
    items = services.structure_set(tournament_id=tid, levels=payload.levels, actor=request.user)
    return {"levels": structure_engine.items_to_data(items)}


class GenerateIn(Schema):
    preset: Literal["regular", "turbo", "deep"] | None = None
    starting_stack: int = Field(default=10000, ge=100, le=10**9)
    denominations: list[int] = Field(
        default=[25, 100, 500, 1000, 5000, 25000], min_length=1, max_length=20
    )
    level_minutes: int = Field(default=20, ge=1, le=240)
    target_hours: float = Field(default=8, gt=0, le=72)
    break_every: int = Field(default=4, ge=0, le=50)  # 0: no breaks but those of break_after
    break_minutes: int = Field(default=10, ge=1, le=120)
    # 1-based level numbers a break follows (before break_every takes over), ascending.
    break_after: list[Annotated[int, Field(ge=1, le=500)]] | None = Field(
        default=None, max_length=100
    )
    bb_ante_from_level: int = Field(default=4, ge=0, le=500)  # 0: no big-blind ante


@router.post(
    "/structures/generate",
    auth=api_auth.DIRECTOR,
    response=out.LevelsOut,
    summary="A structure from presets or the generator (RULES 4.5, 5.1)",
)
def structure_generate(request, payload: GenerateIn):
    if payload.preset:
        items = structure_engine.preset(
            payload.preset,
            starting_stack=payload.starting_stack,
            denominations=tuple(payload.denominations),
        )
    else:
        items = structure_engine.generate(
            starting_stack=payload.starting_stack,
            denominations=payload.denominations,
            level_minutes=payload.level_minutes,
            target_hours=payload.target_hours,
            break_every=payload.break_every,
            break_minutes=payload.break_minutes,
            break_after=payload.break_after,
            bb_ante_from_level=payload.bb_ante_from_level,
        )
    return {"levels": structure_engine.items_to_data(items)}
