"""Money engine: RULES 7.2 (prize splits), 8.1, 8.2 and the deal arithmetic of 8.3."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.engine.errors import DomainError
from tourney.engine.payouts import (
    MSG_BAD_AMOUNT,
    MSG_BAD_FIELD_SIZE,
    MSG_BAD_FINISHER,
    MSG_BAD_PERCENTAGES,
    MSG_BAD_POOL,
    MSG_BAD_PRIZES,
    MSG_BAD_ROUNDING_UNIT,
    MSG_BAD_STACKS,
    MSG_BAD_VALUES,
    MSG_DEAL_DOES_NOT_ADD_UP,
    MSG_DEAL_WRONG_PLAYERS,
    MSG_DUPLICATE_ENTRY,
    MSG_INCONSISTENT_TIE,
    MSG_TOO_MANY_PRIZES,
    MSG_TOTAL_NOT_MULTIPLE,
    Result,
    check_deal,
    chip_chop,
    default_percentages,
    icm_deal,
    paid_places,
    payouts,
    place_prizes,
    prize_pool,
    results,
    round_to_total,
)


def _error(exc: pytest.ExceptionInfo[DomainError]) -> tuple[str, int, str]:
    return exc.value.code, exc.value.status, exc.value.message


# RULES 8.1 --------------------------------------------------------------------------------


def test_pool_is_entries_times_buy_in() -> None:
    assert prize_pool(entries=120, buy_in=10_000) == 1_200_000


def test_pool_counts_re_entries_rebuy_and_addon_money_and_added_money() -> None:
    # 100 players, 14 re-entries: 114 entries; 23 rebuys and 80 add-ons of 50.00 each.
    pool = prize_pool(entries=114, buy_in=5_000, rebuys=23 * 5_000, addons=80 * 5_000, added=25_000)
    assert pool == 570_000 + 115_000 + 400_000 + 25_000


def test_pool_excludes_fees_because_buy_in_is_the_prize_part_only() -> None:
    # A 110.00 buy-in with an 10.00 fee: the caller passes the 100.00 that goes to the pool.
    assert prize_pool(entries=50, buy_in=10_000) == 500_000


def test_guarantee_raises_the_pool_by_the_overlay() -> None:
    assert prize_pool(entries=30, buy_in=10_000, guarantee=500_000) == 500_000


def test_guarantee_below_the_collected_money_changes_nothing() -> None:
    assert prize_pool(entries=60, buy_in=10_000, rebuys=5, guarantee=500_000) == 600_005


@pytest.mark.parametrize(
    "kwargs",
    [
        {"entries": -1, "buy_in": 100},
        {"entries": 10, "buy_in": 100.0},
        {"entries": True, "buy_in": 100},
        {"entries": 10, "buy_in": 100, "rebuys": -5},
        {"entries": 10, "buy_in": 100, "guarantee": -1},
    ],
)
def test_pool_refuses_negative_or_fractional_amounts(kwargs: dict[str, object]) -> None:
    with pytest.raises(DomainError) as err:
        prize_pool(**kwargs)  # type: ignore[arg-type]
    assert _error(err) == ("bad_amount", 400, MSG_BAD_AMOUNT)


# RULES 8.2: default tables ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("field_size", "table"),
    [
        (1, (10_000,)),
        (2, (10_000,)),
        (3, (10_000,)),
        (4, (6_500, 3_500)),
        (7, (6_500, 3_500)),
        (8, (5_000, 3_000, 2_000)),
        (10, (5_000, 3_000, 2_000)),
        (15, (5_000, 3_000, 2_000)),
    ],
)
def test_small_fields_use_steep_fixed_tables(field_size: int, table: tuple[int, ...]) -> None:
    assert default_percentages(field_size) == table


def test_large_field_pays_fifteen_percent_and_first_gets_a_quarter() -> None:
    table = default_percentages(1_000)
    assert len(table) == 150
    assert table[0] == 2_500
    assert 1.5 < table[0] / table[1] < 1.9


def test_hundred_entries_pay_fifteen_places_first_about_thirty_percent() -> None:
    table = default_percentages(100)
    assert len(table) == 15
    assert 2_800 <= table[0] <= 3_300


def _check_table(field_size: int) -> None:
    table = default_percentages(field_size)
    assert sum(table) == 10_000
    assert all(bp >= 1 for bp in table)
    assert all(a >= b for a, b in itertools.pairwise(table))
    assert len(table) == paid_places(field_size)
    paid = len(table) / field_size
    if field_size >= 27:
        assert 0.10 <= paid <= 0.20
    elif field_size >= 16:
        assert 0.10 <= paid <= 0.25
    else:
        assert len(table) <= max(1, field_size // 2)  # fewer places for tiny fields
    if field_size >= 400:
        assert 2_300 <= table[0] <= 2_700  # about a quarter
    # First place grows steeper as the field shrinks, never flatter than the second.
    if len(table) > 1:
        assert table[0] > table[1]


def test_every_small_and_medium_field_size_has_a_sound_table() -> None:
    for field_size in range(2, 400):
        _check_table(field_size)


def test_field_sizes_up_to_ten_thousand_have_sound_tables() -> None:
    for field_size in [*range(400, 10_001, 211), 9_999, 10_000]:
        _check_table(field_size)


@settings(max_examples=60, deadline=None)
@given(field_size=st.integers(2, 10_000))
def test_default_table_property(field_size: int) -> None:
    _check_table(field_size)


def test_paid_places_grow_with_the_field() -> None:
    counts = [paid_places(n) for n in range(1, 10_001)]
    assert all(a <= b for a, b in itertools.pairwise(counts))


@pytest.mark.parametrize("field_size", [0, -4, True, 12.0])
def test_bad_field_size_is_refused(field_size: object) -> None:
    with pytest.raises(DomainError) as err:
        default_percentages(field_size)  # type: ignore[arg-type]
    assert _error(err) == ("bad_field_size", 400, MSG_BAD_FIELD_SIZE)


# RULES 8.2: amounts -------------------------------------------------------------------------


def test_amounts_round_down_and_the_remainder_goes_to_first() -> None:
    assert payouts(pool=1_000_000, percentages=[3_334, 3_333, 3_333], rounding_unit=100) == (
        333_400,
        333_300,
        333_300,
    )
    # 5025, 3015, 2010 round down to 5000, 3000, 2000; the 50 left goes to first.
    assert payouts(pool=10_050, percentages=[5_000, 3_000, 2_000], rounding_unit=100) == (
        5_050,
        3_000,
        2_000,
    )


def test_pool_not_a_multiple_of_the_unit_leaves_the_odd_part_to_first() -> None:
    amounts = payouts(pool=123_456, percentages=[6_500, 3_500], rounding_unit=1_000)
    assert amounts == (80_456, 43_000)


@pytest.mark.parametrize("unit", [1, 5, 100, 500, 2_500])
@pytest.mark.parametrize("field_size", [2, 9, 23, 57, 180, 1_337, 10_000])
def test_default_table_amounts_sum_to_the_pool(field_size: int, unit: int) -> None:
    pool = prize_pool(entries=field_size, buy_in=11_000, rebuys=777)
    amounts = payouts(pool=pool, percentages=default_percentages(field_size), rounding_unit=unit)
    assert sum(amounts) == pool
    assert all(a >= b for a, b in itertools.pairwise(amounts))
    assert all(a % unit == 0 for a in amounts[1:])


@settings(max_examples=150, deadline=None)
@given(
    pool=st.integers(0, 10**10),
    unit=st.sampled_from([1, 2, 5, 10, 25, 100, 1_000]),
    raw=st.lists(st.integers(0, 1_000), min_size=1, max_size=40).filter(lambda r: sum(r) > 0),
)
def test_payouts_sum_exactly_and_keep_the_table_order(pool: int, unit: int, raw: list[int]) -> None:
    # Turn any weights into a non-increasing table summing to 10000.
    raw = sorted(raw, reverse=True)
    table = [w * 10_000 // sum(raw) for w in raw]
    table[0] += 10_000 - sum(table)
    amounts = payouts(pool=pool, percentages=table, rounding_unit=unit)
    assert sum(amounts) == pool
    assert all(a >= b for a, b in itertools.pairwise(amounts))
    assert all(a % unit == 0 for a in amounts[1:])
    for amount, bp in zip(amounts[1:], table[1:], strict=True):
        assert 0 <= pool * bp / 10_000 - amount < unit  # rounded down by less than a unit


@pytest.mark.parametrize("percentages", [[], [5_000, 4_999], [10_001, -1], [5_000.0, 5_000]])
def test_bad_tables_are_refused(percentages: list[int]) -> None:
    with pytest.raises(DomainError) as err:
        payouts(pool=1_000, percentages=percentages)
    assert _error(err) == ("bad_percentages", 400, MSG_BAD_PERCENTAGES)


def test_bad_pool_and_unit_are_refused() -> None:
    with pytest.raises(DomainError) as err:
        payouts(pool=-1, percentages=[10_000])
    assert _error(err) == ("bad_pool", 400, MSG_BAD_POOL)
    with pytest.raises(DomainError) as err:
        payouts(pool=100, percentages=[10_000], rounding_unit=0)
    assert _error(err) == ("bad_rounding_unit", 400, MSG_BAD_ROUNDING_UNIT)


# RULES 7.2: prizes of tied places -------------------------------------------------------------

PRIZES = [40_000, 25_000, 15_000, 9_000, 5_001, 3_000]  # places 1..6


def test_untied_players_get_their_places_prize() -> None:
    prizes = place_prizes(prizes=PRIZES, finishers=[(7, 4, 4, 1, 1), (8, 3, 3, 1, 2)])
    assert prizes == {7: 9_000, 8: 15_000}


def test_tie_for_places_five_and_six_splits_with_the_odd_unit_by_table() -> None:
    # (5001 + 3000) / 2 = 4000.5: the odd cent goes to the lower table number.
    prizes = place_prizes(prizes=PRIZES, finishers=[(81, 5, 6, 3, 1), (90, 5, 6, 2, 9)])
    assert prizes == {90: 4_001, 81: 4_000}


def test_tie_odd_unit_goes_by_seat_on_the_same_table() -> None:
    prizes = place_prizes(prizes=PRIZES, finishers=[(81, 5, 6, 2, 7), (90, 5, 6, 2, 3)])
    assert prizes == {90: 4_001, 81: 4_000}


def test_three_way_tie_gives_remainders_one_each_in_seat_order() -> None:
    prizes = place_prizes(
        prizes=[50, 40, 30, 20, 12],
        finishers=[(1, 3, 5, 1, 9), (2, 3, 5, 1, 2), (3, 3, 5, 2, 1)],
    )
    # 30 + 20 + 12 = 62 = 3 * 20 + 2: seats (1,2) and (1,9) get the extra units.
    assert prizes == {2: 21, 1: 21, 3: 20}
    assert sum(prizes.values()) == 62


def test_tie_at_the_bubble_splits_the_last_prize_with_the_zero_below() -> None:
    prizes = place_prizes(prizes=PRIZES, finishers=[(1, 6, 7, 1, 1), (2, 6, 7, 1, 2)])
    assert prizes == {1: 1_500, 2: 1_500}


def test_places_past_the_paid_ones_win_nothing() -> None:
    assert place_prizes(
        prizes=PRIZES, finishers=[(5, 7, 7, 1, 1), (6, 8, 9, 1, 1), (7, 8, 9, 2, 2)]
    ) == {
        5: 0,
        6: 0,
        7: 0,
    }


def test_incomplete_tie_group_is_refused() -> None:
    with pytest.raises(DomainError) as err:
        place_prizes(prizes=PRIZES, finishers=[(1, 5, 6, 1, 1)])
    assert _error(err) == ("inconsistent_tie", 400, MSG_INCONSISTENT_TIE)


def test_overlapping_places_are_refused() -> None:
    with pytest.raises(DomainError) as err:
        place_prizes(prizes=PRIZES, finishers=[(1, 5, 6, 1, 1), (2, 5, 6, 1, 2), (3, 6, 6, 1, 3)])
    assert _error(err) == ("inconsistent_tie", 400, MSG_INCONSISTENT_TIE)


def test_duplicate_finisher_is_refused() -> None:
    with pytest.raises(DomainError) as err:
        place_prizes(prizes=PRIZES, finishers=[(1, 5, 5, 1, 1), (1, 4, 4, 1, 1)])
    assert _error(err) == ("duplicate_entry", 400, MSG_DUPLICATE_ENTRY)


@pytest.mark.parametrize(
    "finisher",
    [
        (1, 0, 0, 1, 1),
        (1, 5, 4, 1, 1),
        (1, 5, 5, 1),
        (1, 5, 5, -1, 1),
        (1, 5.0, 5, 1, 1),
    ],
)
def test_malformed_finisher_is_refused(finisher: tuple[int, ...]) -> None:
    with pytest.raises(DomainError) as err:
        place_prizes(prizes=PRIZES, finishers=[finisher])
    assert _error(err) == ("bad_finisher", 400, MSG_BAD_FINISHER)


def test_negative_prize_is_refused() -> None:
    with pytest.raises(DomainError) as err:
        place_prizes(prizes=[100, -1], finishers=[])
    assert _error(err) == ("bad_prizes", 400, MSG_BAD_PRIZES)


def test_results_rows_are_best_first_with_prizes() -> None:
    rows = results(
        prizes=PRIZES,
        finishers=[
            (9, 7, 7, 1, 4),
            (81, 5, 6, 3, 1),
            (90, 5, 6, 2, 9),
            (5, 1, 1, 1, 1),
        ],
    )
    assert rows == (
        Result(5, 1, 1, 40_000),
        Result(90, 5, 6, 4_001),
        Result(81, 5, 6, 4_000),
        Result(9, 7, 7, 0),
    )


@settings(max_examples=150, deadline=None)
@given(
    prizes=st.lists(st.integers(0, 10**6), max_size=12).map(lambda p: sorted(p, reverse=True)),
    groups=st.lists(st.integers(1, 4), min_size=1, max_size=10),
    seed=st.randoms(use_true_random=False),
)
def test_tied_prizes_add_up_and_differ_by_at_most_one_unit(
    prizes: list[int], groups: list[int], seed: object
) -> None:
    finishers = []
    place = 1
    entry = 0
    for size in groups:
        for _ in range(size):
            entry += 1
            finishers.append(
                (entry, place, place + size - 1, seed.randint(0, 5), seed.randint(0, 9))
            )  # type: ignore[attr-defined]
        place += size
    money = place_prizes(prizes=prizes, finishers=finishers)
    covered = place - 1
    assert sum(money.values()) == sum(prizes[:covered])
    place = 1
    for size in groups:
        members = [f for f in finishers if f[1] == place]
        amounts = [money[f[0]] for f in members]
        assert sum(amounts) == sum(prizes[place - 1 : place - 1 + size])
        assert max(amounts) - min(amounts) <= 1
        # Odd units first by (table, seat).
        ordered = [money[f[0]] for f in sorted(members, key=lambda f: (f[3], f[4], f[0]))]
        assert ordered == sorted(ordered, reverse=True)
        place += size


# RULES 8.3: chip chop and ICM rounding ---------------------------------------------------------


def test_chip_chop_gives_the_last_prize_then_shares_the_rest_by_chips() -> None:
    # 3 left, prizes 5000/3000/2000: each gets 2000, the other 4000 by chips 50/30/20 %.
    assert chip_chop(stacks=[500, 300, 200], prizes=[5_000, 3_000, 2_000]) == [
        4_000,
        3_200,
        2_800,
    ]


def test_chip_chop_odd_units_go_by_largest_remainder() -> None:
    amounts = chip_chop(stacks=[1, 1, 1], prizes=[60, 30, 11])
    # 11 each, 68 left: 22.67 each -> 22 each + 2 units to the first two (equal remainders).
    assert amounts == [34, 34, 33]


def test_chip_chop_odd_units_go_to_the_largest_fractions_not_the_largest_stacks() -> None:
    # 100 each, then 5 by chips 10/7/3: 2.5, 1.75, 0.75 -> 2, 1, 0 and the two .75s get a unit.
    assert chip_chop(stacks=[10, 7, 3], prizes=[104, 101, 100]) == [102, 102, 101]


def test_chip_chop_with_fewer_prizes_than_players_floors_at_zero() -> None:
    assert chip_chop(stacks=[600, 300, 100], prizes=[700, 300]) == [600, 300, 100]


def test_chip_chop_refuses_more_prizes_than_players_and_bad_stacks() -> None:
    with pytest.raises(DomainError) as err:
        chip_chop(stacks=[100, 100], prizes=[3, 2, 1])
    assert _error(err) == ("too_many_prizes", 400, MSG_TOO_MANY_PRIZES)
    with pytest.raises(DomainError) as err:
        chip_chop(stacks=[100, 0], prizes=[3, 2])
    assert _error(err) == ("bad_stacks", 400, MSG_BAD_STACKS)
    with pytest.raises(DomainError) as err:
        chip_chop(stacks=[], prizes=[])
    assert _error(err) == ("bad_stacks", 400, MSG_BAD_STACKS)


@settings(max_examples=200, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 10**7), min_size=1, max_size=10),
    data=st.data(),
)
def test_chip_chop_sums_exactly_and_never_pays_below_the_last_prize(
    stacks: list[int], data: st.DataObject
) -> None:
    prizes = sorted(data.draw(st.lists(st.integers(0, 10**8), max_size=len(stacks))), reverse=True)
    amounts = chip_chop(stacks=stacks, prizes=prizes)
    assert sum(amounts) == sum(prizes)
    floor = prizes[-1] if len(prizes) == len(stacks) else 0
    assert all(a >= floor for a in amounts)
    for a, b, sa, sb in zip(amounts, amounts[1:], stacks, stacks[1:], strict=False):
        if sa > sb:
            assert a >= b  # more chips never gets less
    rest = sum(prizes) - floor * len(stacks)
    for a, s in zip(amounts, stacks, strict=True):
        assert abs((a - floor) - Fraction(rest * s, sum(stacks))) < 1


def test_chip_chop_rounds_to_the_payout_unit_like_the_icm_deal() -> None:
    # RULES 8.3 with the RULES 8.2 unit: 2000 each, then 4000 by chips 50/30/20 % in units of
    # 500: 2000, 1200 -> 1000, 800 -> 1000 (the larger fraction gets the last unit).
    assert chip_chop(stacks=[500, 300, 200], prizes=[5_000, 3_000, 2_000], unit=500) == [
        4_000,
        3_000,
        3_000,
    ]


def test_chip_chop_gives_the_odd_part_to_the_chip_leader() -> None:
    # First place carries the payout table's remainder (RULES 8.2): 50 that no unit covers.
    # It goes to the biggest stack, wherever it sits.
    assert chip_chop(stacks=[200, 500, 300], prizes=[5_050, 3_000, 2_000], unit=500) == [
        3_000,
        4_050,
        3_000,
    ]


@settings(max_examples=200, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 10**7), min_size=1, max_size=10),
    unit=st.sampled_from([1, 5, 100, 500, 2_500]),
    data=st.data(),
)
def test_chip_chop_in_units_sums_exactly_and_stays_within_a_unit_of_the_exact_share(
    stacks: list[int], unit: int, data: st.DataObject
) -> None:
    prizes = sorted(data.draw(st.lists(st.integers(0, 10**8), max_size=len(stacks))), reverse=True)
    amounts = chip_chop(stacks=stacks, prizes=prizes, unit=unit)
    assert sum(amounts) == sum(prizes)
    floor = prizes[-1] if len(prizes) == len(stacks) else 0
    rest = sum(prizes) - floor * len(stacks)
    leader = max(range(len(stacks)), key=lambda i: (stacks[i], -i))
    for i, (a, s) in enumerate(zip(amounts, stacks, strict=True)):
        share = a - floor - (rest % unit if i == leader else 0)
        assert share % unit == 0
        assert abs(share - Fraction((rest - rest % unit) * s, sum(stacks))) < unit
    for a, b, sa, sb in zip(amounts, amounts[1:], stacks, stacks[1:], strict=False):
        if sa > sb:
            assert a >= b  # more chips never gets less


def test_round_to_total_thirds() -> None:
    assert round_to_total([1 / 3, 1 / 3, 1 / 3], 100) == [34, 33, 33]


def test_round_to_total_gives_leftover_units_to_the_largest_fractions() -> None:
    assert round_to_total([10.0, 7.0, 3.0], 5) == [2, 2, 1]
    assert round_to_total([10.0, 7.0, 3.0], 50, unit=10) == [20, 20, 10]


def test_round_to_total_scales_icm_equities_to_the_unpaid_money_in_units() -> None:
    equities = [4123.6, 3015.2, 1861.2]  # sums to 9000.0
    assert round_to_total(equities, 9_000, unit=5) == [4125, 3015, 1860]


def test_round_to_total_refuses_a_total_off_the_unit() -> None:
    with pytest.raises(DomainError) as err:
        round_to_total([1.0, 2.0], 101, unit=5)
    assert _error(err) == ("total_not_multiple_of_unit", 400, MSG_TOTAL_NOT_MULTIPLE)


@pytest.mark.parametrize(
    "values", [[], [0.0, 0.0], [1.0, -0.5], [math.nan, 1.0], [math.inf], ["3"]]
)
def test_round_to_total_refuses_bad_values(values: list[float]) -> None:
    with pytest.raises(DomainError) as err:
        round_to_total(values, 100)
    assert _error(err) == ("bad_values", 400, MSG_BAD_VALUES)


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.floats(0, 1e9, allow_nan=False), min_size=1, max_size=10).filter(
        lambda v: sum(v) > 0
    ),
    units=st.integers(0, 10**9),
    unit=st.sampled_from([1, 5, 100]),
)
def test_round_to_total_is_exact_and_within_one_unit(
    values: list[float], units: int, unit: int
) -> None:
    total = units * unit
    amounts = round_to_total(values, total, unit)
    assert sum(amounts) == total
    assert all(a % unit == 0 and a >= 0 for a in amounts)
    whole = sum(Fraction(v) for v in values)
    for a, v in zip(amounts, values, strict=True):
        assert abs(a - Fraction(v) * total / whole) < unit  # exact, no float slack


def test_icm_deal_heads_up_is_the_chip_share_of_the_difference() -> None:
    # Heads-up Harville: equity = p2 + (p1 - p2) * chip share: 3000 + 2000 * 0.75.
    assert icm_deal(stacks=[7_500, 2_500], prizes=[5_000, 3_000]) == [4_500, 3_500]


def test_icm_deal_odd_part_off_the_unit_goes_to_the_biggest_equity() -> None:
    amounts = icm_deal(stacks=[2_500, 7_500], prizes=[5_003, 3_000], unit=10)
    assert amounts == [3_500, 4_503]


def test_icm_deal_refuses_more_prizes_than_players() -> None:
    with pytest.raises(DomainError) as err:
        icm_deal(stacks=[100, 100], prizes=[3, 2, 1])
    assert _error(err) == ("too_many_prizes", 400, MSG_TOO_MANY_PRIZES)


@settings(max_examples=100, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 10**6), min_size=1, max_size=6),
    data=st.data(),
    unit=st.sampled_from([1, 5, 100]),
)
def test_icm_deal_passes_check_deal(stacks: list[int], data: st.DataObject, unit: int) -> None:
    prizes = sorted(data.draw(st.lists(st.integers(0, 10**7), max_size=len(stacks))), reverse=True)
    amounts = icm_deal(stacks=stacks, prizes=prizes, unit=unit)
    unpaid = prizes + [0] * (len(stacks) - len(prizes))
    check_deal(amounts=amounts, unpaid=unpaid)
    # ICM equity lies between the last and the first prize; rounding to the unit (and the
    # odd part off the unit, to the leader) moves an amount by less than two units.
    assert all(unpaid[-1] - unit < a < unpaid[0] + 2 * unit for a in amounts)


def test_check_deal_accepts_exact_split() -> None:
    check_deal(amounts=[5_000, 3_500, 1_500], unpaid=[5_000, 3_000, 2_000])


def test_check_deal_accepts_a_deal_on_the_bubble_with_zero_places() -> None:
    check_deal(amounts=[4_000, 3_000, 2_000, 1_000], unpaid=[6_000, 4_000, 0, 0])


@pytest.mark.parametrize(
    "amounts",
    [
        [5_000, 3_500, 1_499],
        [5_000, 3_500, 1_501],
        [11_000, 0, -1_000],
        [5_000.0, 3_500, 1_500],
    ],
)
def test_check_deal_refuses_amounts_that_do_not_add_up(amounts: list[int]) -> None:
    with pytest.raises(DomainError) as err:
        check_deal(amounts=amounts, unpaid=[5_000, 3_000, 2_000])
    assert _error(err) == ("deal_does_not_add_up", 400, MSG_DEAL_DOES_NOT_ADD_UP)


def test_check_deal_refuses_a_deal_that_leaves_out_a_player() -> None:
    with pytest.raises(DomainError) as err:
        check_deal(amounts=[6_000, 4_000], unpaid=[5_000, 3_000, 2_000])
    assert _error(err) == ("deal_wrong_players", 400, MSG_DEAL_WRONG_PLAYERS)
    with pytest.raises(DomainError) as err:
        check_deal(amounts=[6_000, 4_000], unpaid=[6_000, 4_000], players=3)
    assert _error(err) == ("deal_wrong_players", 400, MSG_DEAL_WRONG_PLAYERS)


def test_cached_table_is_not_served_for_a_bool_or_float_field_size() -> None:
    assert default_percentages(1) == (10_000,)
    assert default_percentages(12) == (5_000, 3_000, 2_000)
    for bad in (True, 12.0):
        with pytest.raises(DomainError) as err:
            default_percentages(bad)  # type: ignore[arg-type]
        assert _error(err) == ("bad_field_size", 400, MSG_BAD_FIELD_SIZE)
