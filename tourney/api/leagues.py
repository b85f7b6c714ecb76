"""Leagues, seasons and points (issue 27): a league has seasons; a tournament counts toward a
season; a season scores its tournaments' results by a preset, a points table or a formula of
the director's, with its options. The writes are tourney/services/leagues.py's (room actions,
undone by ``POST /room/actions/{id}/undo``); the standings are computed when read
(tourney/selectors/standings.py). The desk reads; the director writes.

Readings:

* Points are decimal strings with 2 decimals ("12.50"), never JSON numbers: they are exact.
  So are ``attendance_points``; a points table is the amounts as stored ("100", "12.5").
* ``scoring`` is a preset's name or ``formula``. A ``formula`` sent without ``scoring`` means
  ``formula``, a ``points_table`` sent without it ``place_table``.
* ``PATCH /seasons/{id}`` changes the settings given and keeps the others; the standings follow
  at once (nothing is stored but the settings).
* A season whose formula fails for some player has no standings: ``error`` says why.
* The public standings (``GET /standings/{public_token}``: no login, the link is the key, as
  the display's) name each player by first name and initial: no ids, nothing personal.
"""

from __future__ import annotations

import datetime as dt
import functools
from decimal import Decimal
from typing import Any

from ninja import Field, Router, Schema, Status
from pydantic import ConfigDict

from tourney.api import auth as api_auth
from tourney.api import schemas as out
from tourney.api.common import need_desk, need_director
from tourney.api.room import action_of, created_in, row_id
from tourney.engine import points
from tourney.engine.errors import DomainError
from tourney.engine.numbers import MAX_ID
from tourney.models import League, Season, Tournament
from tourney.selectors.display import TOKEN_RE, public_name
from tourney.selectors.standings import Standings, scoring_text, season_standings
from tourney.services import leagues as writes

router = Router(tags=["leagues"], **out.ROUTER_OPTIONS)

TEXT_MAX = 1000  # the services refuse past their own limits, naming the field
FORMULA_MAX = 2000
BEST_N_MAX = 1000
ATTENDANCE_BELOW = 10**7  # what the stored column holds (9 digits, 2 of them decimals)
MSG_NO_STANDINGS = "No such standings."
public_display_name = functools.partial(public_name, Tournament.NameStyle.INITIAL)


# ---------------------------------------------------------------- the answers


class SeasonBriefOut(out.Out):
    id: int
    name: str
    starts_on: str | None
    ends_on: str | None


class LeagueOut(out.Out):
    id: int
    name: str
    slug: str
    created: str
    seasons: list[SeasonBriefOut]


class LeagueWrittenOut(LeagueOut):
    action: int | None


class LeaguesOut(out.Out):
    leagues: list[LeagueOut]


class SeasonTournamentOut(out.Out):
    id: int
    name: str
    status: str


class SeasonOut(out.Out):
    id: int
    league: int
    name: str
    starts_on: str | None
    ends_on: str | None
    scoring: str
    points_table: list[str]
    formula: str
    scoring_text: str
    best_n: int | None
    entries: str
    attendance_points: str
    share_ties: bool
    public_token: str
    tournaments: list[SeasonTournamentOut]


class SeasonWrittenOut(SeasonOut):
    action: int | None


class TournamentSeasonOut(out.Out):
    tournament: int
    season: int | None
    action: int | None


class StandingTournamentOut(out.Out):
    id: int
    name: str
    status: str
    scored: bool


class StandingOut(out.Out):
    rank: int
    player: int
    name: str
    events: int
    counted: int
    points: str
    wins: int
    cashes: int
    winnings: int
    bounties: int
    knockouts: int


class StandingsOut(out.Out):
    season: int
    league: int
    name: str
    scoring_text: str
    tournaments: list[StandingTournamentOut]
    error: str
    standings: list[StandingOut]


class PublicStandingOut(out.Out):
    rank: int
    name: str
    events: int
    points: str
    wins: int
    cashes: int
    winnings: int
    bounties: int


class PublicStandingsOut(out.Out):
    league: str
    season: str
    events: int
    error: str
    standings: list[PublicStandingOut]


def _day(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


def _points(value: Decimal) -> str:
    return f"{Decimal(value):.2f}"


def league_dict(league: League) -> dict[str, Any]:
    seasons = league.seasons.order_by("-created_at", "-pk")
    return {
        "id": league.pk,
        "name": league.name,
        "slug": league.slug,
        "created": league.created_at.isoformat(),
        "seasons": [
            {"id": s.pk, "name": s.name, "starts_on": _day(s.starts_on), "ends_on": _day(s.ends_on)}
            for s in seasons
        ],
    }


def season_dict(season: Season) -> dict[str, Any]:
    tournaments = Tournament.objects.filter(season=season).order_by("created_at", "pk")
    return {
        "id": season.pk,
        "league": season.league_id,
        "name": season.name,
        "starts_on": _day(season.starts_on),
        "ends_on": _day(season.ends_on),
        "scoring": season.scoring,
        "points_table": [str(v) for v in season.points_table],
        "formula": season.formula,
        "scoring_text": scoring_text(season),
        "best_n": season.best_n,
        "entries": season.entries,
        "attendance_points": _points(season.attendance_points),
        "share_ties": season.share_ties,
        "public_token": season.public_token,
        "tournaments": [
            {"id": t.pk, "name": t.name, "status": t.status}
            for t in tournaments.only("pk", "name", "status")
        ],
    }


def _league(league_id: int) -> League:
    league = League.objects.filter(pk=row_id(league_id)).first()
    if league is None:
        raise DomainError("not_found", writes.MSG_NO_LEAGUE, status=404)
    return league


def _season(season_id: int) -> Season:
    season = Season.objects.select_related("league").filter(pk=row_id(season_id)).first()
    if season is None:
        raise DomainError("not_found", writes.MSG_NO_SEASON, status=404)
    return season


# ---------------------------------------------------------------- leagues


@router.get("/leagues", auth=api_auth.DESK, response=LeaguesOut, summary="Every league")
def leagues_get(request):
    need_desk(request)
    return {"leagues": [league_dict(x) for x in League.objects.order_by("name", "pk")]}


class LeagueIn(Schema):
    name: str = Field(max_length=TEXT_MAX)


@router.post(
    "/leagues",
    auth=api_auth.DIRECTOR,
    response={201: LeagueWrittenOut},
    summary="Create a league",
)
def league_create(request, payload: LeagueIn):
    need_director(request)
    league = writes.league_create(name=payload.name, actor=request.user)
    action = action_of(request, "league_created", created_in("tourney.league", league.pk))
    return Status(201, {**league_dict(league), "action": action})


@router.get(
    "/leagues/{league_id}",
    auth=api_auth.DESK,
    response=LeagueOut,
    summary="A league and its seasons, newest first",
)
def league_get(request, league_id: int):
    need_desk(request)
    return league_dict(_league(league_id))


# ---------------------------------------------------------------- seasons


class SeasonFieldsIn(Schema):
    model_config = ConfigDict(extra="forbid")

    starts_on: dt.date | None = None
    ends_on: dt.date | None = None
    scoring: str | None = Field(default=None, max_length=40)
    points_table: list[Decimal] | None = Field(default=None, max_length=points.MAX_TABLE_PLACES)
    formula: str | None = Field(default=None, max_length=FORMULA_MAX)
    best_n: int | None = Field(default=None, ge=1, le=BEST_N_MAX)
    entries: str | None = Field(default=None, max_length=20)
    attendance_points: Decimal | None = Field(default=None, lt=ATTENDANCE_BELOW)
    share_ties: bool | None = None


class SeasonIn(SeasonFieldsIn):
    name: str = Field(max_length=TEXT_MAX)


class SeasonPatchIn(SeasonFieldsIn):
    name: str | None = Field(default=None, max_length=TEXT_MAX)


def _settings(given: dict[str, Any], season: Season | None) -> dict[str, Any]:
    """The service's arguments: the season's settings (or the defaults), the ones given
    replacing them (see the module docstring for ``scoring``)."""
    now: dict[str, Any] = {"scoring": Season.Scoring.PLACE_TABLE}
    if season is not None:
        now = {f: getattr(season, f) for f in writes.SEASON_FIELDS}
        now["points_table"] = ", ".join(str(v) for v in season.points_table)
        now["attendance_points"] = Decimal(season.attendance_points)
    if given.get("scoring") is None:
        if given.get("formula") is not None:
            given["scoring"] = Season.Scoring.FORMULA
        elif given.get("points_table") is not None:
            given["scoring"] = Season.Scoring.PLACE_TABLE
    if given.get("points_table") is not None:
        given["points_table"] = ", ".join(format(v, "f") for v in given["points_table"])
    for field in ("scoring", "points_table", "formula", "entries", "share_ties", "name"):
        if field in given and given[field] is None:
            given.pop(field)  # null: keep what there is
    if given.get("attendance_points", 0) is None:
        given["attendance_points"] = Decimal(0)
    return {**now, **given}


@router.post(
    "/leagues/{league_id}/seasons",
    auth=api_auth.DIRECTOR,
    response={201: SeasonWrittenOut},
    summary="Create a season of a league, with its scoring and options",
)
def season_create(request, league_id: int, payload: SeasonIn):
    need_director(request)
    settings = _settings(payload.dict(exclude_unset=True), None)
    season = writes.season_create(league_id=row_id(league_id), actor=request.user, **settings)
    action = action_of(request, "season_created", lambda pl: pl.get("season") == season.pk)
    return Status(201, {**season_dict(season), "action": action})


@router.get(
    "/seasons/{season_id}",
    auth=api_auth.DESK,
    response=SeasonOut,
    summary="A season: its scoring, options, public link and tournaments",
)
def season_get(request, season_id: int):
    need_desk(request)
    return season_dict(_season(season_id))


@router.patch(
    "/seasons/{season_id}",
    auth=api_auth.DIRECTOR,
    response=SeasonWrittenOut,
    summary="Change a season's settings (those left out keep their value)",
)
def season_patch(request, season_id: int, payload: SeasonPatchIn):
    need_director(request)
    season = _season(season_id)
    settings = _settings(payload.dict(exclude_unset=True), season)
    season = writes.season_update(season_id=season.pk, actor=request.user, **settings)
    action = action_of(request, "season_updated", lambda pl: pl.get("season") == season.pk)
    return {**season_dict(season), "action": action}


class TournamentSeasonIn(Schema):
    season: int | None = Field(ge=1, le=MAX_ID)


@router.put(
    "/tournaments/{tid}/season",
    auth=api_auth.DIRECTOR,
    response=TournamentSeasonOut,
    summary="Make a tournament count toward a season, or toward none (null)",
)
def tournament_season_put(request, tid: int, payload: TournamentSeasonIn):
    need_director(request)
    t = writes.tournament_season_set(
        tournament_id=row_id(tid), season_id=payload.season, actor=request.user
    )

    def wrote(pl: dict[str, Any]) -> bool:
        return (pl.get("tournament"), pl.get("season")) == (t.pk, payload.season)

    action = action_of(request, "tournament_season_set", wrote)
    return {"tournament": t.pk, "season": t.season_id, "action": action}


# ---------------------------------------------------------------- standings


def _scored(standings: Standings) -> list[dict[str, Any]]:
    return [
        {"id": t.pk, "name": t.name, "status": t.status, "scored": t.pk in standings.scored}
        for t in standings.tournaments
    ]


@router.get(
    "/seasons/{season_id}/standings",
    auth=api_auth.DESK,
    response=StandingsOut,
    summary="A season's standings, computed from its tournaments' results as they stand",
)
def season_standings_get(request, season_id: int):
    need_desk(request)
    season = _season(season_id)
    standings = season_standings(season)
    rows = [
        {
            "rank": r.rank,
            "player": r.player,
            "name": r.name,
            "events": r.events,
            "counted": r.counted,
            "points": _points(r.points),
            "wins": r.wins,
            "cashes": r.cashes,
            "winnings": r.winnings,
            "bounties": r.bounties,
            "knockouts": r.knockouts,
        }
        for r in standings.rows
    ]
    return {
        "season": season.pk,
        "league": season.league_id,
        "name": f"{season.league.name} {season.name}",
        "scoring_text": scoring_text(season),
        "tournaments": _scored(standings),
        "error": standings.error,
        "standings": rows,
    }


@router.get(
    "/standings/{token}",
    auth=None,
    response=PublicStandingsOut,
    summary="A season's public standings by its link (no login; display names only)",
)
def public_standings_get(request, token: str):
    season = None
    if TOKEN_RE.fullmatch(token) is not None:
        season = Season.objects.select_related("league").filter(public_token=token).first()
    if season is None:
        raise DomainError("not_found", MSG_NO_STANDINGS, status=404)
    standings = season_standings(season)
    rows = [
        {
            "rank": r.rank,
            "name": public_display_name(r.name, r.nickname),
            "events": r.events,
            "points": _points(r.points),
            "wins": r.wins,
            "cashes": r.cashes,
            "winnings": r.winnings,
            "bounties": r.bounties,
        }
        for r in standings.rows
    ]
    return {
        "league": season.league.name,
        "season": season.name,
        "events": len(standings.scored),
        "error": standings.error,
        "standings": rows,
    }
