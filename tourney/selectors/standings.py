"""A season's points and standings (issue 27), computed when read from the results of its
tournaments by the points engine (tourney/engine/points.py). No writes; nothing is stored, so
the standings follow every result as it comes in (and every undo).

The engine's input, built from the database (one query each for the season's tournaments,
their entries, and their knockouts):

* The events: the season's tournaments that are running or finished, oldest first (a best-N
  tie goes to the earlier event). A tournament still in setup has no results yet.
* ``entrants``: the tournament's entries, re-entries included (RULES 7.5: as the places and
  the pool count them).
* ``buyin``: the price of one entry as the player paid it at the desk: the prize-pool part,
  the house fee and the bounty part together (``buy_in + fee + bounty``); rebuys and add-ons
  are counted apart (``rebuys``, ``addons``).
* A result per placed entry (busted, or the winner): its place as it stands (RULES 7.1: the
  stored place plus the tournament's place lag; a tie's range, RULES 7.2), its prize (a deal's
  amount included, RULES 8.3), the bounty money it won (``Entry.bounty_won``, RULES 9.9), its
  rebuys and add-ons, its hits (knockouts it won, the winner's own bounty aside) and whether it
  is a re-entry (every entry but the player's first in the tournament). In a running
  tournament the players still in are not placed yet: they score when they are.
* A formula that fails for any player gives no points at all: the season's read carries the
  error (the engine's message names the event, the player and the values) instead of
  standings.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, F

from tourney.core.language import refusal_text
from tourney.engine import points
from tourney.engine.errors import DomainError
from tourney.models import Entry, Knockout, Player, Season, Tournament

SCORED = (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
MSG_EVENT = "{name}: {message}"


def scoring_of(scoring: str, points_table: list, formula: str) -> points.Scoring:
    """The engine's scoring for a season's stored fields: its formula, its own points table,
    or the preset's (``bad_formula`` / ``bad_points_table`` / ``unknown_preset`` otherwise)."""
    if scoring == Season.Scoring.FORMULA:
        return points.formula_scoring(formula)
    if scoring == Season.Scoring.PLACE_TABLE and points_table:
        return points.table_scoring(Decimal(str(v)) for v in points_table)
    return points.preset_scoring(scoring)


def options_of(season: Season) -> points.Options:
    return points.Options(
        best_events=season.best_n,
        entries=season.entries,
        attendance=Decimal(season.attendance_points).quantize(points.CENT),
        share_ties=season.share_ties,
    )


def points_text(value: Decimal) -> str:
    """Points as the screens print them: 11 → "11", 10.5 → "10.50", 1234 → "1,234"."""
    whole = value == value.to_integral_value()
    return f"{value:,.0f}" if whole else f"{value:,.2f}"


def scoring_text(season: Season) -> str:
    """How the season scores, in a few words: the formula, or the points table."""
    if season.scoring == Season.Scoring.FORMULA:
        return season.formula
    if season.scoring == Season.Scoring.PLACE_TABLE:
        table = season.points_table or points.PRESETS["place_table"].table
        return ", ".join(points.show_number(Decimal(str(v))) for v in table)
    return points.PRESETS[season.scoring].formula


# ---------------------------------------------------------------- the engine's input


def _events(tournaments: list[Tournament]) -> list[points.EventResults]:
    """Each tournament's results as the engine reads them (see the module docstring)."""
    ids = [t.pk for t in tournaments]
    hits = dict(
        Knockout.objects.filter(tournament_id__in=ids)
        .exclude(busted_id=F("winner_id"))  # RULES 9.8: the winner's own bounty is no hit
        .values("winner_id")
        .annotate(n=Count("id"))
        .values_list("winner_id", "n")
    )
    entries = Entry.objects.filter(tournament_id__in=ids).order_by("number")
    rows: dict[int, list[tuple]] = defaultdict(list)
    for row in entries.values_list(
        "tournament_id",
        "pk",
        "player_id",
        "place",
        "place_to",
        "prize",
        "bounty_won",
        "rebuys",
        "addons",
    ):
        rows[row[0]].append(row[1:])
    out = []
    for t in tournaments:
        firsts: dict[int, int] = {}
        for pk, player, *_ in rows[t.pk]:
            firsts.setdefault(player, pk)
        placed = [r for r in rows[t.pk] if r[2] is not None]
        placed_first = {player for pk, player, *_ in placed if firsts[player] == pk}
        results = []
        for pk, player, place, place_to, prize, bounty_won, rebuys, addons in placed:
            # the earliest placed entry stands for a first entry that is not placed yet
            first = firsts[player] == pk or player not in placed_first
            placed_first.add(player)
            results.append(
                points.ResultRow(
                    player=player,
                    place=place + t.place_lag,
                    place_to=(place_to or place) + t.place_lag,
                    prize=prize,
                    bounties=bounty_won,
                    rebuys=rebuys,
                    addons=addons,
                    hits=hits.get(pk, 0),
                    reentry=not first,
                )
            )
        out.append(
            points.EventResults(
                event=t.pk,
                entrants=max(len(rows[t.pk]), 1),
                buyin=t.buy_in + t.fee + t.bounty,
                rows=tuple(results),
            )
        )
    return out


# ---------------------------------------------------------------- the standings


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    player: int
    name: str
    nickname: str
    events: int
    counted: int
    points: Decimal
    wins: int
    cashes: int
    winnings: int
    bounties: int
    knockouts: int


@dataclass(frozen=True, slots=True)
class Standings:
    """A season's standings (``error``: why there are none), its tournaments (every one,
    oldest first) and the points of each player in each scored tournament."""

    season: Season
    tournaments: tuple[Tournament, ...]
    rows: tuple[Row, ...] = ()
    error: str = ""
    results: tuple[points.PlayerEvent, ...] = ()
    scored: frozenset[int] = field(default_factory=frozenset)


def season_tournaments(season: Season) -> list[Tournament]:
    return list(Tournament.objects.filter(season=season).order_by("created_at", "pk"))


def _names(ids: Iterable[int]) -> dict[int, tuple[str, str]]:
    return {
        pk: (name, nick)
        for pk, name, nick in Player.objects.filter(pk__in=list(ids)).values_list(
            "pk", "name", "nickname"
        )
    }


def season_standings(season: Season, *, limit: int | None = None) -> Standings:
    """The season's standings (the first ``limit`` rows, ties at the cut included), or the
    error that stops them (a formula failing for some player: no points at all)."""
    tournaments = season_tournaments(season)
    scored = [t for t in tournaments if t.status in SCORED]
    by_id = {t.pk: t for t in tournaments}
    try:
        result = points.season_points(
            _events(scored) if scored else [],
            scoring_of(season.scoring, season.points_table, season.formula),
            options_of(season),
        )
    except DomainError as exc:
        message = refusal_text(exc)  # the engine's message in the active language
        event = exc.fields.get("event")
        if event in by_id:
            message = MSG_EVENT.format(name=by_id[event].name, message=message)
        return Standings(season, tuple(tournaments), error=message)
    standing = result.standings
    if limit is not None and len(standing) > limit:
        standing = tuple(s for s in standing if s.rank <= standing[limit - 1].rank)
    names = _names(s.player for s in standing)
    rows = tuple(
        Row(
            rank=s.rank,
            player=s.player,
            name=names.get(s.player, ("", ""))[0],
            nickname=names.get(s.player, ("", ""))[1],
            events=s.events,
            counted=s.counted,
            points=s.points,
            wins=s.wins,
            cashes=s.cashes,
            winnings=s.winnings,
            bounties=s.bounties,
            knockouts=s.knockouts,
        )
        for s in standing
    )
    return Standings(
        season,
        tuple(tournaments),
        rows=rows,
        results=result.results,
        scored=frozenset(t.pk for t in scored),
    )


def points_by_tournament(player_id: int) -> dict[int, Decimal]:
    """A player's points in each scored tournament of a season they played ({tournament id:
    points}, for the player's page). A tournament whose season cannot score (its formula
    fails for some player of that event) is left out."""
    tournaments = list(
        Tournament.objects.filter(
            season__isnull=False, status__in=SCORED, entries__player_id=player_id
        )
        .select_related("season")
        .distinct()
        .order_by("created_at", "pk")
    )
    out: dict[int, Decimal] = {}
    for event in _events(tournaments):
        season = next(t.season for t in tournaments if t.pk == event.event)
        try:
            done = points.event_points(
                event,
                scoring_of(season.scoring, season.points_table, season.formula),
                options_of(season),
            )
        except DomainError:
            continue
        out.update({pe.event: pe.points for pe in done if pe.player == player_id})
    return out
