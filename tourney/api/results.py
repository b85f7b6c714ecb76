"""Results: the places, prizes and bounties won of a tournament so far (tagged money). A
router of its own, mounted between clock and structure, so that the OpenAPI document keeps its
order of paths."""

from __future__ import annotations

from ninja import Router

from tourney import selectors
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import desk_tournament

router = Router(tags=["money"], **out.ROUTER_OPTIONS)


@router.get("/tournaments/{tid}/results", auth=api_auth.DESK, response=out.ResultsOut)
def results_get(request, tid: int):
    t = desk_tournament(request, tid)
    # RULES 9.9: each row's bounties won, apart from its prize, and all the bounty cash paid
    return selectors.results(t)
