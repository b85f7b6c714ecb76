"""The season's standings on a tournament's public screens (issue 27): when the tournament
counts toward a season, the TV rotates a standings view in with the clock and the seating,
and the phone page shows the top of the standings with a link to the whole. Built only for a
tournament in a season (``Tournament.season_id`` is on the row: no query otherwise).

Names as the tournament shows them (``Tournament.public_names``); points, events and wins,
nothing personal. The standings follow this tournament's results on each of its changes; a
result in another tournament of the season shows here at this tournament's next change (the
screens poll this tournament's version), and on the public standings page at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tourney.models import Season, Tournament
from tourney.selectors.standings import points_text, season_standings

TOP_SHOWN = 10


def standings_panel(
    t: Tournament, name: Callable[[str, str], str], limit: int = TOP_SHOWN
) -> dict[str, Any] | None:
    """The season's top ``limit`` (ties at the cut included), or its error; None outside a
    season."""
    if t.season_id is None:
        return None
    season = Season.objects.select_related("league").filter(pk=t.season_id).first()
    if season is None:
        return None
    standings = season_standings(season, limit=limit)
    return {
        "league": season.league.name,
        "season": season.name,
        "token": season.public_token,
        "events": len(standings.scored),
        "error": standings.error,
        "rows": [
            {
                "rank": r.rank,
                "name": name(r.name, r.nickname),
                "points": points_text(r.points),
                "events": r.events,
                "wins": r.wins,
            }
            for r in standings.rows
        ],
    }
