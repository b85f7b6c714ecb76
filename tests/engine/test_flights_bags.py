"""Bag and tag, and chip counts during play (RULES 10.4, 10.8)."""

from __future__ import annotations

import pytest

from tourney.engine.bags import (
    MSG_BAD_COUNT,
    MSG_NO_PLAYERS,
    MSG_SEAT_TWICE,
    BagLabel,
    ChipRow,
    Count,
    TableTotal,
    average_stack,
    bag_check,
    bag_labels,
    chip_counts,
    chip_report,
)
from tourney.engine.errors import DomainError
from tourney.engine.flights import MSG_DUPLICATE_ENTRY, Bag


def _raises(code: str, message: str, call, *args, **kwargs) -> DomainError:
    with pytest.raises(DomainError) as info:
        call(*args, **kwargs)
    assert info.value.code == code
    assert info.value.message == message
    return info.value


# ----------------------------------------------------------------------------- RULES 10.4


def test_bag_check_totals_each_table_and_shows_the_difference():
    counts = [
        Bag(1, 1, 11, 30_000, table=1, seat=1),
        Bag(2, 1, 12, 12_500, table=1, seat=4),
        Bag(3, 1, 13, 57_475, table=2, seat=2),
    ]
    check = bag_check(counts, chips_in_play=100_000)
    assert check.tables == (TableTotal(1, 2, 42_500), TableTotal(2, 1, 57_475))
    assert check.counted == 99_975
    assert check.difference == -25  # 25 chips short: shown, not spread over the counts
    assert not check.balanced
    assert [c.chips for c in counts] == [30_000, 12_500, 57_475]
    even = bag_check(counts, chips_in_play=99_975, players={11, 12, 13})
    assert even.difference == 0 and even.balanced


def test_bag_check_reports_players_without_a_count_and_counts_of_players_not_in():
    counts = [Count(11, 40_000, 1, 1), Count(14, 60_000, 1, 2)]
    check = bag_check(counts, chips_in_play=100_000, players=[11, 12, 13])
    assert check.difference == 0
    assert check.missing == (12, 13)
    assert check.not_in == (14,)
    assert not check.balanced


def test_bag_check_refuses_bad_counts():
    _raises("bad_count", MSG_BAD_COUNT, bag_check, [Count(1, 0)], chips_in_play=0)
    _raises("bad_count", MSG_BAD_COUNT, bag_check, [object()], chips_in_play=0)
    _raises(
        "duplicate_entry",
        MSG_DUPLICATE_ENTRY,
        bag_check,
        [Count(1, 5, 1, 1), Count(1, 5, 1, 2)],
        chips_in_play=10,
    )
    _raises(
        "seat_twice",
        MSG_SEAT_TWICE,
        bag_check,
        [Count(1, 5, 1, 1), Count(2, 5, 1, 1)],
        chips_in_play=10,
    )


def test_bag_labels_are_numbered_in_table_and_seat_order():
    bags = [
        Bag(9, 2, 31, 1_000, table=3, seat=1),
        Bag(8, 2, 22, 2_000, table=1, seat=6),
        Bag(7, 2, 21, 3_000, table=1, seat=2),
    ]
    assert bag_labels(bags) == (
        BagLabel(1, 7, 2, 21, 1, 2, 3_000),
        BagLabel(2, 8, 2, 22, 1, 6, 2_000),
        BagLabel(3, 9, 2, 31, 3, 1, 1_000),
    )


def test_chip_report_sorts_by_chips_with_shared_ranks_and_by_table():
    counts = [
        Count(1, 10_000, 2, 5),
        Count(2, 25_000, 1, 3),
        Count(3, 10_000, 1, 7),
        Count(4, 5_000, 2, 1),
    ]
    report = chip_report(counts)
    assert report.by_chips == (
        ChipRow(1, 2, 25_000, 1, 3),
        ChipRow(2, 3, 10_000, 1, 7),
        ChipRow(2, 1, 10_000, 2, 5),
        ChipRow(4, 4, 5_000, 2, 1),
    )
    assert [(t.table, [r.seat for r in t.rows], t.chips) for t in report.by_table] == [
        (1, [3, 7], 35_000),
        (2, [1, 5], 15_000),
    ]


# ----------------------------------------------------------------------------- RULES 10.8


def test_average_stack_is_the_exact_chips_in_play_over_the_players():
    assert average_stack(chips_in_play=1_000_000, players=3) == 333_333
    assert average_stack(chips_in_play=5, players=2) == 3  # 2.5: a half chip rounds up
    assert average_stack(chips_in_play=7, players=4) == 2  # 1.75
    _raises("no_players", MSG_NO_PLAYERS, average_stack, chips_in_play=10, players=0)


def test_chip_counts_show_the_latest_count_and_the_exact_average():
    records = [
        Count(1, 30_000, 1, 1, at=10),
        Count(1, 45_000, 1, 1, at=20),
        Count(1, 44_000, 1, 1, at=15),  # recorded late, taken earlier
        Count(2, 10_000, 1, 2, at=20),
        Count(2, 12_000, 1, 2, at=20),  # same time: the one recorded last
        Count(9, 80_000, 2, 1, at=5),  # busted since
    ]
    shown = chip_counts(records, players={1, 2, 3}, chips_in_play=150_000)
    assert [(c.entry, c.chips) for c in shown.counts] == [(1, 45_000), (2, 12_000)]
    assert shown.not_counted == (3,)
    assert shown.average == 50_000  # not (45,000 + 12,000) / 2
    assert shown.players == 3
