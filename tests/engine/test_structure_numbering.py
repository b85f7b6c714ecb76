"""Level and break numbers as people read them ↔ item indexes over the whole structure
(tourney/engine/structure.py: item_index_of, item_number_of; the setup and settings forms)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.engine import structure as s
from tourney.engine.clock import BREAK, LEVEL, Item
from tourney.engine.errors import DomainError

LVL = Item(LEVEL, 1200, small_blind=25, big_blind=50)
BRK = Item(BREAK, 600)
ITEMS = (LVL, LVL, BRK, LVL, BRK, LVL)  # levels 1, 2, break 1, level 3, break 2, level 4


def test_level_and_break_numbers_count_their_own_kind_only():
    assert [s.item_index_of(ITEMS, LEVEL, n, field="level") for n in (1, 2, 3, 4)] == [0, 1, 3, 5]
    assert [s.item_index_of(ITEMS, BREAK, n, field="addon_break") for n in (1, 2)] == [2, 4]


def test_no_number_stays_none():
    assert s.item_index_of(ITEMS, LEVEL, None, field="level") is None
    assert s.item_number_of(ITEMS, BREAK, None) is None


@pytest.mark.parametrize(
    ("kind", "number", "message"),
    [
        (LEVEL, 5, "The structure has no level 5."),
        (LEVEL, 0, "The structure has no level 0."),
        (BREAK, 3, "The structure has no break 3."),
    ],
)
def test_a_missing_number_is_refused_naming_the_callers_field(kind, number, message):
    with pytest.raises(DomainError) as exc:
        s.item_index_of(ITEMS, kind, number, field="late_reg_level")
    assert exc.value.code == "bad_input"
    assert exc.value.message == message
    assert exc.value.fields == {"late_reg_level": message}


def test_an_index_reads_as_the_last_number_of_its_kind_at_or_before_it():
    assert [s.item_number_of(ITEMS, LEVEL, i) for i in range(6)] == [1, 2, 2, 3, 3, 4]
    assert [s.item_number_of(ITEMS, BREAK, i) for i in range(6)] == [None, None, 1, 1, 2, 2]


@given(st.lists(st.sampled_from((LVL, BRK)), min_size=1, max_size=30), st.data())
def test_number_to_index_and_back_is_the_identity(kinds, data):
    items = tuple(kinds)
    kind = data.draw(st.sampled_from((LEVEL, BREAK)))
    count = sum(1 for it in items if it.kind == kind)
    for number in range(1, count + 1):
        index = s.item_index_of(items, kind, number, field="f")
        assert items[index].kind == kind
        assert s.item_number_of(items, kind, index) == number


def test_the_level_in_play_is_the_one_after_a_break():
    """RULES 4.1 (the side-pot tool pre-fills its antes from it): at a level that level; at a
    break the level after it; after the last level nothing."""
    one = Item(LEVEL, 1200, small_blind=50, big_blind=100, big_blind_ante=100)
    two = Item(LEVEL, 1200, small_blind=100, big_blind=200, big_blind_ante=200)
    items = (one, BRK, two, BRK)
    assert s.level_in_play(items, 0) is one
    assert s.level_in_play(items, 1) is two
    assert s.level_in_play(items, 2) is two
    assert s.level_in_play(items, 3) is None
    assert s.level_in_play((), 0) is None
