"""Cards: parsing, validation and the chip-race order (RULES 5.4, 6.4)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.engine.cards import (
    DECK,
    MSG_BAD_CARD,
    MSG_DUPLICATE_CARD,
    card_order_key,
    parse_card,
    parse_cards,
)
from tourney.engine.errors import DomainError

ROOT = Path(__file__).resolve().parents[2]


def test_parse_cards_splits_a_board() -> None:
    assert parse_cards("AdKd3c9s4h") == ("Ad", "Kd", "3c", "9s", "4h")


def test_parse_cards_ignores_whitespace_between_cards() -> None:
    assert parse_cards(" Ad Kd\t3c ") == ("Ad", "Kd", "3c")


def test_parse_cards_of_empty_text_is_no_cards() -> None:
    assert parse_cards("") == ()


@pytest.mark.parametrize("text", ["A", "AdK", "1s", "10s", "Ax", "as", "AS", "Adkd", "  s"])
def test_parse_cards_rejects_bad_text(text: str) -> None:
    with pytest.raises(DomainError) as excinfo:
        parse_cards(text)
    assert excinfo.value.code == "bad_card"
    assert excinfo.value.status == 400
    assert excinfo.value.message == MSG_BAD_CARD


@pytest.mark.parametrize("value", [None, 7, "", "Asd", "sA"])
def test_parse_card_rejects_what_is_not_one_card(value: object) -> None:
    with pytest.raises(DomainError) as excinfo:
        parse_card(value)
    assert excinfo.value.code == "bad_card"


def test_parse_cards_rejects_a_card_used_twice() -> None:
    with pytest.raises(DomainError) as excinfo:
        parse_cards("AsKdAs")
    assert excinfo.value.code == "duplicate_card"
    assert excinfo.value.status == 400
    assert excinfo.value.message == MSG_DUPLICATE_CARD
    assert excinfo.value.fields == {"card": "As"}


def test_deck_has_52_distinct_cards() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52


def test_card_order_ranks_first_then_suit_spades_hearts_diamonds_clubs() -> None:
    # RULES 5.4
    assert card_order_key("Ks") > card_order_key("Kh") > card_order_key("Kd")
    assert card_order_key("Kd") > card_order_key("Kc")
    assert card_order_key("2s") < card_order_key("3c")
    assert card_order_key("As") == max(card_order_key(c) for c in DECK)
    assert card_order_key("2c") == min(card_order_key(c) for c in DECK)


def test_card_order_key_rejects_a_bad_card() -> None:
    with pytest.raises(DomainError) as excinfo:
        card_order_key("Zz")
    assert excinfo.value.code == "bad_card"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=0, max_size=10, unique=True))
def test_parse_cards_round_trips_any_distinct_cards(cards: list[str]) -> None:
    assert parse_cards("".join(cards)) == tuple(cards)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(DECK), st.sampled_from(DECK))
def test_card_order_is_rank_then_suit(a: str, b: str) -> None:
    ranks, suits = "23456789TJQKA", "cdhs"
    expected = (ranks.index(a[0]), suits.index(a[1])) < (
        ranks.index(b[0]),
        suits.index(b[1]),
    )
    assert (card_order_key(a) < card_order_key(b)) == expected


def test_floor_engines_import_no_django() -> None:
    code = (
        "import sys\n"
        "import tourney.engine.cards, tourney.engine.pots\n"
        "import tourney.engine.chip_race, tourney.engine.icm\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == ""
