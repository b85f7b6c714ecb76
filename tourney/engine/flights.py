"""Multi-day events: the event's settings, when a Day 1 flight ends, which bags go to Day 2
and the Day 2 draw (RULES 10.1, 10.2, 10.3, 10.5).

Pure Python: no Django, and nothing of the seating engine either (the engines' import contract):
the Day 2 seat draw is the seating engine's ``tables.engine.draw``, which the caller hands in
(``day2_draw``). Chips are ``int`` chips.

An event with flights is several tournaments: the Day 1 flights, each with its own clock and
tables but one structure and one set of payouts, and a Day 2 (and later days) that plays on
with the stacks the flights bagged. A *bag* (``Bag``) is one entry's chips counted and bagged
at the end of a flight; flights are numbered in the order they are played (1 is the first
flight). The rest of RULES 10 builds on this module: the bag and tag counts and the chip counts
during play are in ``tourney.engine.bags`` (RULES 10.4, 10.8), the event's money and places in
``tourney.engine.event_money`` (RULES 10.6, 10.7).

How the rules are read here:

* RULES 10.1 (``EventSettings``): the event's own settings, the stack policy (10.3) and whether
  it pays places on Day 1 (10.7).
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
* RULES 10.5 (``day2_draw``): Day 2 seats every qualified stack at random, each player once,
  with exactly the chips bagged; the tables fill evenly (RULES 1.2, the seating engine's draw).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from tourney.engine.errors import N_, DomainError

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

MSG_NO_END = N_("A flight needs an end: its last level, a number of players, or both.")
MSG_BAD_LAST_LEVEL = N_("The last level of a flight must be a level of the structure (0 or more).")
MSG_BAD_END_PLAYERS = N_("A flight's number of players must be a whole number, 1 or more.")
MSG_BAD_PLAYERS_LEFT = N_("The number of players still in must be a whole number, zero or more.")
MSG_UNKNOWN_POLICY = N_("The stack policy must be one of: largest, first.")
MSG_BAD_BAG = N_(
    "A bag needs a player, a flight number of 1 or more, an entry, a count of at least one "
    "chip, and table and seat numbers of zero or more."
)
MSG_DUPLICATE_ENTRY = N_("The same entry is counted more than once.")
MSG_BAGGED_TWICE = N_("A player can bag only one stack in a flight.")
MSG_PLAYER_TWICE = N_("A player can take only one stack to Day 2.")
MSG_ALREADY_QUALIFIED_LARGEST = (
    "This player already has {chips} chips bagged for Day 2 (flight {flight}). They may play "
    "this flight too, but only their largest stack goes to Day 2: the other is forfeited."
)
MSG_ALREADY_QUALIFIED_FIRST = (
    "This player already has {chips} chips bagged for Day 2 (flight {flight}). Only that "
    "stack goes to Day 2: any chips they bag in this flight are forfeited."
)
MSG_DRAW_MISMATCH = N_("The seat draw must seat every Day 2 player exactly once, one to a seat.")
MSG_NO_DAY2 = N_("Day 2 needs at least one player who bagged chips.")


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


def check_bags(bags: Iterable[Bag]) -> tuple[Bag, ...]:
    """``bags`` as a tuple once each is a ``Bag`` of whole numbers: a flight of 1 or more, at
    least one chip, table and seat of zero or more (``bad_bag``); no entry bagged twice
    (``duplicate_entry``) and no player twice in one flight (``bagged_twice``)."""
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
    for bag in check_bags(bags):
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
    own = [bag for bag in check_bags(bags) if bag.player == player]
    if not own:
        return None
    kept = _kept(own, policy)
    template = MSG_ALREADY_QUALIFIED_LARGEST if policy == LARGEST else MSG_ALREADY_QUALIFIED_FIRST
    message = template.format(chips=f"{kept.chips:,}", flight=kept.flight)
    return EntryWarning("already_qualified", message, kept)


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
    bags = check_bags(qualified)
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


# --------------------------------------------------------------------------- RULES 10.5


def day2_start(kinds: Sequence[str], stops: Iterable[tuple[int, bool]], level: str) -> int:
    """The structure item Day 2's clock starts at (RULES 10.5): where Day 1 stopped. ``kinds``
    are the structure's item kinds in order (``level`` names the level kind); ``stops`` each
    flight's clock where it stopped, (item index, whether that item was played to its end).

    Reading (as card rooms resume a day): the furthest any flight reached; an item played to
    its end is followed by the next one, an item stopped during play (the field reached its
    number) is played again from its start; a break there is skipped to the level after it,
    and past the structure's end Day 2 plays its last level."""
    kinds = tuple(kinds)
    levels = [i for i, k in enumerate(kinds) if k == level]
    if not levels:
        raise DomainError("bad_structure", "The structure has no level.", status=400)
    start = max((i + 1 if done else i for i, done in stops), default=0)
    return next((i for i in levels if i >= start), levels[-1])
