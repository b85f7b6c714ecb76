"""ICM deal equities, Malmuth–Harville (RULES 8.3)."""

from __future__ import annotations

import math
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.engine.errors import DomainError
from tourney.engine.icm import (
    MSG_BAD_PAYOUT,
    MSG_BAD_STACK,
    MSG_NO_CHIPS,
    MSG_NO_PLAYERS,
    MSG_TOO_BIG,
    icm_equities,
)


def harville_by_permutations(stacks: list[int], payouts: list[float]) -> list[float]:
    """Independent reference: sum over every finishing order of its Harville probability."""
    n = len(stacks)
    prizes = (list(payouts) + [0.0] * n)[:n]
    equity = [0.0] * n
    for order in permutations(range(n)):
        prob, left = 1.0, float(sum(stacks))
        for player in order:
            prob *= stacks[player] / left
            left -= stacks[player]
        for place, player in enumerate(order):
            equity[player] += prob * prizes[place]
    return equity


def test_api_example_three_players() -> None:
    equities = icm_equities([5000, 3000, 2000], [500, 300, 200])
    # 1st: .5/.3/.2; 2nd for the 5000 stack: .3*5/7 + .2*5/8 = 0.330357...
    assert equities == pytest.approx([383.928571, 327.5, 288.571429])
    assert sum(equities) == pytest.approx(1000)


def test_equal_stacks_get_equal_equity() -> None:
    equities = icm_equities([1000] * 6, [500, 300, 200])
    assert equities == pytest.approx([1000 / 6] * 6)


def test_two_players_closed_form() -> None:
    s1, s2, p1, p2 = 7000, 3000, 600.0, 400.0
    e1 = s1 / (s1 + s2) * p1 + s2 / (s1 + s2) * p2
    assert icm_equities([s1, s2], [p1, p2]) == pytest.approx([e1, p1 + p2 - e1])


def test_one_player_gets_first_prize() -> None:
    assert icm_equities([12345], [1000, 500]) == [1000.0]


def test_short_payouts_are_padded_with_zeros() -> None:
    assert icm_equities([6000, 3000, 1000], [100]) == pytest.approx([60, 30, 10])


def test_payouts_beyond_the_players_are_cut() -> None:
    assert icm_equities([500, 500], [300, 200, 100, 50]) == pytest.approx([250, 250])


def test_zero_stacks_finish_below_and_share_the_lower_places() -> None:
    # RULES 7.1 / 7.2: both empty stacks tie for places 3 and 4: (200 + 100) / 2 each.
    equities = icm_equities([0, 6000, 4000, 0], [500, 300, 200, 100])
    assert equities[0] == equities[3] == pytest.approx(150)
    assert equities[1:3] == pytest.approx(icm_equities([6000, 4000], [500, 300]))
    assert sum(equities) == pytest.approx(1100)


def test_bigger_stack_has_more_equity_but_less_than_its_chip_share() -> None:
    big, mid, small = icm_equities([8000, 1500, 500], [500, 300, 200])
    assert big > mid > small
    assert big < 1000 * 0.8
    assert small > 1000 * 0.05


def test_twelve_players_match_an_independent_calculation_at_the_top() -> None:
    stacks = [1000 * (k + 1) for k in range(12)]
    payouts = [3000, 2000, 1000]
    equities = icm_equities(stacks, payouts)
    assert sum(equities) == pytest.approx(6000)
    # The smallest stack's chance of each paid place, summed by hand over who finishes above.
    total, me, others = sum(stacks), stacks[0], range(1, 12)
    first = me / total
    second = sum(stacks[j] / total * me / (total - stacks[j]) for j in others)
    third = sum(
        stacks[j] / total * stacks[k] / (total - stacks[j]) * me / (total - stacks[j] - stacks[k])
        for j in others
        for k in others
        if k != j
    )
    assert equities[0] == pytest.approx(first * 3000 + second * 2000 + third * 1000)


@pytest.mark.parametrize(
    ("stacks", "payouts", "code", "message"),
    [
        ([], [100], "no_players", MSG_NO_PLAYERS),
        ([100, -1], [100], "bad_stack", MSG_BAD_STACK),
        ([100, 1.5], [100], "bad_stack", MSG_BAD_STACK),
        ([100, True], [100], "bad_stack", MSG_BAD_STACK),
        ([0, 0], [100], "no_chips", MSG_NO_CHIPS),
        ([100, 100], [100, -5], "bad_payout", MSG_BAD_PAYOUT),
        ([100, 100], [math.nan], "bad_payout", MSG_BAD_PAYOUT),
        ([100, 100], [math.inf], "bad_payout", MSG_BAD_PAYOUT),
        ([100, 100], ["100"], "bad_payout", MSG_BAD_PAYOUT),
        ([1] * 40, [1.0] * 40, "icm_too_big", MSG_TOO_BIG),
    ],
)
def test_bad_input_is_refused(
    stacks: list[object], payouts: list[object], code: str, message: str
) -> None:
    with pytest.raises(DomainError) as excinfo:
        icm_equities(stacks, payouts)  # type: ignore[arg-type]
    assert (excinfo.value.code, excinfo.value.message, excinfo.value.status) == (
        code,
        message,
        400,
    )


def test_many_players_with_few_paid_places_are_still_exact() -> None:
    # 40 players but only the top two pay: only the first two places need the walk.
    stacks = [100 + k for k in range(40)]
    equities = icm_equities(stacks, [700, 300])
    assert sum(equities) == pytest.approx(1000)
    assert equities == sorted(equities)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(0, 10_000), min_size=1, max_size=6).filter(any),
    st.lists(st.integers(0, 1000), max_size=7),
)
def test_matches_the_permutation_reference(stacks: list[int], payouts: list[int]) -> None:
    equities = icm_equities(stacks, payouts)
    holders = [i for i, s in enumerate(stacks) if s]
    m, n = len(holders), len(stacks)
    prizes = (payouts + [0] * n)[:n]
    reference = harville_by_permutations([stacks[i] for i in holders], prizes[:m])
    for j, i in enumerate(holders):
        assert equities[i] == pytest.approx(reference[j], abs=1e-6)
    assert sum(equities) == pytest.approx(sum(prizes), abs=1e-6)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(1, 10**6), min_size=2, max_size=10),
    st.lists(st.integers(0, 10**5), min_size=1, max_size=10),
)
def test_equities_are_monotone_in_stack_with_sorted_payouts(
    stacks: list[int], payouts: list[int]
) -> None:
    prizes = sorted(payouts, reverse=True)
    equities = icm_equities(stacks, prizes)
    assert sum(equities) == pytest.approx(sum(prizes[: len(stacks)]))
    for i in range(len(stacks)):
        for j in range(len(stacks)):
            if stacks[i] > stacks[j]:
                assert equities[i] >= equities[j] - 1e-9
            if stacks[i] == stacks[j]:
                assert equities[i] == pytest.approx(equities[j])
