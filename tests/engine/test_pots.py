"""Pots, side pots and showdown (RULES 6)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards

from tourney.engine.cards import DECK
from tourney.engine.errors import DomainError
from tourney.engine.pots import (
    CATEGORIES,
    MSG_ANTE_NOT_CHIP_UNIT,
    MSG_BAD_BOARD,
    MSG_BAD_HOLE_CARDS,
    MSG_DUPLICATE_SEAT,
    MSG_NO_LIVE_PLAYER,
    MSG_NOT_CHIP_UNIT,
    MSG_SHOWDOWN_MIXED,
    MSG_TOO_FEW_PLAYERS,
    MSG_UNREACHABLE_CHIPS,
    HandInfo,
    HandPlayer,
    Pot,
    category_of,
    evaluate_hand,
    forced_bets,
    settle,
    split_pot,
)

# --- the seeds' own examples -------------------------------------------------------------


def test_api_example_three_way_all_in_with_cards() -> None:
    # docs/api.md / seed 000: A 10, B 50, C 200 all in; AA makes trips and wins the main pot.
    result = settle(
        players=[
            HandPlayer(seat=1, committed=10, cards="AsAh"),
            HandPlayer(seat=2, committed=50, cards="KsKh"),
            HandPlayer(seat=3, committed=200, cards="7c2d"),
        ],
        button_seat=3,
        board="AdKd3c9s4h",
    )
    assert result.returned == {3: 150}
    assert result.pots == (
        Pot(amount=30, eligible=(1, 2, 3), winners=(1,), shares={1: 30}),
        Pot(amount=80, eligible=(2, 3), winners=(2,), shares={2: 80}),
    )
    assert result.payouts == {1: 30, 2: 80, 3: 150}
    assert result.hands[1] == HandInfo("three_of_a_kind", ("As", "Ah", "Ad", "Kd", "9s"))
    assert result.hands[2] == HandInfo("three_of_a_kind", ("Ks", "Kh", "Kd", "Ad", "9s"))
    assert result.hands[3] == HandInfo("high_card", ("Ad", "Kd", "9s", "7c", "4h"))


def test_seed_000_side_pots_when_the_big_stack_wins_everything() -> None:
    # RULES 6.3 (000): "If Player B or C has the best hand this player wins both pots".
    result = settle(
        players=[
            HandPlayer(seat=1, committed=10, rank=3),
            HandPlayer(seat=2, committed=50, rank=2),
            HandPlayer(seat=3, committed=200, rank=1),
        ],
        button_seat=1,
    )
    assert result.returned == {3: 150}
    assert [(p.amount, p.eligible, p.winners) for p in result.pots] == [
        (30, (1, 2, 3), (3,)),
        (80, (2, 3), (3,)),
    ]
    assert result.payouts == {3: 260}
    assert result.hands == {}


def test_seed_000_call_for_less_returns_the_unmatched_150() -> None:
    # RULES 6.2 (000): $200 already in the pot (100 each), you call all in for your last $50
    # against a $200 bet: "the opponent first gets $150 back", the best hand takes $300.
    result = settle(
        players=[
            HandPlayer(seat=2, committed=150, rank=1),
            HandPlayer(seat=5, committed=300, rank=2),
        ],
        button_seat=5,
    )
    assert result.returned == {5: 150}
    assert result.pots == (Pot(amount=300, eligible=(2, 5), winners=(2,), shares={2: 300}),)
    assert result.payouts == {2: 300, 5: 150}


def test_seed_001_big_blind_all_in_for_12_against_10000() -> None:
    # RULES 6.2 (001): $1/$2, the small blind folds; the $10,000 bettor takes back $9,988
    # and the best hand wins the $25 pot ($12 each plus the small blind's $1).
    result = settle(
        players=[
            HandPlayer(seat=1, committed=1, folded=True),
            HandPlayer(seat=2, committed=12, rank=1),
            HandPlayer(seat=5, committed=10_000, rank=2),
        ],
        button_seat=9,
    )
    assert result.returned == {5: 9_988}
    assert result.pots == (Pot(amount=25, eligible=(2, 5), winners=(2,), shares={2: 25}),)
    assert result.payouts == {2: 25, 5: 9_988}


def _seed_001_side_pot_players(rank5: int, rank6: int, rank7: int) -> list[HandPlayer]:
    # $40 from earlier rounds (10 each from players 5, 6, 7 and a player who later folded);
    # player 5 bets 20, player 6 calls all in for his last 10, player 7 calls 20.
    return [
        HandPlayer(seat=2, committed=10, folded=True),
        HandPlayer(seat=5, committed=30, rank=rank5),
        HandPlayer(seat=6, committed=20, rank=rank6),
        HandPlayer(seat=7, committed=30, rank=rank7),
    ]


def test_seed_001_main_pot_70_and_side_pot_20() -> None:
    # RULES 6.3 (001): folded chips stay in the main pot; the all-in player 6 plays for 70.
    result = settle(players=_seed_001_side_pot_players(2, 1, 3), button_seat=7)
    assert result.returned == {}
    assert result.pots == (
        Pot(amount=70, eligible=(5, 6, 7), winners=(6,), shares={6: 70}),
        Pot(amount=20, eligible=(5, 7), winners=(5,), shares={5: 20}),
    )
    assert result.payouts == {5: 20, 6: 70}


def test_seed_001_side_pot_player_with_the_best_hand_wins_both_pots() -> None:
    result = settle(players=_seed_001_side_pot_players(3, 2, 1), button_seat=7)
    assert result.payouts == {7: 90}
    assert 2 not in result.pots[0].eligible


# --- pots: RULES 6.2, 6.3 ----------------------------------------------------------------


def test_equal_top_commitments_return_nothing() -> None:
    result = settle(players=[HandPlayer(1, 100, rank=1), HandPlayer(2, 100, rank=2)], button_seat=1)
    assert result.returned == {}
    assert result.pots == (Pot(200, (1, 2), (1,), {1: 200}),)


def test_consecutive_layers_with_the_same_eligible_players_merge() -> None:
    # The folded player's 40 is no layer boundary: 0-40 and 40-100 have the same contenders.
    result = settle(
        players=[
            HandPlayer(1, 40, folded=True),
            HandPlayer(2, 100, rank=1),
            HandPlayer(3, 100, rank=2),
        ],
        button_seat=1,
    )
    assert result.pots == (Pot(240, (2, 3), (2,), {2: 240}),)


def test_folded_player_above_an_all_in_feeds_a_side_pot_only_the_caller_can_win() -> None:
    # C bets 100, A calls 80 and later mucks, B is all in for 50: C's 20 is uncalled.
    result = settle(
        players=[
            HandPlayer(1, 80, folded=True),
            HandPlayer(2, 50, rank=1),
            HandPlayer(3, 100, rank=2),
        ],
        button_seat=1,
    )
    assert result.returned == {3: 20}
    assert result.pots == (
        Pot(150, (2, 3), (2,), {2: 150}),
        Pot(60, (3,), (3,), {3: 60}),
    )
    assert result.payouts == {2: 150, 3: 80}


def test_uncalled_bet_of_a_player_who_folded_later_goes_back_to_them() -> None:
    result = settle(
        players=[
            HandPlayer(1, 100, folded=True),
            HandPlayer(2, 50, rank=1),
            HandPlayer(3, 30, rank=2),
        ],
        button_seat=3,
    )
    assert result.returned == {1: 50}
    assert result.pots == (Pot(90, (2, 3), (2,), {2: 90}), Pot(40, (2,), (2,), {2: 40}))


def test_everyone_else_folded_needs_no_showdown() -> None:
    result = settle(
        players=[
            HandPlayer(1, 2, folded=True),
            HandPlayer(2, 6, folded=True),
            HandPlayer(3, 6),
        ],
        button_seat=1,
    )
    assert result.payouts == {3: 14}
    assert result.pots == (Pot(14, (3,), (3,), {3: 14}),)


def test_chips_no_live_player_can_reach_are_refused() -> None:
    with pytest.raises(DomainError) as excinfo:
        settle(
            players=[
                HandPlayer(1, 100, folded=True),
                HandPlayer(2, 100, folded=True),
                HandPlayer(3, 30, rank=1),
            ],
            button_seat=1,
        )
    assert excinfo.value.code == "unreachable_chips"
    assert excinfo.value.message == MSG_UNREACHABLE_CHIPS


def test_live_player_who_committed_nothing_is_in_no_pot() -> None:
    result = settle(
        players=[
            HandPlayer(1, 0, rank=1),
            HandPlayer(2, 10, rank=2),
            HandPlayer(3, 10, rank=3),
        ],
        button_seat=1,
    )
    assert result.pots == (Pot(20, (2, 3), (2,), {2: 20}),)


# --- splits: RULES 6.5 -------------------------------------------------------------------


def test_odd_chip_goes_to_first_winner_clockwise_after_the_button() -> None:
    # Button 3: clockwise order after it is 5, then 1.
    result = settle(
        players=[
            HandPlayer(1, 12, rank=1),
            HandPlayer(3, 1, folded=True),
            HandPlayer(5, 12, rank=1),
        ],
        button_seat=3,
    )
    assert result.pots[0].shares == {5: 13, 1: 12}
    assert result.payouts == {1: 12, 5: 13}


def test_odd_chip_wraps_past_the_highest_seat() -> None:
    # Button 6: seats above it come first (none win), then from seat 1 upward.
    assert split_pot(25, (2, 4), button_seat=6, chip_unit=1) == {2: 13, 4: 12}
    assert split_pot(25, (2, 7), button_seat=6, chip_unit=1) == {7: 13, 2: 12}


def test_button_itself_gets_the_odd_chip_last() -> None:
    assert split_pot(5, (3, 4), button_seat=3, chip_unit=1) == {4: 3, 3: 2}


def test_split_in_units_of_the_smallest_chip() -> None:
    # Three winners share 500 in 25-chips: 20 units, 6 each and 2 odd units.
    assert split_pot(500, (1, 4, 8), button_seat=4, chip_unit=25) == {
        8: 175,
        1: 175,
        4: 150,
    }


def test_each_pot_is_split_separately() -> None:
    # RULES 6.5 (003): the main and the side pot each leave one odd unit.
    result = settle(
        players=[
            HandPlayer(1, 5, rank=2),
            HandPlayer(2, 10, rank=1),
            HandPlayer(3, 10, rank=1),
            HandPlayer(4, 5, folded=True),
        ],
        button_seat=2,
    )
    assert result.pots == (
        Pot(20, (1, 2, 3), (2, 3), {3: 10, 2: 10}),
        Pot(10, (2, 3), (2, 3), {3: 5, 2: 5}),
    )
    odd = settle(
        players=[
            HandPlayer(1, 5, rank=2),
            HandPlayer(2, 13, rank=1),
            HandPlayer(3, 13, rank=1),
        ],
        button_seat=2,
    )
    assert [p.shares for p in odd.pots] == [{3: 8, 2: 7}, {3: 8, 2: 8}]


def test_three_way_tie_with_chip_unit() -> None:
    result = settle(
        players=[HandPlayer(s, 100, rank=1) for s in (2, 5, 9)],
        button_seat=5,
        chip_unit=25,
    )
    assert result.pots[0].shares == {9: 100, 2: 100, 5: 100}


# --- showdown: RULES 6.4 -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("hole", "board", "category", "best_five"),
    [
        ("AsKs", "QsJsTs2h3d", "straight_flush", ("As", "Ks", "Qs", "Js", "Ts")),
        ("9h9d", "9s9c2h5d7c", "four_of_a_kind", ("9s", "9h", "9d", "9c", "7c")),
        ("8h8d", "8s5c5h2dKc", "full_house", ("8s", "8h", "8d", "5h", "5c")),
        ("Ah3h", "Kh9h2h5s7c", "flush", ("Ah", "Kh", "9h", "3h", "2h")),
        ("9c8d", "7h6s5dKcKd", "straight", ("9c", "8d", "7h", "6s", "5d")),
        ("Tc8d", "7h6s9dKcQd", "straight", ("Tc", "9d", "8d", "7h", "6s")),
        ("QcQd", "Qh6s9d2c3d", "three_of_a_kind", ("Qh", "Qd", "Qc", "9d", "6s")),
        ("AcKd", "Ah6sKs2c3d", "two_pair", ("Ah", "Ac", "Ks", "Kd", "6s")),
        ("Jc4d", "Jh6s9d2cKd", "pair", ("Jh", "Jc", "Kd", "9d", "6s")),
        ("Ac4d", "Jh6s9d2cKd", "high_card", ("Ac", "Kd", "Jh", "9d", "6s")),
    ],
)
def test_every_hand_category(
    hole: str, board: str, category: str, best_five: tuple[str, ...]
) -> None:
    _, info = evaluate_hand((hole[:2], hole[2:]), tuple(board[i : i + 2] for i in range(0, 10, 2)))
    assert info == HandInfo(category, best_five)


def test_royal_flush_is_a_straight_flush() -> None:
    _, info = evaluate_hand(("Ah", "Kh"), ("Qh", "Jh", "Th", "2c", "2d"))
    assert info == HandInfo("straight_flush", ("Ah", "Kh", "Qh", "Jh", "Th"))


def test_wheel_a_2_3_4_5_is_a_straight_ending_with_the_ace() -> None:
    _, info = evaluate_hand(("As", "2d"), ("3c", "4h", "5s", "9d", "Kc"))
    assert info == HandInfo("straight", ("5s", "4h", "3c", "2d", "As"))


def test_steel_wheel_is_a_straight_flush() -> None:
    _, info = evaluate_hand(("Ad", "2d"), ("3d", "4d", "5d", "9s", "Kc"))
    assert info == HandInfo("straight_flush", ("5d", "4d", "3d", "2d", "Ad"))


def test_straights_do_not_wrap_around() -> None:
    # RULES 6.4 (000): Q-K-A-2-3 is not a straight.
    _, info = evaluate_hand(("Qs", "Kd"), ("Ah", "2c", "3d", "8s", "9h"))
    assert info == HandInfo("high_card", ("Ah", "Kd", "Qs", "9h", "8s"))


def test_kicker_decides_between_equal_pairs() -> None:
    # Seed 001: AsQc beats AcJs on Ah Kd 5s 7s 2d (same pair of aces, better kicker).
    result = settle(
        players=[HandPlayer(1, 50, cards="AsQc"), HandPlayer(2, 50, cards="AcJs")],
        button_seat=2,
        board="AhKd5s7s2d",
    )
    assert result.payouts == {1: 100}
    assert result.hands[1] == HandInfo("pair", ("As", "Ah", "Kd", "Qc", "7s"))
    assert result.hands[2] == HandInfo("pair", ("Ah", "Ac", "Kd", "Js", "7s"))


def test_same_two_pair_and_kicker_split_regardless_of_suits() -> None:
    # Seed 001: KsJh and KcQs on Ah Kd 5s 5c 2s both make A-K-K-5-5.
    result = settle(
        players=[HandPlayer(1, 50, cards="KsJh"), HandPlayer(2, 50, cards="KcQs")],
        button_seat=1,
        board="AhKd5s5c2s",
    )
    assert result.pots[0].winners == (1, 2)
    assert result.payouts == {1: 50, 2: 50}
    assert result.hands[1].category == "two_pair"


def test_playing_the_board_splits_the_pot() -> None:
    # Seed 001: board Ah Kd 5s 5c Ks; Q-J and 4-4 both play K-K-5-5-A from the board.
    result = settle(
        players=[HandPlayer(3, 20, cards="QsJc"), HandPlayer(4, 21, cards="4c4s")],
        button_seat=4,
        board="AhKd5s5cKs",
    )
    assert result.returned == {4: 1}
    assert result.pots[0].winners == (3, 4)
    assert result.hands[3] == HandInfo("two_pair", ("Ks", "Kd", "5s", "5c", "Ah"))
    assert result.hands[4].best_five == ("Ks", "Kd", "5s", "5c", "Ah")


def test_higher_flush_beats_a_flush_on_the_board() -> None:
    result = settle(
        players=[
            HandPlayer(1, 10, cards="Ah3c"),
            HandPlayer(2, 10, cards="7c8d"),
            HandPlayer(3, 10, cards="4hQc"),
        ],
        button_seat=1,
        board="2h5h9hJhKh",
    )
    assert result.hands[1] == HandInfo("flush", ("Ah", "Kh", "Jh", "9h", "5h"))
    assert result.hands[2] == HandInfo("flush", ("Kh", "Jh", "9h", "5h", "2h"))
    assert result.hands[3] == HandInfo("flush", ("Kh", "Jh", "9h", "5h", "4h"))
    assert result.payouts == {1: 30}


def test_flush_on_board_beaten_only_by_a_higher_card_of_the_suit() -> None:
    result = settle(
        players=[HandPlayer(1, 10, cards="4hQc"), HandPlayer(2, 10, cards="7c8d")],
        button_seat=2,
        board="2h5h9hJhKh",
    )
    assert result.payouts == {1: 20}


def test_category_boundaries_of_phevaluator_ranks() -> None:
    edges = {
        ("As", "Ks", "Qs", "Js", "Ts"): "straight_flush",
        ("5s", "4s", "3s", "2s", "As"): "straight_flush",
        ("As", "Ac", "Ah", "Ad", "Ks"): "four_of_a_kind",
        ("2s", "2c", "2h", "2d", "3s"): "four_of_a_kind",
        ("As", "Ac", "Ah", "Kd", "Ks"): "full_house",
        ("2s", "2c", "2h", "3d", "3s"): "full_house",
        ("As", "Ks", "Qs", "Js", "9s"): "flush",
        ("7s", "5s", "4s", "3s", "2s"): "flush",
        ("As", "Kc", "Qs", "Js", "Ts"): "straight",
        ("5s", "4s", "3s", "2s", "Ac"): "straight",
        ("As", "Ac", "Ah", "Kd", "Qs"): "three_of_a_kind",
        ("2s", "2c", "2h", "4d", "3s"): "three_of_a_kind",
        ("As", "Ac", "Kh", "Kd", "Qs"): "two_pair",
        ("3s", "3c", "2h", "2d", "4s"): "two_pair",
        ("As", "Ac", "Kh", "Qd", "Js"): "pair",
        ("2s", "2c", "5h", "4d", "3s"): "pair",
        ("As", "Kc", "Qh", "Jd", "9s"): "high_card",
        ("7s", "5c", "4h", "3d", "2s"): "high_card",
    }
    for cards, category in edges.items():
        assert category_of(evaluate_cards(*cards)) == category, cards
    assert category_of(1) == "straight_flush"
    assert category_of(7462) == "high_card"
    assert CATEGORIES[0] == "high_card"
    assert CATEGORIES[-1] == "straight_flush"


# --- bad input ---------------------------------------------------------------------------


def _code(**kwargs: object) -> DomainError:
    with pytest.raises(DomainError) as excinfo:
        settle(**kwargs)  # type: ignore[arg-type]
    assert excinfo.value.status == 400
    return excinfo.value


def test_commitment_not_a_multiple_of_the_chip_unit_is_refused() -> None:
    err = _code(
        players=[HandPlayer(1, 25, rank=1), HandPlayer(2, 30, rank=2)],
        button_seat=1,
        chip_unit=25,
    )
    assert err.code == "not_chip_unit"
    assert err.message == MSG_NOT_CHIP_UNIT
    assert err.fields == {"seat": 2, "committed": 30}


def test_one_player_is_refused() -> None:
    err = _code(players=[HandPlayer(1, 25, rank=1)], button_seat=1)
    assert (err.code, err.message) == ("too_few_players", MSG_TOO_FEW_PLAYERS)


def test_duplicate_seats_are_refused() -> None:
    err = _code(players=[HandPlayer(1, 25, rank=1), HandPlayer(1, 25, rank=2)], button_seat=1)
    assert (err.code, err.message) == ("duplicate_seat", MSG_DUPLICATE_SEAT)


def test_everyone_folded_is_refused() -> None:
    err = _code(
        players=[HandPlayer(1, 25, folded=True), HandPlayer(2, 25, folded=True)],
        button_seat=1,
    )
    assert (err.code, err.message) == ("no_live_player", MSG_NO_LIVE_PLAYER)


@pytest.mark.parametrize(
    "players",
    [
        [HandPlayer(1, 10, cards="AsAh"), HandPlayer(2, 10, rank=1)],
        [HandPlayer(1, 10, cards="AsAh"), HandPlayer(2, 10)],
        [HandPlayer(1, 10, rank=1), HandPlayer(2, 10)],
        [
            HandPlayer(1, 10, rank=1, cards="AsAh"),
            HandPlayer(2, 10, rank=2, cards="KsKh"),
        ],
    ],
)
def test_mixing_cards_and_ranks_is_refused(players: list[HandPlayer]) -> None:
    err = _code(players=players, button_seat=1, board="2c3c4d8h9h")
    assert (err.code, err.message) == ("showdown_mixed", MSG_SHOWDOWN_MIXED)


@pytest.mark.parametrize("board", [None, "2c3c4d8h", "2c3c4d8h9hTh"])
def test_cards_need_a_five_card_board(board: str | None) -> None:
    err = _code(
        players=[HandPlayer(1, 10, cards="AsAh"), HandPlayer(2, 10, cards="KsKh")],
        button_seat=1,
        board=board,
    )
    assert (err.code, err.message) == ("bad_board", MSG_BAD_BOARD)


def test_hole_cards_must_be_two() -> None:
    err = _code(
        players=[HandPlayer(1, 10, cards="AsAhAd"), HandPlayer(2, 10, cards="KsKh")],
        button_seat=1,
        board="2c3c4d8h9h",
    )
    assert (err.code, err.message) == ("bad_hole_cards", MSG_BAD_HOLE_CARDS)


def test_a_card_in_two_hands_is_refused() -> None:
    err = _code(
        players=[HandPlayer(1, 10, cards="AsAh"), HandPlayer(2, 10, cards="KsAs")],
        button_seat=1,
        board="2c3c4d8h9h",
    )
    assert err.code == "duplicate_card"


def test_a_hole_card_also_on_the_board_is_refused() -> None:
    err = _code(
        players=[HandPlayer(1, 10, cards="AsAh"), HandPlayer(2, 10, cards="KsKh")],
        button_seat=1,
        board="2c3c4d8hAs",
    )
    assert err.code == "duplicate_card"


def test_bad_card_text_is_refused() -> None:
    err = _code(
        players=[HandPlayer(1, 10, cards="AsAx"), HandPlayer(2, 10, cards="KsKh")],
        button_seat=1,
        board="2c3c4d8h9h",
    )
    assert err.code == "bad_card"


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"chip_unit": 0}, "bad_chip_unit"),
        ({"button_seat": 0}, "bad_button"),
        (
            {"players": [HandPlayer(0, 10, rank=1), HandPlayer(2, 10, rank=1)]},
            "bad_seat",
        ),
        (
            {"players": [HandPlayer(1, -10, rank=1), HandPlayer(2, 10, rank=1)]},
            "bad_committed",
        ),
        (
            {"players": [HandPlayer(1, 10, rank=0), HandPlayer(2, 10, rank=1)]},
            "bad_rank",
        ),
    ],
)
def test_bad_numbers_are_refused(kwargs: dict[str, object], code: str) -> None:
    base: dict[str, object] = {
        "players": [HandPlayer(1, 10, rank=1), HandPlayer(2, 10, rank=2)],
        "button_seat": 1,
    }
    assert _code(**(base | kwargs)).code == code


# --- RULES 6.5: one odd unit per player per hand ------------------------------------------


def test_no_player_takes_the_odd_unit_of_two_pots_in_one_hand() -> None:
    # Button 1; seats 2 and 3 tie with 21 each, seat 6 (11) loses, seats 4 (5) and 5 (16)
    # folded. Side pot 25 (2, 3): 13/12, its odd unit to seat 2 (first after the button). Main
    # pot 49 (2, 3, 6): 24 each and the odd unit to seat 3, not to seat 2 again: 37 each.
    result = settle(
        players=[
            HandPlayer(seat=2, committed=21, rank=1),
            HandPlayer(seat=3, committed=21, rank=1),
            HandPlayer(seat=4, committed=5, folded=True),
            HandPlayer(seat=5, committed=16, folded=True),
            HandPlayer(seat=6, committed=11, rank=2),
        ],
        button_seat=1,
    )
    assert result.pots == (
        Pot(amount=49, eligible=(2, 3, 6), winners=(2, 3), shares={2: 24, 3: 25}),
        Pot(amount=25, eligible=(2, 3), winners=(2, 3), shares={2: 13, 3: 12}),
    )
    assert result.payouts == {2: 37, 3: 37}


def test_when_every_winner_has_had_an_odd_unit_the_order_starts_again() -> None:
    # Two winners, three pots with an odd unit each: seat 2 (first after the button) takes
    # the last side pot's, seat 3 the middle one's, and the main pot's goes clockwise again.
    result = settle(
        players=[
            HandPlayer(seat=2, committed=30, rank=1),
            HandPlayer(seat=3, committed=30, rank=1),
            HandPlayer(seat=4, committed=10, rank=2),
            HandPlayer(seat=5, committed=20, rank=2),
            HandPlayer(seat=6, committed=11, folded=True),
            HandPlayer(seat=7, committed=5, folded=True),
            HandPlayer(seat=8, committed=25, folded=True),
        ],
        button_seat=1,
    )
    main, side, last = result.pots
    assert last.amount == 25 and last.shares == {2: 13, 3: 12}  # 10 + 10 + 5 folded
    assert side.amount == 41 and side.shares == {2: 20, 3: 21}  # 10 + 10 + 10 + 1 + 10
    assert main.amount == 65 and main.shares == {2: 33, 3: 32}  # both had one: seat 2 again
    assert split_pot(5, (2, 3), 1, 1, had_odd={2, 3}) == {2: 3, 3: 2}
    assert split_pot(5, (2, 3), 1, 1, had_odd={2}) == {2: 2, 3: 3}


# --- RULES 6.6: antes are dead money ------------------------------------------------------


def test_the_big_blind_ante_is_not_returned_as_uncalled() -> None:
    # Blinds 100/200, big-blind ante 200, button seat 1: the small blind (2) folds 100; the big
    # blind (3) posts the 200 ante and puts in 500; seat 4 puts in 500 and wins: 1,300 to seat
    # 4, nothing returned (entered as part of ``committed`` the ante came back as "uncalled").
    result = settle(
        players=[
            HandPlayer(seat=2, committed=100, folded=True),
            HandPlayer(seat=3, committed=500, ante=200, rank=2),
            HandPlayer(seat=4, committed=500, rank=1),
        ],
        button_seat=1,
    )
    assert result.returned == {}
    assert result.pots == (Pot(amount=1300, eligible=(3, 4), winners=(4,), shares={4: 1300}),)
    assert result.payouts == {4: 1300}


def test_a_folded_big_blind_gets_no_ante_back() -> None:
    # The big blind posts 200 ante + 200 blind and folds to a 300 shove: seat 4 receives 800
    # (700 pot + 100 uncalled), nothing goes back to the folded big blind.
    result = settle(
        players=[
            HandPlayer(seat=2, committed=100, folded=True),
            HandPlayer(seat=3, committed=200, ante=200, folded=True),
            HandPlayer(seat=4, committed=300),
        ],
        button_seat=1,
    )
    assert result.returned == {4: 100}
    assert result.pots == (Pot(amount=700, eligible=(4,), winners=(4,), shares={4: 700}),)
    assert result.payouts == {4: 800}


def test_a_player_all_in_on_the_ante_alone_plays_for_the_antes_only() -> None:
    # Classic antes of 25 from four players; seat 3 had only the ante and is all in on it. The
    # antes (100) are a pot of their own ahead of the main pot, which seat 3 cannot win.
    result = settle(
        players=[
            HandPlayer(seat=2, committed=50, ante=25, folded=True),
            HandPlayer(seat=3, committed=0, ante=25, rank=1),
            HandPlayer(seat=4, committed=100, ante=25, rank=2),
            HandPlayer(seat=5, committed=100, ante=25, rank=3),
        ],
        button_seat=1,
    )
    assert result.pots == (
        Pot(amount=100, eligible=(3, 4, 5), winners=(3,), shares={3: 100}),
        Pot(amount=250, eligible=(4, 5), winners=(4,), shares={4: 250}),
    )
    assert result.payouts == {3: 100, 4: 250}


def test_a_big_blind_too_short_for_both_covers_the_ante_first() -> None:
    assert forced_bets(150, ante=200, blind=200) == (150, 0)
    assert forced_bets(300, ante=200, blind=200) == (200, 100)
    assert forced_bets(5000, ante=200, blind=200) == (200, 200)
    assert forced_bets(5000, ante=25) == (25, 0)
    assert forced_bets(0, ante=25, blind=50) == (0, 0)


def test_an_ante_must_be_whole_units_and_not_negative() -> None:
    base = [HandPlayer(1, 10, rank=1), HandPlayer(2, 10, rank=2)]
    with pytest.raises(DomainError) as err:
        settle(players=[HandPlayer(1, 10, rank=1, ante=-5), base[1]], button_seat=1)
    assert err.value.code == "bad_ante"
    with pytest.raises(DomainError) as err:
        settle(players=[HandPlayer(1, 10, rank=1, ante=3), base[1]], button_seat=1, chip_unit=5)
    assert err.value.code == "not_chip_unit" and err.value.message == MSG_ANTE_NOT_CHIP_UNIT


# --- properties --------------------------------------------------------------------------


@st.composite
def hands(draw: st.DrawFn, with_cards: bool = False) -> dict[str, object]:
    unit = draw(st.sampled_from([1, 5, 25]))
    n = draw(st.integers(min_value=2, max_value=9))
    seats = draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True))
    deck = draw(st.permutations(DECK)) if with_cards else DECK
    players = []
    for i, seat in enumerate(seats):
        committed = draw(st.integers(0, 40)) * unit
        folded = draw(st.booleans()) if i else False
        if with_cards:
            players.append(HandPlayer(seat, committed, folded, cards=deck[2 * i] + deck[2 * i + 1]))
        else:
            players.append(HandPlayer(seat, committed, folded, rank=draw(st.integers(1, 3))))
    # Make the hand possible: the top live commitment reaches the second-highest overall.
    top = sorted((p.committed for p in players), reverse=True)[1]
    live = players[0]
    players[0] = HandPlayer(live.seat, max(live.committed, top), False, live.cards, live.rank)
    board = "".join(deck[18:23]) if with_cards else None
    return {
        "players": players,
        "button_seat": draw(st.integers(1, 10)),
        "chip_unit": unit,
        "board": board,
    }


def _check_invariants(hand: dict[str, object]) -> None:
    players: list[HandPlayer] = hand["players"]  # type: ignore[assignment]
    unit: int = hand["chip_unit"]  # type: ignore[assignment]
    result = settle(**hand)  # type: ignore[arg-type]
    committed = {p.seat: p.committed for p in players}
    total = sum(committed.values())
    live = {p.seat for p in players if not p.folded}

    assert sum(p.amount for p in result.pots) + sum(result.returned.values()) == total
    assert sum(result.payouts.values()) == total
    assert len(result.returned) <= 1
    for pot in result.pots:
        assert pot.amount > 0
        assert set(pot.eligible) <= live
        assert set(pot.winners) <= set(pot.eligible)
        assert sum(pot.shares.values()) == pot.amount
        # RULES 6.5: equal shares plus at most one odd unit each.
        assert max(pot.shares.values()) - min(pot.shares.values()) <= unit
        assert all(v % unit == 0 for v in pot.shares.values())
        assert pot.amount % unit == 0
    # Eligible sets shrink from the main pot outward.
    for inner, outer in zip(result.pots, result.pots[1:], strict=False):
        assert set(outer.eligible) < set(inner.eligible)
    assert all(v > 0 and v % unit == 0 for v in result.payouts.values())
    assert all(v % unit == 0 for v in result.returned.values())
    # Nobody wins more from any opponent than they committed themselves.
    for seat, own in committed.items():
        won = result.payouts.get(seat, 0) - result.returned.get(seat, 0)
        assert won <= sum(min(c, own) for c in committed.values())
    # The same, pot by pot: each pot is one band (lo, hi] of what the players committed
    # (RULES 6.3), and every player eligible for it, so every winner, put the whole band in;
    # no opponent's chips in the pot are more than the winner's own.
    lo = 0
    for pot in result.pots:
        bands = {
            hi: {s: max(0, min(c, hi) - lo) for s, c in committed.items()}
            for hi in sorted(set(committed.values()))
            if hi > lo
        }
        (hi,) = [hi for hi, band in bands.items() if sum(band.values()) == pot.amount]
        band = bands[hi]
        for seat in pot.eligible:
            assert band[seat] == hi - lo
        for seat in pot.winners:
            assert pot.shares[seat] <= pot.amount
            assert all(band[other] <= band[seat] for other in committed)
        lo = hi
    # Above the last pot only the uncalled chips are left, and they go back (RULES 6.2).
    assert sum(max(0, c - lo) for c in committed.values()) == sum(result.returned.values())
    # A folded player gets back at most uncalled chips.
    for p in players:
        if p.folded:
            assert result.payouts.get(p.seat, 0) == result.returned.get(p.seat, 0)


@settings(max_examples=200, deadline=None)
@given(hands())
def test_pot_invariants_with_ranks(hand: dict[str, object]) -> None:
    _check_invariants(hand)


@settings(max_examples=100, deadline=None)
@given(hands(with_cards=True))
def test_pot_invariants_with_cards(hand: dict[str, object]) -> None:
    _check_invariants(hand)


def _check_one_odd_unit_each(result) -> None:
    """RULES 6.5 pot by pot, in the order they are split (the last side pot first): a winner
    of a pot takes a second odd unit of the hand only when every winner of that pot has had
    one (a player who won a pot alone had no odd unit to take)."""
    had: Counter = Counter()
    for pot in reversed(result.pots):
        low = min(pot.shares.values())
        got = {seat for seat, share in pot.shares.items() if share > low}
        before = {w for w in pot.winners if had[w]}
        if got & before:
            assert all(w in got or w in before for w in pot.winners), (pot, dict(had))
        had.update(got)


@st.composite
def hands_with_antes(draw: st.DrawFn, with_cards: bool = False) -> dict[str, object]:
    hand = draw(hands(with_cards=with_cards))
    unit: int = hand["chip_unit"]  # type: ignore[assignment]
    hand["players"] = [
        HandPlayer(p.seat, p.committed, p.folded, p.cards, p.rank, draw(st.integers(0, 8)) * unit)
        for p in hand["players"]  # type: ignore[attr-defined]
    ]
    return hand


@settings(max_examples=300, deadline=None)
@given(hands_with_antes())
def test_antes_are_dead_money_and_chips_are_conserved(hand: dict[str, object]) -> None:
    """RULES 6.6 and 6.5 over random hands: every chip in (antes included) comes out; the
    antes never come back as uncalled; a folded player gets back only uncalled bets; no player
    takes two odd units while a winner of the hand has none."""
    players: list[HandPlayer] = hand["players"]  # type: ignore[assignment]
    result = settle(**hand)  # type: ignore[arg-type]
    antes = sum(p.ante for p in players)
    total = sum(p.committed for p in players) + antes
    assert sum(result.payouts.values()) == total
    assert sum(p.amount for p in result.pots) + sum(result.returned.values()) == total
    without = settle(
        **(
            hand
            | {
                "players": [
                    HandPlayer(p.seat, p.committed, p.folded, p.cards, p.rank) for p in players
                ]
            }
        )
    )  # type: ignore[arg-type]
    assert result.returned == without.returned  # antes change no uncalled bet
    live = {p.seat for p in players if not p.folded}
    if antes:
        assert set(result.pots[0].eligible) == live  # the first pot holds the antes: all live
    for p in players:
        if p.folded:
            assert result.payouts.get(p.seat, 0) == result.returned.get(p.seat, 0)
    _check_one_odd_unit_each(result)


@settings(max_examples=300, deadline=None)
@given(hands())
def test_no_player_takes_two_odd_units_while_a_winner_of_the_pot_has_none(
    hand: dict[str, object],
) -> None:
    _check_one_odd_unit_each(settle(**hand))  # type: ignore[arg-type]


def _naive_category(five: tuple[str, ...]) -> str:
    """An independent classifier of five cards, to check phevaluator's rank ranges."""
    ranks = sorted(("23456789TJQKA".index(c[0]) for c in five), reverse=True)
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = len({c[1] for c in five}) == 1
    distinct = sorted(set(ranks))
    straight = len(distinct) == 5 and (
        distinct[-1] - distinct[0] == 4 or distinct == [0, 1, 2, 3, 12]
    )
    if straight and flush:
        return "straight_flush"
    if counts[0] == 4:
        return "four_of_a_kind"
    if counts[:2] == [3, 2]:
        return "full_house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three_of_a_kind"
    if counts[:2] == [2, 2]:
        return "two_pair"
    if counts[0] == 2:
        return "pair"
    return "high_card"


@settings(max_examples=200, deadline=None)
@given(st.permutations(DECK))
def test_best_five_is_the_best_subset_and_category_matches(deck: list[str]) -> None:
    hole, board = tuple(deck[:2]), tuple(deck[2:7])
    rank, info = evaluate_hand(hole, board)
    assert rank == min(evaluate_cards(*five) for five in combinations(hole + board, 5))
    assert len(set(info.best_five)) == 5
    assert set(info.best_five) <= set(hole + board)
    assert evaluate_cards(*info.best_five) == rank
    assert info.category == _naive_category(info.best_five)
    assert info.category in CATEGORIES
