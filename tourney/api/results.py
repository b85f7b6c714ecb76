"""Results: the places and prizes of a tournament so far (tagged money). A router of its own,
mounted between clock and structure, so that the OpenAPI document keeps its order of paths."""

from __future__ import annotations

from ninja import Router

from tourney import selectors
from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import need_desk, tournament_or_404

router = Router(**out.ROUTER_OPTIONS)


@router.get(
    "/tournaments/{tid}/results", auth=api_auth.DESK, tags=["money"], response=out.ResultsOut
)
def results_get(request, tid: int):
    need_desk(request)
    return selectors.results(tournament_or_404(tid))
