"""Plain data of the seating engine (RULES 1-3): tables, moves and seating settings.

Pure Python: nothing here imports Django. Every value is immutable; the engines build new
``Table`` values instead of changing old ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from tourney.engine.errors import N_, DomainError

REASONS: Final = frozenset({"seat", "balance", "break", "redraw", "manual"})

MSG_BAD_TABLE_NUMBER = N_("A table number must be a positive whole number.")
MSG_BAD_SEAT_COUNT = N_("A table must have at least two seats.")
MSG_BAD_SEAT = N_("A seat number must lie between 1 and the number of seats at the table.")
MSG_SEAT_UNAVAILABLE = N_("A player cannot sit in a seat marked unavailable.")
MSG_ENTRY_TWICE = N_("An entry cannot hold two seats.")
MSG_WAITING_NOT_SEATED = N_("Only a seated entry can wait for the button.")
MSG_BAD_BUTTON = N_("The button must be on a seat of the table.")
MSG_BAD_REASON = N_("A move's reason must be one of: seat, balance, break, redraw, manual.")
MSG_BAD_TOLERANCE = N_("The balancing tolerance must be at least one player.")
MSG_BAD_STARTED_TABLES = N_("The number of tables the event started with cannot be negative.")
MSG_BAD_PICTURE = N_("A table picture has one token per seat: '.', 'x', an entry id, 'w', 'B'.")
MSG_SEAT_TAKEN = N_("That seat is already taken.")
MSG_SEAT_EMPTY = N_("No player sits in that seat.")


def _invalid(code: str, message: str, **fields: object) -> DomainError:
    return DomainError(code, message, fields=dict(fields), status=400)


@dataclass(frozen=True, slots=True)
class Table:
    """One table: seats ``1..seats`` clockwise (RULES vocabulary).

    ``occupants`` maps seat -> entry id. ``waiting`` holds entry ids that sit but wait for the
    button (RULES 1.3). ``unavailable`` seats are never used (RULES 1.4). ``button_seat`` is
    where the button is for the next hand (RULES 2.1); ``None`` means play has not started
    at the table. Tables are not hashable (``occupants`` is a mapping).
    """

    number: int
    seats: int
    occupants: Mapping[int, int]
    waiting: frozenset[int] = frozenset()
    unavailable: frozenset[int] = frozenset()
    button_seat: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.number, int) or self.number < 1:
            raise _invalid("invalid_table", MSG_BAD_TABLE_NUMBER, number=self.number)
        if not isinstance(self.seats, int) or self.seats < 2:
            raise _invalid("invalid_table", MSG_BAD_SEAT_COUNT, seats=self.seats)
        occupants = dict(self.occupants)
        unavailable = frozenset(self.unavailable)
        waiting = frozenset(self.waiting)
        for seat in unavailable:
            self._check_seat(seat)
        for seat in occupants:
            self._check_seat(seat)
            if seat in unavailable:
                raise _invalid("invalid_table", MSG_SEAT_UNAVAILABLE, table=self.number, seat=seat)
        if len(set(occupants.values())) != len(occupants):
            raise _invalid("invalid_table", MSG_ENTRY_TWICE, table=self.number)
        if not waiting <= set(occupants.values()):
            raise _invalid("invalid_table", MSG_WAITING_NOT_SEATED, table=self.number)
        if self.button_seat is not None and not (
            isinstance(self.button_seat, int) and 1 <= self.button_seat <= self.seats
        ):
            raise _invalid("invalid_table", MSG_BAD_BUTTON, table=self.number)
        object.__setattr__(self, "occupants", MappingProxyType(occupants))
        object.__setattr__(self, "waiting", waiting)
        object.__setattr__(self, "unavailable", unavailable)

    def _check_seat(self, seat: object) -> None:
        if not isinstance(seat, int) or not 1 <= seat <= self.seats:
            raise _invalid("invalid_table", MSG_BAD_SEAT, table=self.number, seat=seat)

    @property
    def players(self) -> int:
        """Number of seated players (waiting ones included)."""
        return len(self.occupants)

    @property
    def capacity(self) -> int:
        """Number of available seats (RULES 1.4)."""
        return self.seats - len(self.unavailable)

    def open_seats(self) -> tuple[int, ...]:
        """Empty, available seats in seat order."""
        occupied = self.occupants
        unavailable = self.unavailable
        return tuple(
            s for s in range(1, self.seats + 1) if s not in occupied and s not in unavailable
        )

    def is_open(self, seat: int) -> bool:
        """True when ``seat`` is empty and available."""
        return (
            1 <= seat <= self.seats and seat not in self.occupants and seat not in self.unavailable
        )

    def dealt_in_seats(self) -> tuple[int, ...]:
        """Occupied seats whose player is dealt in (not waiting, RULES 1.3), in seat order."""
        waiting = self.waiting
        return tuple(sorted(s for s, e in self.occupants.items() if e not in waiting))

    def seat_of(self, entry: int) -> int | None:
        """The seat of ``entry`` at this table, or None."""
        for seat, occupant in self.occupants.items():
            if occupant == entry:
                return seat
        return None

    def clockwise_after(self, seat: int) -> Iterator[int]:
        """Seats clockwise after ``seat``: seat+1, seat+2, ... wrapping, ending with ``seat``."""
        n = self.seats
        for step in range(1, n + 1):
            yield (seat - 1 + step) % n + 1

    def with_player(self, seat: int, entry: int, *, waits: bool = False) -> Table:
        """A copy with ``entry`` seated at the empty available ``seat``."""
        if not self.is_open(seat):
            raise DomainError("seat_taken", MSG_SEAT_TAKEN, fields={"seat": seat}, status=409)
        if entry in self.occupants.values():
            raise _invalid("invalid_table", MSG_ENTRY_TWICE, table=self.number, entry=entry)
        occupants = dict(self.occupants)
        occupants[seat] = entry
        waiting = self.waiting | {entry} if waits else self.waiting
        return self._copy(occupants, waiting, self.button_seat)

    def without_seat(self, seat: int) -> Table:
        """A copy with the player of ``seat`` gone (the button stays where it is)."""
        if seat not in self.occupants:
            raise DomainError("seat_empty", MSG_SEAT_EMPTY, fields={"seat": seat}, status=409)
        occupants = dict(self.occupants)
        entry = occupants.pop(seat)
        waiting = self.waiting - {entry} if entry in self.waiting else self.waiting
        return self._copy(occupants, waiting, self.button_seat)

    def with_button(self, seat: int | None) -> Table:
        """A copy with the button at ``seat`` (waiting players are left as they are)."""
        if seat is not None and not (isinstance(seat, int) and 1 <= seat <= self.seats):
            raise _invalid("invalid_table", MSG_BAD_BUTTON, table=self.number)
        return self._copy(dict(self.occupants), self.waiting, seat)

    def _copy(
        self, occupants: dict[int, int], waiting: frozenset[int], button: int | None
    ) -> Table:
        # The engines call these copies in their inner loops; the change made was checked by
        # the caller, so the full validation of __post_init__ is skipped (a fresh dict is owned).
        table = object.__new__(Table)
        for name, value in (
            ("number", self.number),
            ("seats", self.seats),
            ("occupants", MappingProxyType(occupants)),
            ("waiting", waiting),
            ("unavailable", self.unavailable),
            ("button_seat", button),
        ):
            object.__setattr__(table, name, value)
        return table

    def picture(self) -> str:
        """The table as a picture that ``parse_table`` reads back (handy in test failures)."""
        tokens = []
        for seat in range(1, self.seats + 1):
            entry = self.occupants.get(seat)
            if seat in self.unavailable:
                token = "x"
            elif entry is None:
                token = "."
            else:
                token = f"{entry}w" if entry in self.waiting else str(entry)
            tokens.append(("B" if seat == self.button_seat else "") + token)
        return " ".join(tokens)


@dataclass(frozen=True, slots=True)
class Move:
    """One player's change of seat (RULES 3.8). ``from_*`` is None for a first seating."""

    entry: int
    from_table: int | None
    from_seat: int | None
    to_table: int
    to_seat: int
    reason: str
    waits_for_button: bool

    def __post_init__(self) -> None:
        if self.reason not in REASONS:
            raise _invalid("invalid_move", MSG_BAD_REASON, reason=self.reason)


@dataclass(frozen=True, slots=True)
class SeatingSettings:
    """Tournament settings of RULES 3.1 and 3.7.

    ``tolerance`` None = automatic (RULES 3.1: two players with more than six open tables, one
    with six or fewer). ``started_tables`` = the most tables the event ever had open; the
    redraw at three tables needs six or more (RULES 3.7).
    """

    tolerance: int | None = None
    redraw_at_three: bool = True
    redraw_at_two: bool = True
    redraw_at_one: bool = True
    started_tables: int = 0

    def __post_init__(self) -> None:
        # A tolerance of 0 could never be met with an odd spread of players.
        if self.tolerance is not None and (
            not isinstance(self.tolerance, int) or self.tolerance < 1
        ):
            raise _invalid("invalid_settings", MSG_BAD_TOLERANCE, tolerance=self.tolerance)
        if not isinstance(self.started_tables, int) or self.started_tables < 0:
            raise _invalid(
                "invalid_settings", MSG_BAD_STARTED_TABLES, started_tables=self.started_tables
            )


def parse_table(picture: str, number: int = 1) -> Table:
    """Read a table from a picture, one token per seat, seat 1 first.

    Tokens: ``.`` empty seat, ``x`` unavailable seat, ``12`` entry 12 dealt in, ``12w`` entry 12
    waiting for the button; a leading ``B`` marks the button seat (``B12``, ``B.`` or ``B``). A
    token may carry its seat number first (``3:12``), which must match its position. Example:
    ``parse_table("B1 2 3 . x 6")``.
    """
    occupants: dict[int, int] = {}
    waiting: set[int] = set()
    unavailable: set[int] = set()
    button: int | None = None
    tokens = picture.split()
    for position, raw in enumerate(tokens, start=1):
        token = raw
        if ":" in token:
            label, token = token.split(":", 1)
            if not label.isdigit() or int(label) != position:
                raise _invalid("invalid_picture", MSG_BAD_PICTURE, token=raw)
        if token.startswith("B"):
            if button is not None:
                raise _invalid("invalid_picture", MSG_BAD_PICTURE, token=raw)
            button = position
            token = token[1:]
        if token in (".", ""):  # a bare "B" is an empty button seat
            continue
        if token == "x":
            unavailable.add(position)
            continue
        waits = token.endswith("w")
        digits = token[:-1] if waits else token
        if not digits.isdigit():
            raise _invalid("invalid_picture", MSG_BAD_PICTURE, token=raw)
        occupants[position] = int(digits)
        if waits:
            waiting.add(int(digits))
    return Table(number, len(tokens), occupants, frozenset(waiting), frozenset(unavailable), button)


def entries_of(tables: Iterable[Table]) -> dict[int, tuple[int, int]]:
    """Entry id -> (table, seat) over ``tables``; raises if an entry sits twice."""
    where: dict[int, tuple[int, int]] = {}
    for table in tables:
        for seat, entry in table.occupants.items():
            if entry in where:
                raise _invalid("invalid_table", MSG_ENTRY_TWICE, entry=entry)
            where[entry] = (table.number, seat)
    return where
