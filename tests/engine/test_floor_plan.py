"""The floor plan typed as ranges (RULES 13.2): parsed with a clear message per bad token,
written back the same way."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.engine import floor_plan as fp
from tourney.engine.errors import DomainError


def test_ranges_and_single_numbers_in_order():
    assert fp.parse("1-20, 31-35, 40") == (*range(1, 21), 31, 32, 33, 34, 35, 40)


def test_spaces_dashes_and_descending_ranges():
    assert fp.parse(" 5 - 3  9–10;12 ") == (5, 4, 3, 9, 10, 12)


def test_empty_text_is_no_plan():
    assert fp.parse("") == ()
    assert fp.parse(" , ") == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1-4, x7", fp.MSG_TOKEN.format(token="x7")),
        ("1-", fp.MSG_TOKEN.format(token="1-")),
        ("-3", fp.MSG_TOKEN.format(token="-3")),
        ("0-4", fp.MSG_RANGE.format(max=32767, token="0-4")),
        ("40000", fp.MSG_RANGE.format(max=32767, token="40000")),
        ("1-5, 3", fp.MSG_DUPLICATE.format(number=3, token="3")),
        ("1-501", fp.MSG_TOO_MANY.format(max=500, count=501)),
        ("1-300, 401-700", fp.MSG_TOO_MANY.format(max=500, count=600)),
    ],
)
def test_a_bad_token_is_named(text, message):
    with pytest.raises(DomainError) as exc:
        fp.parse(text)
    assert exc.value.code == "bad_floor_plan"
    assert exc.value.message == message
    assert exc.value.fields == {"floor_plan": message}


def test_format_writes_runs_in_the_plan_order():
    assert fp.format_plan([1, 2, 3, 31, 32, 40, 9, 8, 7]) == "1-3, 31-32, 40, 9-7"
    assert fp.format_plan([]) == ""


def test_compact_sorts_and_shortens_runs_of_three():
    assert fp.compact([9, 1, 2, 3, 4, 5, 6, 11, 12]) == "1–6, 9, 11, 12"
    assert fp.compact([]) == ""


plans = st.lists(st.integers(1, fp.MAX_NUMBER), unique=True, max_size=fp.MAX_TABLES)


@given(plans)
def test_format_then_parse_is_the_plan(plan):
    assert fp.parse(fp.format_plan(plan)) == tuple(plan)


@given(plans)
def test_format_of_parse_is_stable(plan):
    text = fp.format_plan(plan)
    assert fp.format_plan(fp.parse(text)) == text


def test_the_engine_loads_no_django():
    code = (
        "import sys, tourney.engine.floor_plan; "
        "print(any(m.startswith('django') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
