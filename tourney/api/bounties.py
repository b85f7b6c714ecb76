"""Bounties (RULES 9): the setup, the bounty money collected, paid and still in play, the
bounties on the heads of the players still in, and every knockout. The knockouts themselves
are recorded by POST .../eliminations (tourney/api/seating.py), with the winners of the hand."""

from __future__ import annotations

from ninja import Router

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import desk_tournament
from tourney.selectors import bounties as bounty_reads

router = Router(tags=["bounties"], **out.ROUTER_OPTIONS)


@router.get(
    "/tournaments/{tid}/bounties",
    auth=api_auth.DESK,
    response=out.BountiesOut,
    summary="Bounties: the setup, the money and every knockout (RULES 9)",
)
def bounties_get(request, tid: int):
    # Read by whoever reads the results (the desk and the director), as the bounties won are
    # part of them (RULES 9.9).
    return bounty_reads.bounties_payload(desk_tournament(request, tid))
