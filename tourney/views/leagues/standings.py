"""A season's standings: the director's page (printable), its CSV, and the public standings by
the season's link (``Season.public_token``: anyone holding it, no login; big and readable
across a room at 1920x1080, one column on a phone). The public page shows each player as
"first name and initial" (the default of the tournaments' public names): no full names, no
ids, nothing personal."""

from __future__ import annotations

import csv
import functools

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.text import slugify

from tourney.models import Season, Tournament
from tourney.selectors.display import TOKEN_RE, public_name
from tourney.selectors.standings import scoring_text, season_standings
from tourney.views.dashboard.base import director_only
from tourney.views.leagues.rows import standings_rows
from tourney.views.money import _safe_cell, csv_money

CSV_HEADER = (
    "rank",
    "player",
    "events",
    "events_counted",
    "points",
    "wins",
    "cashes",
    "winnings",
    "bounties",
    "knockouts",
)
PUBLIC_REFRESH_SECONDS = 60
TWO_COLUMNS_FROM = 12
public_display_name = functools.partial(public_name, Tournament.NameStyle.INITIAL)


def _season(season_id: int) -> Season:
    return get_object_or_404(Season.objects.select_related("league"), pk=season_id)


@director_only
def standings_page(request: HttpRequest, season_id: int):
    """Every row of the standings, the tournaments scored, a print sheet of its own (the
    browser's Print) and the CSV."""
    season = _season(season_id)
    standings = season_standings(season)
    ctx = {
        "season": season,
        "league": season.league,
        "standings": standings,
        "rows": standings_rows(standings.rows),
        "scoring_text": scoring_text(season),
        "printed_at": timezone.now(),
    }
    return render(request, "leagues/standings.html", ctx)


@director_only
def standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The standings as CSV (money in units: 1234.00; empty but the header when the formula
    fails, as no points are given)."""
    season = _season(season_id)
    standings = season_standings(season)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"{slugify(f'{season.league.name} {season.name}') or 'season'}-standings.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(CSV_HEADER)
    for r in standings.rows:
        writer.writerow(
            (
                r.rank,
                _safe_cell(r.name),
                r.events,
                r.counted,
                f"{r.points:.2f}",
                r.wins,
                r.cashes,
                csv_money(r.winnings),
                csv_money(r.bounties),
                r.knockouts,
            )
        )
    return response


def public_standings(request: HttpRequest, token: str):
    """The public standings (no login: the link is the key, as the display's)."""
    if TOKEN_RE.fullmatch(token) is None:
        raise Http404("No such standings.")
    season = Season.objects.select_related("league").filter(public_token=token).first()
    if season is None:
        raise Http404("No such standings.")
    standings = season_standings(season)
    rows = standings_rows(standings.rows, public_display_name, exact=False)
    half = -(-len(rows) // 2)
    columns = [rows[:half], rows[half:]] if len(rows) > TWO_COLUMNS_FROM else [rows] * bool(rows)
    ctx = {
        "season": season,
        "league": season.league,
        "standings": standings,
        # one column, or two side by side past TWO_COLUMNS_FROM rows (each read down)
        "columns": columns,
        "events": len(standings.scored),
        "refresh": PUBLIC_REFRESH_SECONDS,
    }
    response = render(request, "leagues/public.html", ctx)
    # the token is in the URL: never leak it through a referrer, never let a crawler index it
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
