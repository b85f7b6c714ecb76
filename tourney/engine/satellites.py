"""Satellites (RULES 12): the payout table of seats and leftover cash, the seats left, and
whether the satellite's deal may be made.

Pure Python: no Django. Money is an ``int`` in the smallest unit.

How the rules are read here:

* RULES 12.2: with prize pool P and seat value V, N = P // V seats go to places 1..N (no more
  seats than entries); the leftover P - N·V is cash to place N+1. With no seat (P < V) the
  whole pool is cash to place 1. If the pool buys a seat for every entry, the leftover goes
  with first place's seat as cash (there is no place N+1).
* RULES 12.4: the seats left are the seats less those already won; the deal (RULES 12.8) is
  offered when the players left equal the seats left.
"""

from __future__ import annotations

from dataclasses import dataclass

from tourney.engine.errors import N_, DomainError

MSG_BAD_POOL = N_("The prize pool must be a whole amount, zero or more.")
MSG_BAD_SEAT_VALUE = N_("The seat value must be a whole amount greater than zero.")
MSG_BAD_ENTRIES = N_("The number of entries must be a whole number, zero or more.")
MSG_DEAL_COUNTS = (
    "The satellite's deal needs as many players left as seats left: {players} players "
    "left, {seats} seats left."
)


@dataclass(frozen=True, slots=True)
class SatellitePayout:
    """A satellite's payouts (RULES 12.2): ``seats`` of ``seat_value`` to places 1..seats,
    ``cash`` to ``cash_place`` (0 when there is no cash)."""

    pool: int
    seat_value: int
    seats: int
    cash: int
    cash_place: int

    def prizes(self) -> tuple[int, ...]:
        """Prize per place, first place first: a seat place's prize is the seat's value."""
        out = [self.seat_value] * self.seats
        if self.cash:
            if self.cash_place > len(out):
                out.append(self.cash)
            else:
                out[self.cash_place - 1] += self.cash
        return tuple(out)

    def is_seat(self, place: int) -> bool:
        return 1 <= place <= self.seats


def _whole(value: object, minimum: int) -> bool:
    return type(value) is int and value >= minimum


def satellite_payout(*, pool: int, seat_value: int, entries: int) -> SatellitePayout:
    """RULES 12.2: the seats and the leftover cash of a satellite's pool."""
    if not _whole(pool, 0):
        raise DomainError("bad_pool", MSG_BAD_POOL, fields={"pool": MSG_BAD_POOL})
    if not _whole(seat_value, 1):
        raise DomainError(
            "bad_seat_value", MSG_BAD_SEAT_VALUE, fields={"seat_value": MSG_BAD_SEAT_VALUE}
        )
    if not _whole(entries, 0):
        raise DomainError("bad_input", MSG_BAD_ENTRIES, fields={"entries": MSG_BAD_ENTRIES})
    seats = min(pool // seat_value, entries)
    cash = pool - seats * seat_value
    if not cash:
        cash_place = 0
    elif seats < entries or seats == 0:
        cash_place = seats + 1
    else:
        cash_place = 1  # every entry has a seat: the leftover rides with first place
    return SatellitePayout(
        pool=pool, seat_value=seat_value, seats=seats, cash=cash, cash_place=cash_place
    )


def seats_left(*, seats: int, won: int) -> int:
    """RULES 12.4: the seats not yet won."""
    return max(0, seats - won)


def deal_check(*, players_left: int, seats: int, won: int) -> int:
    """RULES 12.8: the satellite's deal is allowed when the players left equal the seats
    left (at least one); returns that number, else refuses with the counts."""
    left = seats_left(seats=seats, won=won)
    if players_left < 1 or players_left != left:
        raise DomainError(
            "deal_counts",
            MSG_DEAL_COUNTS.format(players=players_left, seats=left),
            status=409,
            fields={"players_left": players_left, "seats_left": left},
        )
    return left
