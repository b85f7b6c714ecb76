"""The tournament clock: read it, and start, pause, resume, step, adjust or jump it."""

from __future__ import annotations

from typing import Literal

from django.utils import timezone
from ninja import Field, Router, Schema
from pydantic import StrictInt

from tourney import selectors, services
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import desk_tournament, director_tournament, tournament_or_404
from tourney.selectors.flights import flight_clock, is_flight

router = Router(tags=["clock"], **out.ROUTER_OPTIONS)


@router.get("/tournaments/{tid}/clock", auth=api_auth.DESK, response=out.ClockOut)
def clock_get(request, tid: int):
    return _clock(desk_tournament(request, tid))


def _clock(t) -> dict:
    """The clock read; a Day 1 flight's stops at its end (RULES 10.2), as on its screens."""
    now = timezone.now()
    state = flight_clock(t, now) if is_flight(t) else None
    return selectors.clock_payload(t, now, state=state)


class ClockIn(Schema):
    action: Literal["start", "pause", "resume", "next", "previous", "adjust", "jump"]
    # Strict: ``true`` or ``"60"`` is not a number of seconds (the engine refuses them too).
    seconds: StrictInt | None = Field(default=None, ge=-86400, le=86400)
    index: StrictInt | None = Field(default=None, ge=0, le=1000)


@router.post("/tournaments/{tid}/clock", auth=api_auth.DIRECTOR, response=out.ClockOut)
def clock_post(request, tid: int, payload: ClockIn):
    director_tournament(request, tid)
    services.clock_action(
        tournament_id=tid,
        action=payload.action,
        seconds=payload.seconds,
        index=payload.index,
        actor=request.user,
    )
    return _clock(tournament_or_404(tid))
