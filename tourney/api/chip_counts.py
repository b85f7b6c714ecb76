"""Chip counts during play (RULES 10.8): the players still in with their latest count, the
exact average stack, and the director's counts of some players at once."""

from __future__ import annotations

from ninja import Field, Router, Schema, Status

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import MAX_CHIPS, desk_tournament, director_tournament
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.selectors import chip_counts as reads
from tourney.services import chip_counts as writes

router = Router(tags=["chip counts"], **out.ROUTER_OPTIONS)


@router.get(
    "/tournaments/{tid}/chip-counts",
    auth=api_auth.DESK,
    response=out.ChipCountsOut,
    summary="Chip counts: each player's latest count and the exact average stack (RULES 10.8)",
)
def chip_counts_get(request, tid: int):
    # Read by the desk too: the counts are shown on the TV anyway.
    read = reads.chip_counts_read(desk_tournament(request, tid))
    read["counts"] = [{**c, "at": c["at"].isoformat()} for c in read["counts"]]
    return read


class CountIn(Schema):
    entry: int = Field(ge=1, le=MAX_ID)
    chips: int = Field(ge=1, le=MAX_CHIPS)


class ChipCountsIn(Schema):
    counts: list[CountIn] = Field(min_length=1, max_length=2000)


@router.post(
    "/tournaments/{tid}/chip-counts",
    auth=api_auth.DIRECTOR,
    response={201: out.ChipCountsRecordedOut},
    summary="Record the chips of some seated players at once (RULES 10.8)",
)
def chip_counts_post(request, tid: int, payload: ChipCountsIn):
    director_tournament(request, tid)
    counts: dict[int, int] = {}
    for c in payload.counts:
        if c.entry in counts:
            raise DomainError("duplicate_entry", writes.MSG_TWICE, fields={"entry": c.entry})
        counts[c.entry] = c.chips
    written = writes.chip_counts_record(tournament_id=tid, counts=counts, actor=request.user)
    return Status(201, {"recorded": [{**w, "at": w["at"].isoformat()} for w in written]})
