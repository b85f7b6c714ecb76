"""The money formatters, one per way the screens write an amount (tourney/engine/money_format)."""

from __future__ import annotations

import pytest

from tourney.engine.money_format import money_exact, money_whole


@pytest.mark.parametrize(
    ("amount", "exact", "whole"),
    [
        (0, "0.00", "0"),
        (5, "0.05", "0.05"),
        (39800, "398.00", "398"),
        (123456, "1,234.56", "1,234.56"),
        (123400, "1,234.00", "1,234"),
        (100000000, "1,000,000.00", "1,000,000"),
    ],
)
def test_formatters(amount, exact, whole):
    assert money_exact(amount) == exact
    assert money_whole(amount) == whole


def test_money_exact_reads_nothing_as_zero():
    assert money_exact(None) == "0.00"
