"""Color-up and the odd-chip race (RULES 5).

Pure Python: stacks are plain ``{denomination: count}`` dicts, the shuffle comes from a
``random.Random`` passed in (or the dealt cards are given, RULES 5.8).

How the rules are read:

* RULES 5.2: ``U`` is the next larger denomination in ``denominations``; ``U`` must be a whole
  multiple of the removed one (400 ``bad_denominations`` otherwise), so the direct change-up
  is ``n // (U / d)`` chips of ``U`` and the odd chips are ``n % (U / d)``.
* RULES 5.3: the deck is the 52 cards in id order (2c, 2d, 2h, 2s, 3c ... As), shuffled once
  with ``rng.shuffle``; cards go from the top, seat ascending ("seat 1 and clockwise"), each
  player receiving all of their cards before the next.
* RULES 5.5 / 5.6: ``T // U`` chips go to the best-ranked players, one each (each player's odd
  value is below ``U``, so there are always enough players); the leftover is the table's,
  compared with ``U / 2`` by the threshold setting.
* RULES 5.7: protected is a player whose whole stack before the color-up was odd chips of the
  removed denomination (no other chip at all, none changed up directly) and who won nothing.
* RULES 5.2 (several at once): ``color_up_many`` races the smallest first, each into the next
  larger denomination still in play, feeding one race's stacks into the next.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tourney.engine.cards import DECK, card_order_key, ensure_distinct, parse_card
from tourney.engine.errors import N_, DomainError

THRESHOLDS = ("half_or_more", "more_than_half")

MSG_BAD_DENOMINATIONS = N_("Denominations are distinct whole numbers of at least 1.")
MSG_UNKNOWN_REMOVE = N_("The denomination to remove is not one of the denominations.")
MSG_REMOVE_LAST = N_(
    "The largest denomination cannot be raced off; there is nothing to color up to."
)
MSG_NOT_MULTIPLE = N_("The next larger denomination must be a whole multiple of the one removed.")
MSG_BAD_THRESHOLD = N_("The threshold is half_or_more or more_than_half.")
MSG_BAD_SEAT = N_("Seat numbers are whole numbers from 1.")
MSG_DUPLICATE_SEAT = N_("Each seat may appear only once.")
MSG_BAD_CHIPS = N_("Chip counts are whole numbers, zero or more, of known denominations.")
MSG_RACE_TOO_BIG = N_("The race needs more than 52 cards.")
MSG_NO_DEAL = N_(
    "Give either a random source to deal with or the cards the dealer dealt, not both."
)
MSG_CARDS_COUNT = N_("Each seat needs exactly one card per odd chip.")
MSG_CARDS_UNKNOWN_SEAT = N_("Cards were given for a seat that is not in the race.")
MSG_DUPLICATE_REMOVE = N_("Each denomination can be removed only once.")


@dataclass(frozen=True, slots=True)
class RacePlayer:
    """A seat and its stack, ``{denomination: count}``."""

    seat: int
    chips: dict[int, int]


@dataclass(frozen=True, slots=True)
class RaceOutcome:
    """One seat after the color-up. ``chips`` omits the removed denomination and zero counts."""

    seat: int
    odd_chips: int
    cards: tuple[str, ...]
    won: int
    protected: bool
    chips: dict[int, int]


@dataclass(frozen=True, slots=True)
class RaceResult:
    """One race. value after - value before == ``value_added - value_removed`` (RULES 5.9)."""

    remove: int
    unit: int
    awarded: int
    value_removed: int
    value_added: int
    players: tuple[RaceOutcome, ...]


def _error(code: str, message: str, **fields: object) -> DomainError:
    return DomainError(code, message, fields=dict(fields), status=400)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def stack_value(chips: Mapping[int, int]) -> int:
    """Total chip value of a stack."""
    return sum(d * n for d, n in chips.items())


def _check_denominations(denominations: Sequence[int]) -> tuple[int, ...]:
    denoms = tuple(denominations)
    if not denoms or any(not _is_int(d) or d < 1 for d in denoms) or len(set(denoms)) < len(denoms):
        raise _error("bad_denominations", MSG_BAD_DENOMINATIONS)
    return tuple(sorted(denoms))


def _check_threshold(threshold: str) -> None:
    if threshold not in THRESHOLDS:
        raise _error("bad_threshold", MSG_BAD_THRESHOLD, threshold=threshold)


def _check_players(players: Sequence[RacePlayer], denoms: tuple[int, ...]) -> list[RacePlayer]:
    seen: set[int] = set()
    for p in players:
        if not _is_int(p.seat) or p.seat < 1:
            raise _error("bad_seat", MSG_BAD_SEAT, seat=p.seat)
        if p.seat in seen:
            raise _error("duplicate_seat", MSG_DUPLICATE_SEAT, seat=p.seat)
        seen.add(p.seat)
        for d, n in p.chips.items():
            if d not in denoms or not _is_int(n) or n < 0:
                raise _error("bad_chips", MSG_BAD_CHIPS, seat=p.seat, denomination=d)
    return sorted(players, key=lambda p: p.seat)


def _unit_for(remove: int, denoms: tuple[int, ...]) -> int:
    if remove not in denoms:
        raise _error("unknown_denomination", MSG_UNKNOWN_REMOVE, remove=remove)
    index = denoms.index(remove)
    if index == len(denoms) - 1:
        raise _error("remove_last_denomination", MSG_REMOVE_LAST, remove=remove)
    unit = denoms[index + 1]
    if unit % remove:
        raise _error("bad_denominations", MSG_NOT_MULTIPLE, remove=remove, unit=unit)
    return unit


def _deal(
    odd: dict[int, int],
    rng: random.Random | None,
    cards: Mapping[int, Sequence[str]] | None,
) -> dict[int, tuple[str, ...]]:
    """The race cards per seat: RULES 5.3 (a simulated deal) or 5.8 (the dealer's cards)."""
    needed = sum(odd.values())
    if needed > len(DECK):
        raise _error("race_too_big", MSG_RACE_TOO_BIG, cards_needed=needed)
    if rng is not None and cards is not None:
        raise _error("no_deal", MSG_NO_DEAL)
    if cards is not None:
        for seat in cards:
            if seat not in odd:
                raise _error("cards_unknown_seat", MSG_CARDS_UNKNOWN_SEAT, seat=seat)
        dealt = {}
        for seat, count in odd.items():
            given = tuple(parse_card(c) for c in cards.get(seat, ()))
            if len(given) != count:
                raise _error(
                    "cards_count",
                    MSG_CARDS_COUNT,
                    seat=seat,
                    odd_chips=count,
                    cards=len(given),
                )
            dealt[seat] = given
        ensure_distinct(c for hand in dealt.values() for c in hand)
        return dealt
    if needed == 0:
        return {seat: () for seat in odd}
    if rng is None:
        raise _error("no_deal", MSG_NO_DEAL)
    deck = list(DECK)
    rng.shuffle(deck)
    dealt = {}
    top = 0
    for seat in sorted(odd):  # RULES 5.3: seat 1 first, each player's cards together
        dealt[seat] = tuple(deck[top : top + odd[seat]])
        top += odd[seat]
    return dealt


def color_up(
    *,
    denominations: Sequence[int],
    remove: int,
    players: Sequence[RacePlayer],
    threshold: str = "half_or_more",
    rng: random.Random | None = None,
    cards: Mapping[int, Sequence[str]] | None = None,
) -> RaceResult:
    """Color up one denomination with the odd-chip race (RULES 5.2 to 5.8).

    Give ``rng`` to deal from a shuffled deck (5.3) or ``cards`` with what the dealer dealt
    (5.8), one card per odd chip, for every seat that has odd chips. Players come back in seat
    order. Raises DomainError (400) for an unknown or last denomination, a unit that is not a
    multiple of the removed chip, a bad threshold, bad stacks or seats, bad or duplicate cards,
    a wrong number of cards, more than 52 cards (``race_too_big``), or neither/both deals.
    """
    denoms = _check_denominations(denominations)
    _check_threshold(threshold)
    unit = _unit_for(remove, denoms)
    ordered = _check_players(players, denoms)
    per_unit = unit // remove

    direct: dict[int, int] = {}
    odd: dict[int, int] = {}
    for p in ordered:
        direct[p.seat], odd[p.seat] = divmod(p.chips.get(remove, 0), per_unit)
    dealt = _deal(odd, rng, cards)

    # RULES 5.4 / 5.5: rank by best card; floor(T / U) chips, one per player.
    racers = sorted(
        (s for s in dealt if dealt[s]),
        key=lambda s: max(card_order_key(c) for c in dealt[s]),
        reverse=True,
    )
    total = sum(odd.values()) * remove
    chips_won, leftover = divmod(total, unit)
    # RULES 5.6: the table's leftover against half of U (doubled to stay in integers).
    extra = leftover > 0 and (
        2 * leftover >= unit if threshold == "half_or_more" else 2 * leftover > unit
    )
    winners = set(racers[: chips_won + (1 if extra else 0)])

    outcomes: list[RaceOutcome] = []
    protected_count = 0
    for p in ordered:
        won = 1 if p.seat in winners else 0
        # RULES 5.7: the whole stack was odd chips and nothing was won.
        only_odd = (
            odd[p.seat] > 0
            and direct[p.seat] == 0
            and all(n == 0 for d, n in p.chips.items() if d != remove)
        )
        protected = only_odd and not won
        protected_count += int(protected)
        after = {d: n for d, n in p.chips.items() if d != remove}
        after[unit] = after.get(unit, 0) + direct[p.seat] + won + (1 if protected else 0)
        outcomes.append(
            RaceOutcome(
                seat=p.seat,
                odd_chips=odd[p.seat],
                cards=dealt[p.seat],
                won=won,
                protected=protected,
                chips={d: after[d] for d in sorted(after) if after[d]},
            )
        )
    return RaceResult(
        remove=remove,
        unit=unit,
        awarded=len(winners),
        value_removed=0 if extra else leftover,
        value_added=(unit - leftover if extra else 0) + unit * protected_count,
        players=tuple(outcomes),
    )


def color_up_many(
    *,
    denominations: Sequence[int],
    remove: Sequence[int],
    players: Sequence[RacePlayer],
    threshold: str = "half_or_more",
    rng: random.Random | None = None,
) -> tuple[RaceResult, ...]:
    """Remove several denominations at one break (RULES 5.2): smallest first, each raced into
    the next larger denomination still in play; each race starts from the previous one's
    stacks. All races deal from the same ``rng`` in turn. Returns one result per race."""
    denoms = _check_denominations(denominations)
    _check_threshold(threshold)
    removing = tuple(remove)
    if len(set(removing)) < len(removing):
        raise _error("duplicate_remove", MSG_DUPLICATE_REMOVE)
    for d in removing:
        if d not in denoms:
            raise _error("unknown_denomination", MSG_UNKNOWN_REMOVE, remove=d)
    in_play = list(denoms)
    stacks = _check_players(players, denoms)
    results: list[RaceResult] = []
    for d in sorted(removing):
        result = color_up(
            denominations=in_play,
            remove=d,
            players=stacks,
            threshold=threshold,
            rng=rng,
        )
        results.append(result)
        in_play.remove(d)
        stacks = [RacePlayer(seat=o.seat, chips=o.chips) for o in result.players]
    return tuple(results)


def race_to_dict(result: RaceResult) -> dict[str, Any]:
    """One race as plain JSON data (the floor tool's answer, on the API and on the dashboard):
    chip keys as strings, stacks in denomination order."""
    return {
        "remove": result.remove,
        "unit": result.unit,
        "awarded": result.awarded,
        "value_removed": result.value_removed,
        "value_added": result.value_added,
        "players": [
            {
                "seat": o.seat,
                "odd_chips": o.odd_chips,
                "cards": list(o.cards),
                "won": o.won,
                "protected": o.protected,
                "chips": {str(k): v for k, v in sorted(o.chips.items())},
            }
            for o in result.players
        ],
    }
