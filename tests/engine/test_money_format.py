"""The money formatters, one per way the screens write an amount (tourney/engine/money_format)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.engine.money_format import money_exact, money_input, money_typed, money_whole


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


@pytest.mark.parametrize(
    ("amount", "typed"),
    [(0, "0"), (5, "0.05"), (1250, "12.50"), (10000, "100"), (123456789, "1234567.89")],
)
def test_money_input_is_what_a_form_field_holds(amount, typed):
    assert money_input(amount) == typed


@given(st.integers(min_value=0, max_value=10**13))
def test_money_input_writes_what_the_forms_wrote_before_it(amount):
    # The float formula of the setup and settings forms, exact up to the 10^11 units they
    # accept (setup.parse_money); money_input is integer arithmetic, exact for any amount.
    assert money_input(amount) == f"{amount / 100:.2f}".removesuffix(".00")


@given(st.integers(min_value=0, max_value=10**13))
def test_an_amount_typed_as_the_form_fills_it_reads_back(amount):
    assert money_typed(money_input(amount)) == amount
    assert money_typed(money_exact(amount)) == amount  # with thousands separators


@pytest.mark.parametrize("text", ["1.234", "-1", "nan", "inf", "1e400", "12,5.x", "100000000001"])
def test_what_is_no_amount_is_none(text):
    assert money_typed(text) is None


def test_empty_is_zero():
    assert money_typed("") == 0 and money_typed(None) == 0 and money_typed("  ") == 0
