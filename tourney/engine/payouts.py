"""Prize money: pool, payout tables, prizes per place, chip chop and deal checks (RULES 7.2, 8).

Pure Python: no Django. Money is an ``int`` in the currency's smallest unit (cents); payout
tables are basis points (1/100 of a percent), summing to exactly 10000.

How the rules are read here:

* RULES 8.1: ``rebuys`` and ``addons`` are the money amounts they put in the pool (fees and
  rake already excluded by the caller), not counts; re-entries are entries.
* RULES 8.2: each place gets ``floor(pool * bp / 10000)`` rounded down to the rounding unit;
  everything left (including any part of the pool that is not a multiple of the unit) goes to
  first place.
* RULES 7.2: tied players share the sum of the prizes of the places they cover; places past
  the paid ones are worth 0, so a tie across the bubble splits the last paid prize with the
  zero below it. Splits are in the smallest currency unit (1), odd units one each to the tied
  players by table number, then seat number (then entry id, so the order is total).
* RULES 8.3: a deal must hand out exactly the unpaid prize money to exactly the remaining
  players; ``chip_chop`` and ``round_to_total`` give integer amounts that do.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from tourney.engine.errors import N_, DomainError
from tourney.engine.icm import icm_equities

BASIS_POINTS = 10_000

MSG_BAD_AMOUNT = N_("Money amounts and counts must be whole numbers, zero or more.")
MSG_BAD_FIELD_SIZE = N_("The field size must be a whole number of at least one entry.")
MSG_BAD_POOL = N_("The prize pool must be a whole amount, zero or more.")
MSG_BAD_PERCENTAGES = N_(
    "A payout table needs at least one place; its shares must be whole basis points, zero "
    "or more, adding up to exactly 10000 (100 %)."
)
MSG_BAD_ROUNDING_UNIT = N_("The rounding unit must be a whole amount of at least 1.")
MSG_BAD_PRIZES = N_("Prizes must be whole amounts, zero or more.")
MSG_BAD_FINISHER = N_(
    "A finisher needs an entry id, a place of at least 1, a place_to no better than the "
    "place, and table and seat numbers of zero or more."
)
MSG_DUPLICATE_ENTRY = N_("The same entry is listed more than once.")
MSG_INCONSISTENT_TIE = N_(
    "Tied places do not add up: players sharing places must cover exactly those places, once."
)
MSG_BAD_STACKS = N_("Stacks must be whole numbers of chips greater than zero, at least one player.")
MSG_TOO_MANY_PRIZES = N_("There are more prizes left than players left.")
MSG_BAD_VALUES = N_("Shares must be finite numbers, zero or more, and not all zero.")
MSG_TOTAL_NOT_MULTIPLE = N_("The total must be a whole multiple of the rounding unit.")
MSG_DEAL_WRONG_PLAYERS = N_("A deal needs exactly one amount for each remaining player.")
MSG_DEAL_DOES_NOT_ADD_UP = N_(
    "The deal amounts must be whole amounts, zero or more, adding up exactly to the prize "
    "money not yet paid."
)


@dataclass(frozen=True, slots=True)
class Result:
    """One row of the results (API GET .../results): a finisher and their prize."""

    entry: int
    place: int
    place_to: int
    prize: int


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_amount(name: str, value: object) -> None:
    if not _is_int(value) or value < 0:  # type: ignore[operator]
        raise DomainError("bad_amount", MSG_BAD_AMOUNT, fields={name: value})


# --------------------------------------------------------------------------- RULES 8.1


def prize_pool(
    *,
    entries: int,
    buy_in: int,
    rebuys: int = 0,
    addons: int = 0,
    added: int = 0,
    guarantee: int = 0,
) -> int:
    """The prize pool (RULES 8.1).

    ``entries * buy_in + rebuys + addons + added``, raised to ``guarantee``. ``entries``
    counts every entry, re-entries included; ``buy_in`` is the prize-pool part of a buy-in
    (fee excluded); ``rebuys`` and ``addons`` are total money amounts (fees excluded).
    The overlay, if any, is ``result - (the sum)``.
    """
    for name, value in (
        ("entries", entries),
        ("buy_in", buy_in),
        ("rebuys", rebuys),
        ("addons", addons),
        ("added", added),
        ("guarantee", guarantee),
    ):
        _check_amount(name, value)
    return max(entries * buy_in + rebuys + addons + added, guarantee)


# --------------------------------------------------------------------------- RULES 8.2

# Shape of the default curve (RULES 8.2 "a payout table chosen by the field size").
_PERCENT_PAID = 15  # about the top 15 % paid in fields of 27 entries and more
_MAX_PAID = 2_000  # basis points cannot resolve more places (each must get >= 1 bp)
_MIN_CASH_BUY_INS = 1.5  # the last paid place gets about 1.5 buy-ins or more
_FIRST_SHARE_SMALL = 0.42  # first place's share with 4 places paid ...
_FIRST_SHARE_LARGE = 0.25  # ... falling to a quarter from 32 places paid on
_FIRST_SHARE_LARGE_FROM = 32
_SHIFT = 4.0  # Zipf-Mandelbrot shift: first/second about 1.6-1.75 instead of 2+

_SMALL_TABLES: tuple[tuple[int, tuple[int, ...]], ...] = (
    (3, (10_000,)),  # 1-3 entries: winner takes all
    (7, (6_500, 3_500)),  # 4-7
    (15, (5_000, 3_000, 2_000)),  # 8-15
)


def paid_places(field_size: int) -> int:
    """How many places the default table pays for ``field_size`` entries (RULES 8.2)."""
    if not _is_int(field_size) or field_size < 1:
        raise DomainError("bad_field_size", MSG_BAD_FIELD_SIZE, fields={"field_size": field_size})
    for up_to, table in _SMALL_TABLES:
        if field_size <= up_to:
            return len(table)
    return min(_MAX_PAID, max(4, field_size * _PERCENT_PAID // 100))


def _largest_remainder(quotas: Sequence[float], units: int) -> list[int]:
    """Integers summing to ``units``, each the floor of its quota or one more.

    Extra units go to the largest fractional parts; ties to the earlier index, so a
    non-increasing list of quotas stays non-increasing.
    """
    floors = [math.floor(q) for q in quotas]
    left = units - sum(floors)
    order = sorted(range(len(quotas)), key=lambda i: (-(quotas[i] - floors[i]), i))
    for i in order[:left]:
        floors[i] += 1
    return floors


@lru_cache(maxsize=4096, typed=True)  # typed: True and 12.0 must not hit 1 and 12
def default_percentages(field_size: int) -> tuple[int, ...]:
    """The default payout table for ``field_size`` entries, in basis points (RULES 8.2).

    1-3 entries: winner takes all; 4-7: 65/35; 8-15: 50/30/20; then 4 places up to 26
    entries and ``floor(15 %)`` of the field from 27 on (at most 2000 places, the most basis
    points can resolve). From 4 places on, each place gets a floor of about 1.5 buy-ins
    (1.5 / field_size of the pool) plus a share of the rest on a Zipf-Mandelbrot curve
    ``1 / (place + 4) ** a``, with ``a`` solved so first place gets 42 % with 4 places paid,
    falling with the logarithm of the places paid to 25 % from 32 places paid on.
    Strictly positive, non-increasing, sums to exactly 10000.
    """
    places = paid_places(field_size)
    for up_to, table in _SMALL_TABLES:
        if field_size <= up_to:
            return table
    # Floor per paid place; for the largest fields held at what 2000 places can resolve.
    min_cash = _MIN_CASH_BUY_INS / min(field_size, _MAX_PAID * 100 // _PERCENT_PAID)
    span = math.log(_FIRST_SHARE_LARGE_FROM / 4)
    t = min(1.0, max(0.0, math.log(_FIRST_SHARE_LARGE_FROM / places) / span))
    first_share = _FIRST_SHARE_LARGE + (_FIRST_SHARE_SMALL - _FIRST_SHARE_LARGE) * t
    # The part of first place's share that must come from the curve.
    target = (first_share - min_cash) / (1.0 - places * min_cash)
    exponent = _solve_exponent(places, target)
    weights = [(i + _SHIFT) ** -exponent for i in range(1, places + 1)]
    total_weight = math.fsum(weights)
    curve = 1.0 - places * min_cash
    # Floats are safe here: the quotas are monotone in the weights, so the table stays
    # non-increasing, and the integer largest-remainder step makes the sum exact.
    quotas = [(min_cash + curve * (w / total_weight)) * BASIS_POINTS for w in weights]
    return tuple(_largest_remainder(quotas, BASIS_POINTS))


def _solve_exponent(places: int, target_first: float) -> float:
    """Exponent ``a`` >= 0 giving the first of ``places`` weights ``target_first`` share."""

    def first_share(a: float) -> float:
        weights = [(i + _SHIFT) ** -a for i in range(1, places + 1)]
        return weights[0] / math.fsum(weights)

    if target_first <= 1.0 / places:
        return 0.0
    lo, hi = 0.0, 1.0
    while first_share(hi) < target_first and hi < 64.0:
        hi *= 2.0
    for _ in range(40):
        mid = (lo + hi) / 2.0
        if first_share(mid) < target_first:
            lo = mid
        else:
            hi = mid
    return hi


def _check_rounding_unit(unit: object) -> None:
    if not _is_int(unit) or unit < 1:  # type: ignore[operator]
        raise DomainError("bad_rounding_unit", MSG_BAD_ROUNDING_UNIT, fields={"unit": unit})


def _check_percentages(percentages: Sequence[int]) -> None:
    if (
        len(percentages) == 0
        or any(not _is_int(p) or p < 0 for p in percentages)
        or sum(percentages) != BASIS_POINTS
    ):
        raise DomainError(
            "bad_percentages",
            MSG_BAD_PERCENTAGES,
            fields={"percentages": list(percentages)},
        )


def payouts(*, pool: int, percentages: Sequence[int], rounding_unit: int = 1) -> tuple[int, ...]:
    """Prize per place, first place first (RULES 8.2).

    Each place gets ``pool * bp / 10000`` rounded down to a multiple of ``rounding_unit``;
    the remainder goes to first place. The amounts sum exactly to ``pool`` and are
    non-increasing wherever ``percentages`` is. ``percentages`` is any table of whole basis
    points summing to 10000 (the director may edit the default one).
    """
    if not _is_int(pool) or pool < 0:
        raise DomainError("bad_pool", MSG_BAD_POOL, fields={"pool": pool})
    _check_rounding_unit(rounding_unit)
    _check_percentages(percentages)
    amounts = [pool * bp // BASIS_POINTS // rounding_unit * rounding_unit for bp in percentages]
    amounts[0] += pool - sum(amounts)
    return tuple(amounts)


# --------------------------------------------------------------------------- RULES 7.2


def _split_finisher(finisher: Sequence[int]) -> tuple[int, int, int, int, int]:
    try:
        entry, place, place_to, table, seat = finisher
    except (TypeError, ValueError):
        raise DomainError(
            "bad_finisher", MSG_BAD_FINISHER, fields={"finisher": repr(finisher)}
        ) from None
    # ``type(...) is int`` (not isinstance) refuses bools and is fast on 10,000-entry fields.
    if (
        not (
            type(entry) is int
            and type(place) is int
            and type(place_to) is int
            and type(table) is int
            and type(seat) is int
        )
        or place < 1
        or place_to < place
        or table < 0
        or seat < 0
    ):
        raise DomainError("bad_finisher", MSG_BAD_FINISHER, fields={"finisher": repr(finisher)})
    return entry, place, place_to, table, seat


def place_prizes(*, prizes: Sequence[int], finishers: Sequence[Sequence[int]]) -> dict[int, int]:
    """Prize of each finisher, by entry id (RULES 7.2).

    ``prizes[i]`` is the prize of place ``i + 1`` (as from ``payouts``); places past the end
    are worth 0. ``finishers`` are ``(entry, place, place_to, table, seat)`` tuples (table and
    seat where the player sat when eliminated; 0 if unknown). Players tied on
    ``place..place_to`` share the sum of those places' prizes equally, in the smallest unit;
    the odd units go one each to the tied players in order of table, then seat, then entry.
    A tie group must list exactly ``place_to - place + 1`` players and groups must not
    overlap (400 ``inconsistent_tie``). Finishers need not cover every place: players still
    in are simply not listed.
    """
    if any(type(p) is not int or p < 0 for p in prizes):
        raise DomainError("bad_prizes", MSG_BAD_PRIZES, fields={"prizes": list(prizes)})
    paid = len(prizes)
    groups: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    seen: set[int] = set()
    for finisher in finishers:
        entry, place, place_to, table, seat = _split_finisher(finisher)
        if entry in seen:
            raise DomainError("duplicate_entry", MSG_DUPLICATE_ENTRY, fields={"entry": entry})
        seen.add(entry)
        groups.setdefault((place, place_to), []).append((table, seat, entry))

    taken: set[int] = set()
    out: dict[int, int] = {}
    for (place, place_to), members in groups.items():
        span = range(place, place_to + 1)
        if len(members) != len(span) or not taken.isdisjoint(span):
            raise DomainError(
                "inconsistent_tie",
                MSG_INCONSISTENT_TIE,
                fields={"place": place, "place_to": place_to, "players": len(members)},
            )
        taken.update(span)
        if len(members) == 1:
            out[members[0][2]] = prizes[place - 1] if place <= paid else 0
            continue
        money = sum(prizes[place - 1 : min(place_to, paid)])
        share, odd = divmod(money, len(members))
        # RULES 7.2: odd units one each by table number, then seat number.
        for n, (_table, _seat, entry) in enumerate(sorted(members)):
            out[entry] = share + (1 if n < odd else 0)
    return out


def results(*, prizes: Sequence[int], finishers: Sequence[Sequence[int]]) -> tuple[Result, ...]:
    """Rows for the results screen and API, best first (ties by table, seat, entry)."""
    money = place_prizes(prizes=prizes, finishers=finishers)
    rows = sorted(_split_finisher(f) for f in finishers)
    rows.sort(key=lambda r: (r[1], r[3], r[4], r[0]))
    return tuple(
        Result(entry, place, place_to, money[entry]) for entry, place, place_to, *_ in rows
    )


# --------------------------------------------------------------------------- RULES 8.3


def _check_stacks(stacks: Sequence[int]) -> None:
    if len(stacks) == 0 or any(not _is_int(s) or s <= 0 for s in stacks):
        raise DomainError("bad_stacks", MSG_BAD_STACKS, fields={"stacks": list(stacks)})


def chip_chop(*, stacks: Sequence[int], prizes: Sequence[int], unit: int = 1) -> list[int]:
    """The common chip-chop deal (RULES 8.3): amounts in the order of ``stacks``.

    ``prizes`` are the unpaid prizes of places ``1..len(stacks)`` (shorter lists are padded
    with 0: the places past the paid ones). Each remaining player gets the last of those
    prizes; the rest is shared in proportion to chips, in multiples of ``unit`` (the payout
    rounding unit, as the ICM deal) by largest remainder (ties: larger stack, then earlier
    player). If the rest is not a multiple of ``unit``, the odd part goes to the chip leader,
    as the rounding remainder goes to first place in RULES 8.2. Sums exactly to
    ``sum(prizes)``.
    """
    _check_stacks(stacks)
    _check_rounding_unit(unit)
    if any(not _is_int(p) or p < 0 for p in prizes):
        raise DomainError("bad_prizes", MSG_BAD_PRIZES, fields={"prizes": list(prizes)})
    if len(prizes) > len(stacks):
        raise DomainError(
            "too_many_prizes",
            MSG_TOO_MANY_PRIZES,
            fields={"players": len(stacks), "prizes": len(prizes)},
        )
    players = len(stacks)
    total = sum(prizes)
    floor_prize = prizes[-1] if len(prizes) == players else 0
    rest = total - floor_prize * players
    odd = rest % unit
    shares = round_to_total(list(stacks), rest - odd, unit)
    amounts = [floor_prize + share for share in shares]
    leader = max(range(players), key=lambda i: (stacks[i], -i))
    amounts[leader] += odd
    return amounts


def round_to_total(values: Sequence[float], total: int, unit: int = 1) -> list[int]:
    """Whole multiples of ``unit`` proportional to ``values``, summing exactly to ``total``.

    Used to turn ICM equities (floats) into deal amounts (RULES 8.3). ``values`` are scaled
    to ``total`` (so they need not add up to it exactly), computed exactly with fractions;
    units left after rounding down go to the largest remainders (ties: larger value, then
    earlier). ``total`` must be a multiple of ``unit`` (400 ``total_not_multiple_of_unit``).
    """
    _check_rounding_unit(unit)
    if not _is_int(total) or total < 0:
        raise DomainError("bad_amount", MSG_BAD_AMOUNT, fields={"total": total})
    if total % unit:
        raise DomainError(
            "total_not_multiple_of_unit",
            MSG_TOTAL_NOT_MULTIPLE,
            fields={"total": total, "unit": unit},
        )
    exact: list[Fraction] = []
    for v in values:
        if (
            isinstance(v, bool)
            or not isinstance(v, int | float | Fraction)
            or (isinstance(v, float) and not math.isfinite(v))
            or v < 0
        ):
            raise DomainError("bad_values", MSG_BAD_VALUES, fields={"values": list(values)})
        exact.append(Fraction(v))
    whole = sum(exact, Fraction(0))
    if whole == 0:
        raise DomainError("bad_values", MSG_BAD_VALUES, fields={"values": list(values)})
    units = total // unit
    quotas = [v * units / whole for v in exact]
    floors = [math.floor(q) for q in quotas]
    left = units - sum(floors)
    order = sorted(range(len(quotas)), key=lambda i: (-(quotas[i] - floors[i]), -exact[i], i))
    for i in order[:left]:
        floors[i] += 1
    return [n * unit for n in floors]


def icm_deal(*, stacks: Sequence[int], prizes: Sequence[int], unit: int = 1) -> list[int]:
    """An ICM deal (RULES 8.3): whole amounts in the order of ``stacks``.

    ``prizes`` are the unpaid prizes of places ``1..len(stacks)`` (shorter lists are padded
    with 0). The Malmuth-Harville equities (``icm.icm_equities``) are rounded with
    ``round_to_total`` to multiples of ``unit``; if the unpaid money is not a multiple of
    ``unit``, the odd part goes to the player with the largest equity (as the remainder goes
    to first place in RULES 8.2). Sums exactly to ``sum(prizes)``.
    """
    _check_stacks(stacks)
    _check_rounding_unit(unit)
    if any(not _is_int(p) or p < 0 for p in prizes):
        raise DomainError("bad_prizes", MSG_BAD_PRIZES, fields={"prizes": list(prizes)})
    if len(prizes) > len(stacks):
        raise DomainError(
            "too_many_prizes",
            MSG_TOO_MANY_PRIZES,
            fields={"players": len(stacks), "prizes": len(prizes)},
        )
    total = sum(prizes)
    if total == 0:
        return [0] * len(stacks)
    equities = icm_equities(list(stacks), list(prizes))
    odd = total % unit
    amounts = round_to_total(equities, total - odd, unit)
    leader = max(range(len(stacks)), key=lambda i: (equities[i], stacks[i], -i))
    amounts[leader] += odd
    return amounts


def check_deal(
    *, amounts: Sequence[int], unpaid: Sequence[int], players: int | None = None
) -> None:
    """Refuse a deal that does not hand out exactly the unpaid money (RULES 8.3).

    ``unpaid`` are the prizes of the places still to be decided (one per remaining player,
    0 for places past the paid ones); ``players`` is the number of remaining players
    (default ``len(unpaid)``). Raises 400 ``deal_wrong_players`` when there is not exactly
    one amount per remaining player, 400 ``deal_does_not_add_up`` unless every amount is a
    whole amount >= 0 and they sum exactly to ``sum(unpaid)``: prize money never leaves the
    remaining players (002). Every player's agreement is the caller's to record.
    """
    if any(not _is_int(p) or p < 0 for p in unpaid):
        raise DomainError("bad_prizes", MSG_BAD_PRIZES, fields={"unpaid": list(unpaid)})
    remaining = len(unpaid) if players is None else players
    if len(amounts) != remaining:
        raise DomainError(
            "deal_wrong_players",
            MSG_DEAL_WRONG_PLAYERS,
            fields={"amounts": len(amounts), "players": remaining},
        )
    if any(not _is_int(a) or a < 0 for a in amounts) or sum(amounts) != sum(unpaid):
        raise DomainError(
            "deal_does_not_add_up",
            MSG_DEAL_DOES_NOT_ADD_UP,
            fields={"amounts": list(amounts), "unpaid": sum(unpaid)},
        )
