"""Multi-day events: Day 1 flights, bag and tag, the Day 2 merge, places and chip counts
(RULES 10).

Pure Python: no Django, and nothing of the seating engine either (the engines' import contract):
the Day 2 seat draw is the seating engine's ``tables.engine.draw``, which the caller hands in
(``day2_draw``). Money is an ``int`` in the currency's smallest unit; chips are ``int`` chips.

An event with flights is several tournaments: the Day 1 flights, each with its own clock and
tables but one structure and one set of payouts, and a Day 2 (and later days) that plays on
with the stacks the flights bagged. A *bag* is one entry's chips counted and bagged at the end
of a flight; flights are numbered in the order they are played (1 is the first flight).

How the rules are read here:

* RULES 10.2 (``flight_end``): a flight ends when the clock passes its last level (the clock's
  item index is past it, as a window of RULES 4.4) or when the players still in are at most its
  number, whichever comes first. The number counts only once registration has closed (while
  entries can still come, the field can grow back) and only once the clock has started. When the
  end is due no new hand is dealt; the hands already dealt are played out, and the players
  busted in them are out on Day 1, so a field can end below its number.
* RULES 10.3 (``qualifiers``): a player who bags in several flights takes one stack to Day 2,
  by the event's policy. ``largest`` (the default, "best stack forward"): the largest stack;
  between equal stacks, the one of the earlier flight. ``first`` ("first stack forward"): the
  stack of the earliest flight bagged. Every other bag is forfeited: its chips leave play. The
  desk's warning (``entry_warning``) says so when a player with a bag enters another flight.
* RULES 10.4 (``bag_check``, ``bag_labels``, ``chip_report``): the counts are checked against
  the chips in play and the difference is shown, never fixed; a count of an entry not still
  in, and an entry still in without a count, are reported too.
* RULES 10.5 (``day2_draw``): Day 2 seats every qualified stack at random, each player once,
  with exactly the chips bagged; the tables fill evenly (RULES 1.2, the seating engine's draw).
* RULES 10.6 (``event_pool``, ``event_payouts``): the pool is that of every entry of every
  flight (re-entries and forfeited stacks included), with the event's added money and
  guarantee once; the payout table is chosen by that whole field.
* RULES 10.7 (``event_places``): places in a flight are no places in the event. Day 2 busts
  take places from the bottom of the players who reached Day 2; players out on Day 1 have
  none unless the event pays on Day 1, and then they are placed below every Day 2 player in
  the order the hands were played over all flights, as the early busts of one tournament with
  late registration (RULES 7.6). A forfeited bag never has a place (its player goes on with
  another stack).
* RULES 10.8 (``chip_counts``, ``average_stack``): counts taken during play show each player's
  latest count; the average stack is the exact chips in play over the players still in, never
  the sum of the counts (they are of some players, taken at different times).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from tourney.engine.errors import DomainError
from tourney.engine.payouts import default_percentages, payouts, prize_pool
from tourney.engine.places import Bust, Place, assign_places, winner_place

LARGEST = "largest"  # RULES 10.3: best stack forward, the standard
FIRST = "first"  # RULES 10.3: first stack forward
POLICIES = (LARGEST, FIRST)

# Why a bag was forfeited (RULES 10.3); the texts for people are in FORFEIT_REASONS.
SMALLER_STACK = "smaller_stack"
SAME_STACK_LATER_FLIGHT = "same_stack_later_flight"
LATER_FLIGHT = "later_flight"
FORFEIT_REASONS = {
    SMALLER_STACK: "A larger stack of the same player goes to Day 2.",
    SAME_STACK_LATER_FLIGHT: (
        "The same player bagged as many chips in an earlier flight; that stack goes to Day 2."
    ),
    LATER_FLIGHT: "The same player bagged in an earlier flight; that stack goes to Day 2.",
}

# Why a flight ends (RULES 10.2).
END_LEVEL = "level"
END_PLAYERS = "players"

MSG_NO_END = "A flight needs an end: its last level, a number of players, or both."
MSG_BAD_LAST_LEVEL = "The last level of a flight must be a level of the structure (0 or more)."
MSG_BAD_END_PLAYERS = "A flight's number of players must be a whole number, 1 or more."
MSG_BAD_PLAYERS_LEFT = "The number of players still in must be a whole number, zero or more."
MSG_UNKNOWN_POLICY = "The stack policy must be one of: largest, first."
MSG_BAD_BAG = (
    "A bag needs a player, a flight number of 1 or more, an entry, a count of at least one "
    "chip, and table and seat numbers of zero or more."
)
MSG_BAD_COUNT = (
    "A chip count needs an entry, at least one chip (a player with no chips is out), and "
    "table and seat numbers of zero or more."
)
MSG_DUPLICATE_ENTRY = "The same entry is counted more than once."
MSG_SEAT_TWICE = "Two players are counted in the same seat."
MSG_BAGGED_TWICE = "A player can bag only one stack in a flight."
MSG_PLAYER_TWICE = "A player can take only one stack to Day 2."
MSG_BAD_CHIPS_IN_PLAY = "The chips in play must be a whole number, zero or more."
MSG_NO_PLAYERS = "An average needs at least one player still in."
MSG_ALREADY_QUALIFIED_LARGEST = (
    "This player already has {chips} chips bagged for Day 2 (flight {flight}). They may play "
    "this flight too, but only their largest stack goes to Day 2: the other is forfeited."
)
MSG_ALREADY_QUALIFIED_FIRST = (
    "This player already has {chips} chips bagged for Day 2 (flight {flight}). Only that "
    "stack goes to Day 2: any chips they bag in this flight are forfeited."
)
MSG_DRAW_MISMATCH = "The seat draw must seat every Day 2 player exactly once, one to a seat."
MSG_NO_DAY2 = "Day 2 needs at least one player who bagged chips."
MSG_NOT_ON_DAY2 = "A player busted on Day 2 must be one of the players who started it."
MSG_BUSTED_ON_DAY1_AND_DAY2 = "A player who bagged for Day 2 was not out on Day 1."
MSG_BAD_BUST = "A bust names an entry with the stack it had at the start of the hand."
MSG_BUSTED_TWICE = "The same entry is out twice."
MSG_BAD_MONEY = "Entries, rebuys and add-ons must be whole numbers, zero or more."
MSG_PAID_BELOW_DAY2 = (
    "The payouts pay {paid} places but only {players} players reached Day 2. Pay fewer places, "
    "or set the event to pay on Day 1."
)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(name: str, value: object, code: str, message: str, least: int = 0) -> int:
    if not _is_int(value) or value < least:  # type: ignore[operator]
        raise DomainError(code, message, fields={name: value})
    return value  # type: ignore[return-value]


# --------------------------------------------------------------------------- RULES 10.1


@dataclass(frozen=True, slots=True)
class EventSettings:
    """The settings of a multi-day event (RULES 10.1, 10.3, 10.7): the stack ``policy`` of a player
    who bags in several flights, and whether the event pays places on Day 1."""

    policy: str = LARGEST
    pays_on_day1: bool = False

    def __post_init__(self) -> None:
        _check_policy(self.policy)


def _check_policy(policy: object) -> None:
    if policy not in POLICIES:
        raise DomainError("unknown_policy", MSG_UNKNOWN_POLICY, fields={"policy": policy})


# --------------------------------------------------------------------------- RULES 10.2


@dataclass(frozen=True, slots=True)
class FlightEnd:
    """Where a flight stops (RULES 10.2): after ``last_level`` (the clock's item index of the
    last level it plays, as the windows of RULES 4.4 count), or when the players still in are
    ``players`` or fewer; either or both, whichever comes first."""

    last_level: int | None = None
    players: int | None = None

    def __post_init__(self) -> None:
        if self.last_level is None and self.players is None:
            raise DomainError("no_flight_end", MSG_NO_END)
        if self.last_level is not None:
            _count("last_level", self.last_level, "bad_last_level", MSG_BAD_LAST_LEVEL)
        if self.players is not None:
            _count("players", self.players, "bad_end_players", MSG_BAD_END_PLAYERS, least=1)


def flight_end(
    end: FlightEnd,
    *,
    level_index: int | None,
    players_left: int,
    registration_open: bool = False,
) -> str | None:
    """Why the flight has ended, ``END_LEVEL`` or ``END_PLAYERS``, or None while it plays on
    (RULES 10.2).

    ``level_index`` is the clock's item index now (None before the clock starts: a flight not
    started never ends); ``players_left`` the players still in (RULES 7.5). The level end is due
    once the clock is past ``last_level``; the players' end once ``players_left`` is at most
    ``players`` and registration is closed. When both are due the level is named. Once due, no
    new hand is dealt; the hands in progress are played out (the caller stops the clock).
    """
    _count("players_left", players_left, "bad_players_left", MSG_BAD_PLAYERS_LEFT)
    if level_index is None:
        return None
    if end.last_level is not None and level_index > end.last_level:
        return END_LEVEL
    if end.players is not None and not registration_open and players_left <= end.players:
        return END_PLAYERS
    return None


def flight_end_due(
    end: FlightEnd,
    *,
    level_index: int | None,
    players_left: int,
    registration_open: bool = False,
) -> bool:
    """Whether the flight has reached its end (RULES 10.2); see ``flight_end``."""
    reason = flight_end(
        end,
        level_index=level_index,
        players_left=players_left,
        registration_open=registration_open,
    )
    return reason is not None


# --------------------------------------------------------------------------- RULES 10.3


@dataclass(frozen=True, slots=True)
class Bag:
    """One entry's chips bagged at the end of a flight (RULES 10.4): the ``player`` (the person,
    the same in every flight), the ``flight`` number (1 = the first flight played), the
    ``entry`` (that flight's entry) and the ``chips`` counted, with where they sat."""

    player: int
    flight: int
    entry: int
    chips: int
    table: int = 0
    seat: int = 0


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A bag that does not go to Day 2 (RULES 10.3): ``kept`` is the same player's bag that
    does, ``reason`` one of ``FORFEIT_REASONS``."""

    bag: Bag
    kept: Bag
    reason: str

    @property
    def message(self) -> str:
        return FORFEIT_REASONS[self.reason]


@dataclass(frozen=True, slots=True)
class Qualification:
    """The bags that go to Day 2 (one per player) and the bags forfeited."""

    qualified: tuple[Bag, ...]
    forfeited: tuple[Forfeit, ...]

    @property
    def chips_in_play(self) -> int:
        """The chips Day 2 starts with: the qualified bags only (forfeited chips leave play)."""
        return sum(bag.chips for bag in self.qualified)


def _bag_order(bag: Bag) -> tuple[int, int, int, int]:
    return (bag.flight, bag.table, bag.seat, bag.entry)


def _check_bags(bags: Iterable[Bag]) -> tuple[Bag, ...]:
    out = tuple(bags)
    entries: set[int] = set()
    flights_of: set[tuple[int, int]] = set()
    for bag in out:
        if (
            not isinstance(bag, Bag)
            or not all(_is_int(v) for v in (bag.player, bag.flight, bag.entry, bag.chips))
            or not all(_is_int(v) for v in (bag.table, bag.seat))
            or bag.flight < 1
            or bag.chips < 1
            or bag.table < 0
            or bag.seat < 0
        ):
            raise DomainError("bad_bag", MSG_BAD_BAG, fields={"bag": repr(bag)})
        if bag.entry in entries:
            raise DomainError("duplicate_entry", MSG_DUPLICATE_ENTRY, fields={"entry": bag.entry})
        entries.add(bag.entry)
        if (bag.player, bag.flight) in flights_of:
            raise DomainError(
                "bagged_twice",
                MSG_BAGGED_TWICE,
                fields={"player": bag.player, "flight": bag.flight},
            )
        flights_of.add((bag.player, bag.flight))
    return out


def _kept(own: Sequence[Bag], policy: str) -> Bag:
    if policy == LARGEST:
        # RULES 10.3: the largest stack; equal stacks, the earlier flight.
        return min(own, key=lambda b: (-b.chips, b.flight, b.entry))
    return min(own, key=lambda b: (b.flight, b.entry))


def qualifiers(bags: Iterable[Bag], policy: str = LARGEST) -> Qualification:
    """Which bags go to Day 2 (RULES 10.3).

    Each player keeps one bag: under ``LARGEST`` the largest (equal stacks: the earlier
    flight), under ``FIRST`` the one of the earliest flight. Every other bag of theirs is
    forfeited with its reason. Qualified and forfeited bags together are exactly ``bags``;
    both come in flight, table, seat order. Refused: a bag that is not a whole count of at
    least one chip (``bad_bag``), an entry bagged twice (``duplicate_entry``), a player with
    two bags in one flight (``bagged_twice``: only one of their entries can be alive there).
    """
    _check_policy(policy)
    by_player: dict[int, list[Bag]] = {}
    for bag in _check_bags(bags):
        by_player.setdefault(bag.player, []).append(bag)
    qualified: list[Bag] = []
    forfeited: list[Forfeit] = []
    for own in by_player.values():
        kept = _kept(own, policy)
        qualified.append(kept)
        for bag in own:
            if bag is kept:
                continue
            if policy == FIRST:
                reason = LATER_FLIGHT
            elif bag.chips < kept.chips:
                reason = SMALLER_STACK
            else:
                reason = SAME_STACK_LATER_FLIGHT
            forfeited.append(Forfeit(bag, kept, reason))
    qualified.sort(key=_bag_order)
    forfeited.sort(key=lambda f: _bag_order(f.bag))
    return Qualification(tuple(qualified), tuple(forfeited))


@dataclass(frozen=True, slots=True)
class EntryWarning:
    """What the desk tells the director when a player who has bagged enters another flight."""

    code: str
    message: str
    bag: Bag


def entry_warning(
    bags: Iterable[Bag], *, player: int, policy: str = LARGEST
) -> EntryWarning | None:
    """The desk's warning when ``player`` enters a flight while holding a bag for Day 2
    (RULES 10.3), or None when they have none. ``bags`` are those of the flights already
    bagged; the warning names the bag that goes to Day 2 so far. The entry is not refused: a
    player may play several flights (under ``FIRST`` the new stack would be forfeited)."""
    _check_policy(policy)
    own = [bag for bag in _check_bags(bags) if bag.player == player]
    if not own:
        return None
    kept = _kept(own, policy)
    template = MSG_ALREADY_QUALIFIED_LARGEST if policy == LARGEST else MSG_ALREADY_QUALIFIED_FIRST
    message = template.format(chips=f"{kept.chips:,}", flight=kept.flight)
    return EntryWarning("already_qualified", message, kept)


# --------------------------------------------------------------------------- RULES 10.4


class Counted(Protocol):
    """A chip count of one entry, where it sat: a ``Bag`` or a ``Count``."""

    @property
    def entry(self) -> int: ...
    @property
    def chips(self) -> int: ...
    @property
    def table(self) -> int: ...
    @property
    def seat(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Count:
    """A chip count of one entry taken during play or at the end of a day (RULES 10.4, 10.7).
    ``at`` orders the counts of one entry (any number that grows: a time, a sequence)."""

    entry: int
    chips: int
    table: int = 0
    seat: int = 0
    at: int = 0


@dataclass(frozen=True, slots=True)
class TableTotal:
    """The chips counted at one table."""

    table: int
    players: int
    chips: int


@dataclass(frozen=True, slots=True)
class BagCheck:
    """The counts against the chips in play (RULES 10.4). ``difference`` is counted minus in
    play: above zero, more chips were counted than are in play. ``missing``: entries still in
    with no count; ``not_in``: counts of entries not still in. Nothing is corrected."""

    tables: tuple[TableTotal, ...]
    counted: int
    chips_in_play: int
    difference: int
    missing: tuple[int, ...] = ()
    not_in: tuple[int, ...] = ()

    @property
    def balanced(self) -> bool:
        return self.difference == 0 and not self.missing and not self.not_in


def _check_counts(counts: Iterable[Counted]) -> tuple[Counted, ...]:
    out = tuple(counts)
    entries: set[int] = set()
    seats: set[tuple[int, int]] = set()
    for c in out:
        try:
            values = (c.entry, c.chips, c.table, c.seat)
        except AttributeError:
            raise DomainError("bad_count", MSG_BAD_COUNT, fields={"count": repr(c)}) from None
        if not all(_is_int(v) for v in values) or c.chips < 1 or c.table < 0 or c.seat < 0:
            raise DomainError("bad_count", MSG_BAD_COUNT, fields={"count": repr(c)})
        if c.entry in entries:
            raise DomainError("duplicate_entry", MSG_DUPLICATE_ENTRY, fields={"entry": c.entry})
        entries.add(c.entry)
        if c.table and c.seat:
            if (c.table, c.seat) in seats:
                raise DomainError(
                    "seat_twice", MSG_SEAT_TWICE, fields={"table": c.table, "seat": c.seat}
                )
            seats.add((c.table, c.seat))
    return out


def bag_check(
    counts: Iterable[Counted], *, chips_in_play: int, players: Collection[int] | None = None
) -> BagCheck:
    """Table by table totals of the counts and the difference to the chips in play (RULES
    10.4).

    ``chips_in_play`` is what the chip accounting says is in play (every starting stack,
    rebuy and add-on, after the color-ups); ``players``, when given, the entries still in, so
    an entry without a count (``missing``) and a count of an entry not in (``not_in``) show.
    The difference is shown, never spread over the counts: a recount settles it.
    """
    checked = _check_counts(counts)
    _count("chips_in_play", chips_in_play, "bad_chips_in_play", MSG_BAD_CHIPS_IN_PLAY)
    per_table: dict[int, list[int]] = {}
    for c in checked:
        per_table.setdefault(c.table, []).append(c.chips)
    tables = tuple(
        TableTotal(table, len(chips), sum(chips)) for table, chips in sorted(per_table.items())
    )
    counted = sum(c.chips for c in checked)
    missing: tuple[int, ...] = ()
    not_in: tuple[int, ...] = ()
    if players is not None:
        seen = {c.entry for c in checked}
        missing = tuple(sorted(set(players) - seen))
        not_in = tuple(sorted(seen - set(players)))
    return BagCheck(tables, counted, chips_in_play, counted - chips_in_play, missing, not_in)


@dataclass(frozen=True, slots=True)
class BagLabel:
    """What is written on one player's bag (RULES 10.4): the bag ``number`` (1, 2, … in table
    and seat order), the player, flight, entry, table, seat and chips."""

    number: int
    player: int
    flight: int
    entry: int
    table: int
    seat: int
    chips: int


def bag_labels(bags: Iterable[Bag]) -> tuple[BagLabel, ...]:
    """One label per bag, numbered in table, then seat order (RULES 10.4)."""
    checked = _check_bags(bags)
    _check_counts(checked)
    ordered = sorted(checked, key=lambda b: (b.table, b.seat, b.entry))
    return tuple(
        BagLabel(n, b.player, b.flight, b.entry, b.table, b.seat, b.chips)
        for n, b in enumerate(ordered, start=1)
    )


@dataclass(frozen=True, slots=True)
class ChipRow:
    """One line of the chip count report: ``rank`` 1 for the biggest stack, equal stacks
    sharing a rank (1, 2, 2, 4)."""

    rank: int
    entry: int
    chips: int
    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class TableCounts:
    """The rows of one table, in seat order, and their total."""

    table: int
    rows: tuple[ChipRow, ...]
    chips: int


@dataclass(frozen=True, slots=True)
class ChipReport:
    """The chip count report (RULES 10.4): biggest stack first, and table by table."""

    by_chips: tuple[ChipRow, ...]
    by_table: tuple[TableCounts, ...]


def chip_report(counts: Iterable[Counted]) -> ChipReport:
    """The chip count report of ``counts`` (RULES 10.4): sorted by chips (ties by table, seat,
    entry, sharing a rank) and grouped by table in seat order."""
    checked = _check_counts(counts)
    ordered = sorted(checked, key=lambda c: (-c.chips, c.table, c.seat, c.entry))
    rows: list[ChipRow] = []
    for i, c in enumerate(ordered):
        rank = rows[-1].rank if rows and rows[-1].chips == c.chips else i + 1
        rows.append(ChipRow(rank, c.entry, c.chips, c.table, c.seat))
    per_table: dict[int, list[ChipRow]] = {}
    for row in rows:
        per_table.setdefault(row.table, []).append(row)
    by_table = tuple(
        TableCounts(
            table,
            tuple(sorted(own, key=lambda r: (r.seat, r.entry))),
            sum(r.chips for r in own),
        )
        for table, own in sorted(per_table.items())
    )
    return ChipReport(tuple(rows), by_table)


# --------------------------------------------------------------------------- RULES 10.5


class SeatMove(Protocol):
    """A seat drawn: the seating engine's ``Move`` has these."""

    @property
    def entry(self) -> int: ...
    @property
    def to_table(self) -> int: ...
    @property
    def to_seat(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Day2Seat:
    """A Day 2 player: their qualified bag's player and entry, the seat drawn, the chips."""

    player: int
    entry: int
    flight: int
    table: int
    seat: int
    chips: int


@dataclass(frozen=True, slots=True)
class Day2:
    """The Day 2 seating, in table and seat order, and the chips it starts with."""

    seats: tuple[Day2Seat, ...]

    @property
    def chips_in_play(self) -> int:
        return sum(s.chips for s in self.seats)


def day2_draw(
    qualified: Iterable[Bag], seat_draw: Callable[[tuple[int, ...]], Iterable[SeatMove]]
) -> Day2:
    """Seat the qualified bags for Day 2 at random, each with the chips bagged (RULES 10.5).

    ``seat_draw`` draws the seats of the entries it is given: the seating engine's draw over
    the Day 2 tables with the recorded random source, e.g.
    ``lambda entries: tables.engine.draw(entries, tables, rng)`` (RULES 1.1, 1.2: random and
    replayable, the tables evenly filled). The entries come in entry order, so the same seed
    draws the same seats whatever order the bags were read in. Refused: a player with two
    bags (``player_twice``: run ``qualifiers`` first), no bag at all (``no_day2``), and a draw
    that does not seat every entry exactly once, one to a seat (``draw_mismatch``).
    """
    bags = _check_bags(qualified)
    if not bags:
        raise DomainError("no_day2", MSG_NO_DAY2, status=409)
    players: set[int] = set()
    for bag in bags:
        if bag.player in players:
            raise DomainError("player_twice", MSG_PLAYER_TWICE, fields={"player": bag.player})
        players.add(bag.player)
    by_entry = {bag.entry: bag for bag in bags}
    moves = tuple(seat_draw(tuple(sorted(by_entry))))
    drawn = {m.entry for m in moves}
    places = {(m.to_table, m.to_seat) for m in moves}
    if len(moves) != len(bags) or drawn != set(by_entry) or len(places) != len(moves):
        raise DomainError(
            "draw_mismatch", MSG_DRAW_MISMATCH, fields={"bags": len(bags), "seats": len(moves)}
        )
    seats = []
    for move in moves:
        bag = by_entry[move.entry]
        seats.append(
            Day2Seat(bag.player, bag.entry, bag.flight, move.to_table, move.to_seat, bag.chips)
        )
    seats.sort(key=lambda s: (s.table, s.seat))
    return Day2(tuple(seats))


# --------------------------------------------------------------------------- RULES 10.6


@dataclass(frozen=True, slots=True)
class FlightMoney:
    """What one flight brought: its ``entries`` (re-entries included) and the prize-pool money
    of its rebuys and add-ons (fees excluded, RULES 8.1)."""

    entries: int
    rebuys: int = 0
    addons: int = 0

    def __post_init__(self) -> None:
        for name in ("entries", "rebuys", "addons"):
            _count(name, getattr(self, name), "bad_amount", MSG_BAD_MONEY)


def event_entries(flights: Iterable[FlightMoney]) -> int:
    """The event's field: every entry of every flight (RULES 10.6)."""
    return sum(f.entries for f in flights)


def event_pool(
    flights: Iterable[FlightMoney], *, buy_in: int, added: int = 0, guarantee: int = 0
) -> int:
    """The event's prize pool (RULES 10.6, 8.1): the flights' entries, rebuys and add-ons
    together, plus the event's added money, raised to its guarantee. Added money and the
    guarantee are the event's, counted once, not once a flight."""
    flights = tuple(flights)
    return prize_pool(
        entries=event_entries(flights),
        buy_in=buy_in,
        rebuys=sum(f.rebuys for f in flights),
        addons=sum(f.addons for f in flights),
        added=added,
        guarantee=guarantee,
    )


@dataclass(frozen=True, slots=True)
class EventPayouts:
    """The whole event's money (RULES 10.6): the field, the pool, the payout table and the
    prize of each place, first place first."""

    entries: int
    pool: int
    percentages: tuple[int, ...]
    prizes: tuple[int, ...]


def event_payouts(
    flights: Iterable[FlightMoney],
    *,
    buy_in: int,
    day2_players: int,
    pays_on_day1: bool = False,
    added: int = 0,
    guarantee: int = 0,
    percentages: Sequence[int] | None = None,
    rounding_unit: int = 1,
) -> EventPayouts:
    """The event's payouts (RULES 10.6, 8.2): the pool of every flight, the table chosen by
    the whole field (``default_percentages`` of all entries) unless the director set one.

    Without pay on Day 1, only Day 2 players can finish in a place, so a table paying more
    places than ``day2_players`` is refused (409 ``paid_below_day2``) instead of leaving
    prizes nobody can win.
    """
    flights = tuple(flights)
    entries = event_entries(flights)
    pool = event_pool(flights, buy_in=buy_in, added=added, guarantee=guarantee)
    _count("day2_players", day2_players, "bad_players_left", MSG_BAD_PLAYERS_LEFT)
    if percentages is not None:
        table = tuple(percentages)
    elif entries:
        table = default_percentages(entries)
    else:
        table = (10_000,)
    prizes = payouts(pool=pool, percentages=table, rounding_unit=rounding_unit)
    paid = sum(1 for p in table if p > 0)
    if not pays_on_day1 and paid > day2_players:
        raise DomainError(
            "paid_below_day2",
            MSG_PAID_BELOW_DAY2.format(paid=paid, players=day2_players),
            fields={"paid": paid, "day2_players": day2_players},
            status=409,
        )
    return EventPayouts(entries, pool, table, prizes)


@dataclass(frozen=True, slots=True)
class EventPlaces:
    """Places in the event, best first (RULES 10.7), and the entries out on Day 1 that have
    none (every Day 1 bust, unless the event pays on Day 1)."""

    places: tuple[Place, ...]
    unplaced: tuple[int, ...]


def _check_hands(hands: Sequence[Sequence[Bust]], seen: set[int]) -> list[tuple[Bust, ...]]:
    out = []
    for hand in hands:
        busts = tuple(hand)
        for bust in busts:
            if not isinstance(bust, Bust) or not _is_int(bust.entry):
                raise DomainError("bad_bust", MSG_BAD_BUST, fields={"bust": repr(bust)})
            if bust.entry in seen:
                raise DomainError("busted_twice", MSG_BUSTED_TWICE, fields={"entry": bust.entry})
            seen.add(bust.entry)
        out.append(busts)
    return out


def event_places(
    *,
    day2_entries: Collection[int],
    day2: Sequence[Sequence[Bust]] = (),
    day1: Sequence[Sequence[Bust]] = (),
    pays_on_day1: bool = False,
) -> EventPlaces:
    """Places in the event (RULES 10.7, 7.1, 7.2).

    ``day2_entries`` are the entries that started Day 2 (the qualified bags); ``day2`` the busts
    of each Day 2 hand (or hand-for-hand round, RULES 7.3) in the order played; ``day1`` the
    busts of each Day 1 hand of every flight, in the order played over all flights. Places
    count from the bottom of the players placed: the Day 2 players, and with ``pays_on_day1``
    the Day 1 busts below them. Each hand's busts take the places just above the ones already
    out, the bigger starting stack higher, equal stacks tied (``places.assign_places``). The
    last Day 2 player left takes first place. Without ``pays_on_day1`` the Day 1 busts are
    listed as ``unplaced``. Forfeited bags are not passed: they never have a place.
    """
    starters = tuple(day2_entries)
    if not starters:
        raise DomainError("no_day2", MSG_NO_DAY2, status=409)
    if len(set(starters)) != len(starters):
        raise DomainError("duplicate_entry", MSG_DUPLICATE_ENTRY)
    on_day2 = set(starters)
    seen: set[int] = set()
    day1_hands = _check_hands(day1, seen)
    for hand in day1_hands:
        for bust in hand:
            if bust.entry in on_day2:
                raise DomainError(
                    "busted_on_day1_and_day2",
                    MSG_BUSTED_ON_DAY1_AND_DAY2,
                    fields={"entry": bust.entry},
                )
    day2_hands = _check_hands(day2, seen)
    for hand in day2_hands:
        for bust in hand:
            if bust.entry not in on_day2:
                raise DomainError("not_on_day2", MSG_NOT_ON_DAY2, fields={"entry": bust.entry})
    placed_day1 = day1_hands if pays_on_day1 else []
    still_in = len(on_day2) + sum(len(hand) for hand in placed_day1)
    places: list[Place] = []
    for hand in (*placed_day1, *day2_hands):
        places.extend(assign_places(players_before=still_in, busted=hand))
        still_in -= len(hand)
    out_on_day2 = {bust.entry for hand in day2_hands for bust in hand}
    left = on_day2 - out_on_day2
    if len(left) == 1:
        places.append(winner_place(left.pop()))
    places.sort(key=lambda p: (p.place, p.entry))
    unplaced = () if pays_on_day1 else tuple(sorted(b.entry for h in day1_hands for b in h))
    return EventPlaces(tuple(places), unplaced)


# --------------------------------------------------------------------------- RULES 10.8


def average_stack(*, chips_in_play: int, players: int) -> int:
    """The average stack (RULES 10.8): the exact chips in play over the players still in,
    to the nearest chip (a half chip rounds up)."""
    _count("chips_in_play", chips_in_play, "bad_chips_in_play", MSG_BAD_CHIPS_IN_PLAY)
    _count("players", players, "no_players", MSG_NO_PLAYERS, least=1)
    return (2 * chips_in_play + players) // (2 * players)


@dataclass(frozen=True, slots=True)
class ChipCounts:
    """Chip counts during play (RULES 10.8): each player's latest count, biggest first; the
    players still in without one; the average from the exact chips in play."""

    counts: tuple[Count, ...]
    not_counted: tuple[int, ...]
    players: int
    chips_in_play: int
    average: int


def chip_counts(
    records: Iterable[Count], *, players: Collection[int], chips_in_play: int
) -> ChipCounts:
    """The chip counts to show now (RULES 10.8).

    ``records`` are every count taken (several per entry over time); each entry still in
    (``players``) shows its latest (the largest ``at``; equal ``at``: the one recorded last).
    Counts of entries no longer in are left out (they busted since). The average is
    ``average_stack`` of ``chips_in_play``: counts are of some players, taken at different
    times, so their sum is not the chips in play.
    """
    still_in = set(players)
    latest: dict[int, Count] = {}
    for record in records:
        if not isinstance(record, Count) or not _is_int(record.at):
            raise DomainError("bad_count", MSG_BAD_COUNT, fields={"count": repr(record)})
        _check_counts((record,))
        if record.entry not in still_in:
            continue
        previous = latest.get(record.entry)
        if previous is None or record.at >= previous.at:
            latest[record.entry] = record
    counts = tuple(sorted(latest.values(), key=lambda c: (-c.chips, c.table, c.seat, c.entry)))
    not_counted = tuple(sorted(still_in - set(latest)))
    average = average_stack(chips_in_play=chips_in_play, players=len(still_in))
    return ChipCounts(counts, not_counted, len(still_in), chips_in_play, average)
