"""The money and the places of a multi-day event as a whole (RULES 10.6, 10.7).

Pure Python, like every engine. Money is an ``int`` in the currency's smallest unit. The pool
and the payout table are those of the prize-pool engine (``tourney.engine.payouts``, RULES 8.1,
8.2) over every flight together; the places are those of the places engine
(``tourney.engine.places``, RULES 7.1, 7.2) over the Day 2 field and, when the event pays on
Day 1, the Day 1 busts below it.

How the rules are read here:

* RULES 10.6 (``event_pool``, ``event_payouts``): the pool is that of every entry of every
  flight (re-entries and forfeited stacks included), with the event's added money and
  guarantee once; the payout table is chosen by that whole field. Without pay on Day 1, a
  table paying more places than there are Day 2 players is refused.
* RULES 10.7 (``event_places``): places in a flight are no places in the event. Day 2 busts
  take places from the bottom of the players who reached Day 2; players out on Day 1 have
  none unless the event pays on Day 1, and then they are placed below every Day 2 player in
  the order the hands were played over all flights, as the early busts of one tournament with
  late registration (RULES 7.6). A forfeited bag never has a place (its player goes on with
  another stack).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from tourney.engine.errors import DomainError
from tourney.engine.flights import MSG_BAD_PLAYERS_LEFT, MSG_DUPLICATE_ENTRY, MSG_NO_DAY2
from tourney.engine.payouts import default_percentages, payouts, prize_pool
from tourney.engine.places import Bust, Place, assign_places, winner_place

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
