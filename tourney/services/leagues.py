"""Leagues and seasons (issue 27): creating and editing them, and the season a tournament counts
toward. Every write is a room action (tourney/core/room_journal.py): one transaction, one
``Event`` without a tournament, undone by ``room_undo``. A refusal is a ``DomainError`` raised
before anything is written.

Readings:

* A season's scoring is checked through the points engine before it is stored: a formula by
  ``check_formula`` (refused with its message, which names the column), a points table by
  ``parse_table``, the options by the engine's own check (``season_points`` of no event).
  How a stored season turns into the engine's scoring: ``tourney.selectors.standings``.
* The scoring ``formula`` stores the director's formula; a formula preset stores none (the
  preset's own is used) and ``place_table`` stores the director's table, or none for the
  preset's. Editing a preset's formula makes it the director's own (``formula``).
* A tournament counts toward at most one season (the foreign key); setting another season
  moves it, setting none takes it out. Its results score as they come in (the standings are
  computed when read, never stored). Setting it bumps the tournament's version, so its
  public screens show or drop the standings at once; an undo of it (a room action) does
  not, and shows there at the tournament's next change.
* Undo (``room_undo``): each action notes the rows it touches, the league under a new season
  and the seasons a tournament leaves and joins included, so a creation is not undone from
  under what was made after it (``stale_undo``: undo the later one first).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db.models import F
from django.utils.text import slugify
from django.utils.translation import gettext_noop as N_

from tourney.core.room_journal import room_action
from tourney.engine import points
from tourney.engine.errors import DomainError
from tourney.models import League, Season, Tournament
from tourney.selectors.standings import scoring_of

NAME_MAX = 120
MSG_NAME = N_("Give a name of 1 to 120 characters.")
MSG_NO_LEAGUE = N_("No such league.")
MSG_NO_SEASON = N_("No such season.")
MSG_NO_TOURNAMENT = N_("No such tournament.")
MSG_DATES = N_("The season cannot end before it starts.")
MSG_SCORING = N_("Pick a way of scoring: %(names)s.")
MSG_TABLE_EMPTY = N_("Type the points for 1st, 2nd, ... (or pick another way of scoring).")
MSG_DAY_OF_EVENT = N_(
    "A flight or a later day of a multi-day event does not count on its own; it cannot be "
    "added to a season."
)

SEASON_FIELDS = (
    "name",
    "starts_on",
    "ends_on",
    "scoring",
    "points_table",
    "formula",
    "best_n",
    "entries",
    "attendance_points",
    "share_ties",
)


def _name(name: str) -> str:
    clean = " ".join((name or "").split())
    if not 1 <= len(clean) <= NAME_MAX:
        raise DomainError("bad_name", MSG_NAME, fields={"name": MSG_NAME})
    return clean


def _unique_slug(name: str) -> str:
    base = slugify(name)[:100] or "league"
    slug, n = base, 1
    while League.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _league(league_id: int, *, lock: bool = False) -> League:
    qs = League.objects.select_for_update() if lock else League.objects
    league = qs.filter(pk=league_id).first()
    if league is None:
        raise DomainError("not_found", MSG_NO_LEAGUE, status=404)
    return league


def _season(season_id: int, *, lock: bool = False) -> Season:
    qs = Season.objects.select_for_update() if lock else Season.objects
    season = qs.filter(pk=season_id).first()
    if season is None:
        raise DomainError("not_found", MSG_NO_SEASON, status=404)
    return season


# ---------------------------------------------------------------------------- leagues


def league_create(*, name: str, actor=None) -> League:
    """A new league called ``name``."""
    clean = _name(name)
    with room_action("league_created", actor, {"name": clean}) as j:
        league = League.objects.create(name=clean, slug=_unique_slug(clean))
        j.created(league)
    return league


def league_update(*, league_id: int, name: str, actor=None) -> League:
    """Rename a league (its slug stays, so links keep working)."""
    clean = _name(name)
    with room_action("league_updated", actor, {"league": league_id, "name": clean}) as j:
        league = _league(league_id, lock=True)
        j.before(league, ["name"])
        league.name = clean
        league.save(update_fields=["name"])
    return league


# ---------------------------------------------------------------------------- seasons


def _scoring_fields(scoring: str, points_table: str, formula: str) -> dict[str, Any]:
    """The stored scoring fields, checked through the engine (see the module docstring)."""
    if scoring not in Season.Scoring.values:
        params = {"names": ", ".join(Season.Scoring.values)}
        message = MSG_SCORING % params
        raise DomainError("bad_scoring", MSG_SCORING, params=params, fields={"scoring": message})
    table: list[str] = []
    text = ""
    if scoring == Season.Scoring.PLACE_TABLE and (points_table or "").strip():
        try:
            parsed = points.parse_table(points_table)
        except DomainError as exc:
            raise DomainError(exc.code, exc.message, fields={"points_table": exc.message}) from None
        table = [str(value) for value in parsed.table]
    elif scoring == Season.Scoring.FORMULA:
        text = (formula or "").strip()
        try:
            points.formula_scoring(text)
        except DomainError as exc:
            raise DomainError(
                exc.code,
                exc.message,
                fields={"formula": exc.message, "column": exc.fields.get("column")},
            ) from None
    return {"scoring": scoring, "points_table": table, "formula": text}


MAX_BEST_N = 1000  # a season of more events than this counts them all
MAX_ATTENDANCE = Decimal("9999999.99")  # the column's largest value
MSG_BEST_N_RANGE_TEMPLATE = N_("Count a player's best 1 to %(max)s events, or leave it empty.")
MSG_BEST_N_RANGE = MSG_BEST_N_RANGE_TEMPLATE % {"max": MAX_BEST_N}
MSG_ATTENDANCE_RANGE_TEMPLATE = N_("Attendance points from 0 to %(max)s.")
MSG_ATTENDANCE_RANGE = MSG_ATTENDANCE_RANGE_TEMPLATE % {"max": f"{MAX_ATTENDANCE:,}"}


def _options_fields(best_n: int | None, entries: str, attendance: Decimal, share_ties: bool):
    if isinstance(best_n, int) and not isinstance(best_n, bool) and best_n > MAX_BEST_N:
        raise DomainError(
            "bad_options",
            MSG_BEST_N_RANGE_TEMPLATE,
            params={"max": MAX_BEST_N},
            fields={"best_n": MSG_BEST_N_RANGE},
        )
    if isinstance(attendance, Decimal | int) and abs(Decimal(attendance)) > MAX_ATTENDANCE:
        raise DomainError(
            "bad_options",
            MSG_ATTENDANCE_RANGE_TEMPLATE,
            params={"max": f"{MAX_ATTENDANCE:,}"},
            fields={"attendance_points": MSG_ATTENDANCE_RANGE},
        )
    options = points.Options(
        best_events=best_n, entries=entries, attendance=attendance, share_ties=bool(share_ties)
    )
    try:
        points.season_points([], scoring_of(Season.Scoring.PLACE_TABLE, [], ""), options)
    except DomainError as exc:
        name = {"best_events": "best_n", "attendance": "attendance_points"}
        fields = {name.get(k, k): exc.message for k in exc.fields}
        raise DomainError(exc.code, exc.message, fields=fields) from None
    return {
        "best_n": best_n,
        "entries": entries,
        "attendance_points": attendance,
        "share_ties": bool(share_ties),
    }


def season_values(
    *,
    name: str,
    starts_on: dt.date | None = None,
    ends_on: dt.date | None = None,
    scoring: str = Season.Scoring.PLACE_TABLE,
    points_table: str = "",
    formula: str = "",
    best_n: int | None = None,
    entries: str = Season.Entries.BEST,
    attendance_points: Decimal = Decimal(0),
    share_ties: bool = True,
) -> dict[str, Any]:
    """A season's fields as they will be stored, or the first refusal (with its field)."""
    values: dict[str, Any] = {"name": _name(name), "starts_on": starts_on, "ends_on": ends_on}
    if starts_on and ends_on and ends_on < starts_on:
        raise DomainError("bad_dates", MSG_DATES, fields={"ends_on": MSG_DATES})
    values.update(_scoring_fields(scoring, points_table, formula))
    values.update(_options_fields(best_n, entries, attendance_points, share_ties))
    return values


def season_create(*, league_id: int, actor=None, **settings: Any) -> Season:
    """A new season of a league, with its scoring and options (``season_values``)."""
    values = season_values(**settings)
    payload = {"league": league_id, "name": values["name"]}
    with room_action("season_created", actor, payload) as j:
        league = _league(league_id, lock=True)
        # noted, so the league's creation is not undone from under its season
        j.before(league, ["name"])
        season = Season.objects.create(league=league, **values)
        j.created(season)
        payload["season"] = season.pk  # the Event is written at the block's end
    return season


def season_update(*, season_id: int, actor=None, **settings: Any) -> Season:
    """Change a season's name, dates, scoring and options (``season_values``); its standings
    are computed again from its tournaments' results."""
    values = season_values(**settings)
    with room_action("season_updated", actor, {"season": season_id, "name": values["name"]}) as j:
        season = _season(season_id, lock=True)
        j.before(season, SEASON_FIELDS)
        for field, value in values.items():
            setattr(season, field, value)
        season.save(update_fields=list(values))
    return season


# ----------------------------------------------------------------- a tournament's season


def tournament_season_set(*, tournament_id: int, season_id: int | None, actor=None) -> Tournament:
    """Make a tournament count toward ``season_id`` (None: toward no season). A day of a
    multi-day event is refused: its results are not one event's (RULES 10)."""
    payload = {"tournament": tournament_id, "season": season_id}
    with room_action("tournament_season_set", actor, payload) as j:
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None:
            raise DomainError("not_found", MSG_NO_TOURNAMENT, status=404)
        if season_id is not None:
            _season(season_id)
            if t.multi_day_event_id is not None:
                raise DomainError("day_of_event", MSG_DAY_OF_EVENT, fields={"tournament": None})
        payload["was"] = t.season_id
        # both seasons noted: neither's creation is undone while this stands (its undo
        # would point the tournament at a season no longer there)
        j.before_many(Season.objects.filter(pk__in=[t.season_id, season_id]), ["name"])
        j.before(t, ["season"])
        t.season_id = season_id
        t.save(update_fields=["season"])
        # the public screens poll the version: the standings join or leave the display
        Tournament.objects.filter(pk=t.pk).update(version=F("version") + 1)
    return t
