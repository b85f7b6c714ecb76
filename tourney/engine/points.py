"""League points: the presets, the options and a season's standings (issue 27).

Pure Python: no Django. The caller passes each event's results (one ``ResultRow`` per entry:
the player, their place, money won, rebuys, add-ons, knockouts, first entry or re-entry), its
entrants and buy-in; ``season_points`` gives every player's points per event and the season's
standings. Money is an ``int`` in the smallest currency unit (cents), as everywhere; points are
``Decimal`` with 2 decimals.

The rule book's section 11 (docs/rules.md) is written from these readings:

* Scoring (``Scoring``) is a formula (``tourney.engine.formula``) or a points table (points for
  1st, 2nd, ...; places past the table score 0). A preset (``PRESETS``) is just one of the two:
  a place table (100, 70, 50, 40, 30, 25, 20, 15, 10, 5), "entrants − place + 1", and a
  square-root formula with buy-in weighting, ``sqrt(entrants) / sqrt(place) * (1 + log10(buyin
  + 0.25))``. The director may edit a preset or write their own.
* The formula's money variables (``buyin``, ``prize``, ``bounties``) are in currency units
  (cents / 100), so ``buyin + 0.25`` adds a quarter; ``rebuys``, ``addons`` and ``hits`` are
  counts; ``entrants`` is the field as the caller counts it (every entry, re-entries included,
  as the places and the prize pool count them: RULES 7.5).
* Re-entries (the option "first entry only for re-entry events", ``Options.entries``):
  ``BEST_ENTRY`` (the default, as card rooms count it): a player scores once per event, with
  the best finish among their entries, and the money, rebuys, add-ons and knockouts of all
  their entries; ``FIRST_ENTRY``: only the player's first entry scores, with its own values;
  ``EVERY_ENTRY``: each entry scores on its own and the player's points for the event are the
  sum. Every player has exactly one first entry in an event.
* Ties (RULES 7.2): players tied over places k..k+m-1 share those places as they share the
  prizes: each gets the average of the points of those places (with their own values for the
  other variables). With ``Options.share_ties`` off each gets the points of the best of them.
* Attendance points (``Options.attendance``) are added once to every player who played the
  event, in every mode; they are part of that event's points.
* An event's points for a player are rounded to 2 decimals, half up, once: the average over a
  tie, plus the attendance (``EVERY_ENTRY``: the sum over the entries, then the attendance).
  A formula that fails for any player refuses the whole season (``formula_failed``, naming the
  event, the player and the values): no points rather than wrong ones.
* Best N (``Options.best_events``): a player's N events with the most points count; the others
  are listed and marked not counted (of equal points, the earlier event counts).
* Standings: points (of the counted events), then wins, then cashes, then winnings, the more
  the better; players equal on all four share a rank (1, 2, 2, 4) and are listed by player id.
  Events, wins (a best place of 1), cashes (events with prize money), winnings, bounties and
  knockouts are those of every event played and every entry, whatever the options.
"""

from __future__ import annotations

import decimal
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from tourney.engine.errors import DomainError
from tourney.engine.formula import Formula, check_formula, evaluate, show_number

BEST_ENTRY = "best"
FIRST_ENTRY = "first"
EVERY_ENTRY = "each"
ENTRY_MODES = (BEST_ENTRY, FIRST_ENTRY, EVERY_ENTRY)
MAX_TABLE_PLACES = 1000
MAX_TABLE_POINTS = Decimal(10) ** 9
MAX_POINTS = Decimal(10) ** 12
CENT = Decimal("0.01")

MSG_BAD_TABLE = (
    "A points table needs 1 to {limit} places, each a number of points of 0 or more "
    "(at most 2 decimals, below 1,000,000,000)."
)
MSG_BAD_TABLE_ENTRY = (
    "Place {place} of the points table: '{text}' is not a number of points of 0 or more "
    "(at most 2 decimals, below 1,000,000,000)."
)
MSG_UNKNOWN_PRESET = "Unknown points preset '{name}'; the presets are {names}."
MSG_BAD_SCORING = "Points come from a formula or from a points table, exactly one of them."
MSG_BAD_BEST_EVENTS = "The best events to count must be a whole number of 1 or more (or all)."
MSG_BAD_ATTENDANCE = (
    "Attendance points must be a number of 0 or more (at most 2 decimals, below 1,000,000,000)."
)
MSG_BAD_ENTRY_MODE = "Re-entries count as {modes}, not '{mode}'."
MSG_DUPLICATE_EVENT = "Event {event} is listed more than once."
MSG_BAD_EVENT = (
    "Event {event}: the entrants must be a whole number of at least 1 and the buy-in a whole "
    "amount of 0 or more."
)
MSG_BAD_ROW = (
    "Event {event}, player {player}: a result needs a place from 1 to the {entrants} "
    "entrants, a place_to from the place to the entrants, and money and counts that are "
    "whole numbers of 0 or more."
)
MSG_FIRST_ENTRIES = (
    "Event {event}, player {player}: a player has exactly one first entry in an event "
    "(found {count}); the others are re-entries."
)
MSG_POINTS_FAILED = "Event {event}, player {player}: {reason}"
MSG_TOO_MANY_POINTS = (
    "Event {event}, player {player}: {points} points are too many (1,000,000,000,000 or more)."
)

_CONTEXT = decimal.Context(prec=28, rounding=decimal.ROUND_HALF_EVEN)


# ------------------------------------------------------------------------------ scoring


@dataclass(frozen=True, slots=True)
class Scoring:
    """How places turn into points: a formula, or a table of points for 1st, 2nd, ..."""

    formula: Formula | None = None
    table: tuple[Decimal, ...] = ()

    def __post_init__(self) -> None:
        if (self.formula is None) == (not self.table):
            raise DomainError("bad_scoring", MSG_BAD_SCORING)


@dataclass(frozen=True, slots=True)
class Preset:
    name: str
    label: str
    formula: str = ""
    table: tuple[int, ...] = ()

    def scoring(self) -> Scoring:
        if self.formula:
            return formula_scoring(self.formula)
        return table_scoring(self.table)


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset(
            "place_table",
            "Points by place: 100, 70, 50, 40, 30, 25, 20, 15, 10, 5",
            table=(100, 70, 50, 40, 30, 25, 20, 15, 10, 5),
        ),
        Preset("entrants_minus_place", "Entrants − place + 1", formula="entrants - place + 1"),
        Preset(
            "sqrt_buyin",
            "A square-root formula with buy-in weighting",
            formula="sqrt(entrants) / sqrt(place) * (1 + log10(buyin + 0.25))",
        ),
    )
}


def preset_scoring(name: str) -> Scoring:
    """The scoring of the preset called ``name`` (``unknown_preset`` otherwise)."""
    if name not in PRESETS:
        raise DomainError(
            "unknown_preset", MSG_UNKNOWN_PRESET.format(name=name, names=", ".join(PRESETS))
        )
    return PRESETS[name].scoring()


def formula_scoring(text: str) -> Scoring:
    """Scoring by the formula ``text`` (``bad_formula`` when it cannot be read)."""
    return Scoring(formula=check_formula(text))


def _table_points(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        return None
    points = Decimal(value)
    if not points.is_finite() or not 0 <= points < MAX_TABLE_POINTS:
        return None
    return points if points == points.quantize(CENT, context=_CONTEXT) else None


def table_scoring(values: Iterable[int | Decimal]) -> Scoring:
    """Scoring by a table: ``values[0]`` points for 1st, ``values[1]`` for 2nd, ...; places
    past the table score 0 (``bad_points_table`` unless 1 to 1000 amounts of 0 or more, at
    most 2 decimals)."""
    table = tuple(_table_points(value) for value in values)
    if not 1 <= len(table) <= MAX_TABLE_PLACES or None in table:
        raise DomainError("bad_points_table", MSG_BAD_TABLE.format(limit=MAX_TABLE_PLACES))
    return Scoring(table=table)  # type: ignore[arg-type]


def parse_table(text: str) -> Scoring:
    """A table as a director types it: amounts separated by commas, spaces or new lines
    ("100, 70, 50"); refuses the first amount that is not one, naming its place."""
    parts = text.replace(",", " ").split()
    table = []
    for place, part in enumerate(parts, start=1):
        digits = part.replace(".", "", 1)
        points = None
        if part.isascii() and digits.isdigit() and not part.endswith(".") and len(part) <= 16:
            points = _table_points(Decimal(part))
        if points is None:
            raise DomainError(
                "bad_points_table",
                MSG_BAD_TABLE_ENTRY.format(place=place, text=part[:20]),
                fields={"place": place},
            )
        table.append(points)
    return table_scoring(table)


# ------------------------------------------------------------------------- input, output


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One entry's result in an event. Money in cents; ``place_to`` > ``place`` for a tie."""

    player: int
    place: int
    place_to: int | None = None
    prize: int = 0
    bounties: int = 0
    rebuys: int = 0
    addons: int = 0
    hits: int = 0
    reentry: bool = False


@dataclass(frozen=True, slots=True)
class EventResults:
    """An event of the season: its id, entrants, buy-in (cents) and results."""

    event: int
    entrants: int
    buyin: int
    rows: tuple[ResultRow, ...] = ()


@dataclass(frozen=True, slots=True)
class Options:
    """The season's options (see the module docstring for how each is read)."""

    best_events: int | None = None  # None: every event counts
    entries: str = BEST_ENTRY
    attendance: Decimal = Decimal(0)
    share_ties: bool = True


@dataclass(frozen=True, slots=True)
class PlayerEvent:
    """A player's event: their best finish, what they won over all their entries, their
    points (2 decimals) and whether the points count toward the standings (best N)."""

    event: int
    player: int
    place: int
    place_to: int
    entries: int
    prize: int
    bounties: int
    hits: int
    points: Decimal
    counted: bool = True


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: int
    events: int
    counted: int
    points: Decimal
    wins: int
    cashes: int
    winnings: int
    bounties: int
    knockouts: int


@dataclass(frozen=True, slots=True)
class Season:
    """Every player's events (event order, then best place) and the standings."""

    results: tuple[PlayerEvent, ...]
    standings: tuple[Standing, ...] = ()


# ---------------------------------------------------------------------------- checking


def _whole(value: object, least: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _check_options(options: Options) -> None:
    if options.best_events is not None and not _whole(options.best_events, 1):
        raise DomainError("bad_options", MSG_BAD_BEST_EVENTS, fields={"best_events": None})
    if options.entries not in ENTRY_MODES:
        message = MSG_BAD_ENTRY_MODE.format(modes=", ".join(ENTRY_MODES), mode=options.entries)
        raise DomainError("bad_options", message, fields={"entries": None})
    if _table_points(options.attendance) is None:
        raise DomainError("bad_options", MSG_BAD_ATTENDANCE, fields={"attendance": None})


def _check_event(event: EventResults) -> None:
    if not _whole(event.entrants, 1) or not _whole(event.buyin):
        raise DomainError("bad_results", MSG_BAD_EVENT.format(event=event.event))
    firsts: dict[int, int] = defaultdict(int)
    for row in event.rows:
        place_to = row.place if row.place_to is None else row.place_to
        amounts = (row.prize, row.bounties, row.rebuys, row.addons, row.hits)
        if not (
            _whole(row.place, 1)
            and _whole(place_to, row.place)
            and place_to <= event.entrants
            and all(_whole(amount) for amount in amounts)
            and isinstance(row.reentry, bool)
        ):
            message = MSG_BAD_ROW.format(
                event=event.event, player=row.player, entrants=event.entrants
            )
            raise DomainError("bad_results", message)
        firsts[row.player] += 0 if row.reentry else 1
    for player, count in firsts.items():
        if count != 1:
            message = MSG_FIRST_ENTRIES.format(event=event.event, player=player, count=count)
            raise DomainError("bad_results", message)


# ------------------------------------------------------------------------------ points


def _cents(amount: int) -> Decimal:
    return Decimal(amount).scaleb(-2)


# RULES 11.1: the points of one place (by the table, or the formula at that place)
def _place_points(scoring: Scoring, place: int, variables: dict[str, Decimal | int]) -> Decimal:
    if scoring.formula is None:
        return scoring.table[place - 1] if place <= len(scoring.table) else Decimal(0)
    return evaluate(scoring.formula, {**variables, "place": place})


# RULES 11.3, 11.5: one finish, its variables, tied places sharing their points
def _entry_points(
    scoring: Scoring, options: Options, event: EventResults, rows: Sequence[ResultRow]
) -> Decimal:
    """The points of one finish: the best of ``rows`` with the sums of their values."""
    best = min(rows, key=lambda row: row.place)
    place_to = best.place if best.place_to is None else best.place_to
    variables: dict[str, Decimal | int] = {
        "entrants": event.entrants,
        "buyin": _cents(event.buyin),
        "prize": _cents(sum(row.prize for row in rows)),
        "bounties": _cents(sum(row.bounties for row in rows)),
        "rebuys": sum(row.rebuys for row in rows),
        "addons": sum(row.addons for row in rows),
        "hits": sum(row.hits for row in rows),
    }
    places = range(best.place, (place_to if options.share_ties else best.place) + 1)
    try:
        total = sum((_place_points(scoring, p, variables) for p in places), Decimal(0))
    except DomainError as error:
        raise DomainError(
            error.code,
            MSG_POINTS_FAILED.format(event=event.event, player=best.player, reason=error.message),
            fields={**error.fields, "event": event.event, "player": best.player},
        ) from None
    return _CONTEXT.divide(total, len(places))


# RULES 11.4, 11.6, 11.7: a player's event by the re-entry setting, attendance, rounding
def _player_event(
    scoring: Scoring, options: Options, event: EventResults, rows: list[ResultRow]
) -> PlayerEvent:
    player = rows[0].player
    if options.entries == BEST_ENTRY:
        raw = _entry_points(scoring, options, event, rows)
    elif options.entries == FIRST_ENTRY:
        raw = _entry_points(scoring, options, event, [r for r in rows if not r.reentry])
    else:
        raw = sum((_entry_points(scoring, options, event, [r]) for r in rows), Decimal(0))
    raw = _CONTEXT.add(raw, options.attendance)
    if abs(raw) >= MAX_POINTS:
        message = MSG_TOO_MANY_POINTS.format(
            event=event.event, player=player, points=show_number(raw)
        )
        raise DomainError("formula_failed", message, fields={"event": event.event})
    best = min(rows, key=lambda row: row.place)
    return PlayerEvent(
        event=event.event,
        player=player,
        place=best.place,
        place_to=best.place if best.place_to is None else best.place_to,
        entries=len(rows),
        prize=sum(row.prize for row in rows),
        bounties=sum(row.bounties for row in rows),
        hits=sum(row.hits for row in rows),
        points=raw.quantize(CENT, rounding=decimal.ROUND_HALF_UP),
    )


def event_points(
    event: EventResults, scoring: Scoring, options: Options | None = None
) -> tuple[PlayerEvent, ...]:
    """Each player's points in one event, by best place then player id."""
    options = options or Options()
    _check_options(options)
    _check_event(event)
    by_player: dict[int, list[ResultRow]] = defaultdict(list)
    for row in event.rows:
        by_player[row.player].append(row)
    done = [_player_event(scoring, options, event, rows) for rows in by_player.values()]
    return tuple(sorted(done, key=lambda pe: (pe.place, pe.player)))


# RULES 11.6: best N events
def _mark_counted(results: list[PlayerEvent], best_events: int | None) -> list[PlayerEvent]:
    if best_events is None:
        return results
    order = {id(pe): i for i, pe in enumerate(results)}
    by_player: dict[int, list[PlayerEvent]] = defaultdict(list)
    for pe in results:
        by_player[pe.player].append(pe)
    dropped: set[int] = set()
    for events in by_player.values():
        ranked = sorted(events, key=lambda pe: (-pe.points, order[id(pe)]))
        dropped.update(id(pe) for pe in ranked[best_events:])
    return [replace(pe, counted=False) if id(pe) in dropped else pe for pe in results]


def _totals(events: list[PlayerEvent]) -> dict[str, int | Decimal]:
    return {
        "events": len(events),
        "counted": sum(1 for pe in events if pe.counted),
        "points": sum((pe.points for pe in events if pe.counted), Decimal(0)),
        "wins": sum(1 for pe in events if pe.place == 1),
        "cashes": sum(1 for pe in events if pe.prize > 0),
        "winnings": sum(pe.prize for pe in events),
        "bounties": sum(pe.bounties for pe in events),
        "knockouts": sum(pe.hits for pe in events),
    }


# RULES 11.7: ranks
def standings(results: Iterable[PlayerEvent]) -> tuple[Standing, ...]:
    """The standings from the players' events (see the module docstring for the order)."""
    by_player: dict[int, list[PlayerEvent]] = defaultdict(list)
    for pe in results:
        by_player[pe.player].append(pe)
    totals = {player: _totals(events) for player, events in by_player.items()}

    def merit(player: int) -> tuple:
        row = totals[player]
        return (-row["points"], -row["wins"], -row["cashes"], -row["winnings"])

    out: list[Standing] = []
    for position, player in enumerate(sorted(totals, key=lambda p: (merit(p), p)), start=1):
        tied = bool(out) and merit(out[-1].player) == merit(player)
        rank = out[-1].rank if tied else position
        out.append(Standing(rank=rank, player=player, **totals[player]))  # type: ignore[arg-type]
    return tuple(out)


def season_points(
    events: Sequence[EventResults], scoring: Scoring, options: Options | None = None
) -> Season:
    """Every player's points in every event of the season, and the standings.

    Refuses (nothing computed) on the first bad event (``bad_results``), bad options
    (``bad_options``) or a formula that fails for some player (``formula_failed``)."""
    options = options or Options()
    _check_options(options)
    seen: set[int] = set()
    results: list[PlayerEvent] = []
    for event in events:
        if event.event in seen:
            message = MSG_DUPLICATE_EVENT.format(event=event.event)
            raise DomainError("bad_results", message)
        seen.add(event.event)
        results.extend(event_points(event, scoring, options))
    counted = _mark_counted(results, options.best_events)
    return Season(results=tuple(counted), standings=standings(counted))
