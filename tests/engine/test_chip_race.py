"""Color-up and the odd-chip race (RULES 5)."""

from __future__ import annotations

import random

import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st

from tourney.engine.cards import DECK
from tourney.engine.chip_race import (
    MSG_BAD_THRESHOLD,
    MSG_CARDS_COUNT,
    MSG_NO_DEAL,
    MSG_NOT_MULTIPLE,
    MSG_RACE_TOO_BIG,
    MSG_REMOVE_LAST,
    MSG_UNKNOWN_REMOVE,
    RaceOutcome,
    RacePlayer,
    RaceResult,
    color_up,
    color_up_many,
    stack_value,
)
from tourney.engine.errors import DomainError

DENOMS = (25, 100, 500)


def _race(players: list[RacePlayer], **kwargs: object) -> RaceResult:
    args: dict[str, object] = {"denominations": DENOMS, "remove": 25, "players": players}
    return color_up(**(args | kwargs))  # type: ignore[arg-type]


def _by_seat(result: RaceResult) -> dict[int, RaceOutcome]:
    return {o.seat: o for o in result.players}


def test_api_example_with_the_dealers_cards() -> None:
    result = _race(
        [RacePlayer(1, {25: 7, 100: 12, 500: 3}), RacePlayer(4, {25: 3})],
        cards={1: ["As", "7d", "Kc"], 4: ["2h", "2c", "9s"]},
    )
    assert result == RaceResult(
        remove=25,
        unit=100,
        awarded=2,
        value_removed=0,
        value_added=50,
        players=(
            RaceOutcome(1, 3, ("As", "7d", "Kc"), 1, False, {100: 14, 500: 3}),
            RaceOutcome(4, 3, ("2h", "2c", "9s"), 1, False, {100: 1}),
        ),
    )


def test_api_example_with_a_seed_replays_the_same_deal() -> None:
    players = [RacePlayer(1, {25: 7, 100: 12, 500: 3}), RacePlayer(4, {25: 3})]
    first = _race(players, rng=random.Random(12345))
    again = _race(players, rng=random.Random(12345))
    assert first == again
    assert (first.unit, first.awarded, first.value_removed, first.value_added) == (100, 2, 0, 50)
    assert [len(o.cards) for o in first.players] == [3, 3]


def test_different_seeds_can_deal_different_cards() -> None:
    players = [RacePlayer(1, {25: 3}), RacePlayer(2, {25: 3})]
    deals = {tuple(o.cards for o in _race(players, rng=random.Random(s)).players) for s in range(5)}
    assert len(deals) > 1


# RULES 5.2
def test_direct_change_up_at_equal_value_leaves_the_odd_chips() -> None:
    result = _race([RacePlayer(1, {25: 9, 500: 1}), RacePlayer(2, {25: 8})], rng=random.Random(1))
    seats = _by_seat(result)
    assert seats[1].odd_chips == 1
    assert seats[2].odd_chips == 0
    assert seats[2].cards == ()
    assert seats[2].chips == {100: 2}
    # T = 25 < 50: no chip, the 25 leaves play.
    assert seats[1].chips == {100: 2, 500: 1}
    assert (result.awarded, result.value_removed, result.value_added) == (0, 25, 0)


def test_no_odd_chips_needs_no_deal() -> None:
    result = _race([RacePlayer(1, {25: 8}), RacePlayer(2, {100: 3})])
    assert [o.chips for o in result.players] == [{100: 2}, {100: 3}]
    assert (result.awarded, result.value_removed, result.value_added) == (0, 0, 0)


# RULES 5.3
def test_cards_are_dealt_from_one_shuffled_deck_seat_by_seat() -> None:
    players = [RacePlayer(7, {25: 2}), RacePlayer(2, {25: 3}), RacePlayer(4, {25: 1})]
    result = _race(players, rng=random.Random(99))
    deck = list(DECK)
    random.Random(99).shuffle(deck)
    assert [o.seat for o in result.players] == [2, 4, 7]
    assert [o.cards for o in result.players] == [tuple(deck[0:3]), (deck[3],), tuple(deck[4:6])]


def test_race_needing_more_than_52_cards_is_refused() -> None:
    players = [RacePlayer(seat, {25: 3}) for seat in range(1, 19)]  # 54 cards
    with pytest.raises(DomainError) as excinfo:
        _race(players, rng=random.Random(1))
    assert (excinfo.value.code, excinfo.value.status) == ("race_too_big", 400)
    assert excinfo.value.message == MSG_RACE_TOO_BIG


def test_race_of_exactly_52_cards_runs() -> None:
    players = [RacePlayer(seat, {25: 3}) for seat in range(1, 18)] + [RacePlayer(18, {25: 1})]
    result = _race(players, rng=random.Random(1))
    assert sorted(c for o in result.players for c in o.cards) == sorted(DECK)


# RULES 5.4 and 5.5
def test_best_card_wins_and_suit_breaks_rank_ties() -> None:
    # T = 3 x 50 = 150: one chip; Ks beats Kh (suit), which beats Qs.
    result = _race(
        [RacePlayer(1, {25: 2, 100: 1}), RacePlayer(2, {25: 2, 100: 1}), RacePlayer(3, {25: 2})],
        cards={1: ["Kh", "2c"], 2: ["3d", "Ks"], 3: ["Qs", "Jc"]},
        threshold="more_than_half",
    )
    assert [o.won for o in result.players] == [0, 1, 0]
    assert (result.awarded, result.value_removed) == (1, 50)
    # Seat 3 had only odd chips and won nothing: RULES 5.7.
    assert _by_seat(result)[3].protected is True


def test_at_most_one_chip_per_player() -> None:
    # T = 4 x 75 = 300 = 3 chips of 100; the best card wins only one of them.
    result = _race(
        [RacePlayer(s, {25: 3, 500: 1}) for s in (1, 2, 3, 4)],
        cards={
            1: ["As", "Ah", "Ad"],
            2: ["2c", "3c", "4c"],
            3: ["Kc", "5c", "6c"],
            4: ["Qs", "7c", "8c"],
        },
    )
    assert [o.won for o in result.players] == [1, 0, 1, 1]
    assert (result.awarded, result.value_removed, result.value_added) == (3, 0, 0)


# RULES 5.6
def test_leftover_of_exactly_half_wins_a_chip_with_half_or_more() -> None:
    players = [RacePlayer(1, {25: 1, 100: 1}), RacePlayer(2, {25: 1, 100: 1})]
    cards = {1: ["As"], 2: ["Ks"]}
    result = _race(players, cards=cards, threshold="half_or_more")
    assert [o.won for o in result.players] == [1, 0]
    assert (result.awarded, result.value_removed, result.value_added) == (1, 0, 50)


def test_leftover_of_exactly_half_leaves_play_with_more_than_half() -> None:
    players = [RacePlayer(1, {25: 1, 100: 1}), RacePlayer(2, {25: 1, 100: 1})]
    cards = {1: ["As"], 2: ["Ks"]}
    result = _race(players, cards=cards, threshold="more_than_half")
    assert [o.won for o in result.players] == [0, 0]
    assert [o.chips for o in result.players] == [{100: 1}, {100: 1}]
    assert (result.awarded, result.value_removed, result.value_added) == (0, 50, 0)


def test_leftover_above_half_wins_with_either_threshold() -> None:
    players = [RacePlayer(1, {25: 2, 100: 1}), RacePlayer(2, {25: 1, 100: 1})]
    cards = {1: ["2s", "3s"], 2: ["Ks"]}
    for threshold in ("half_or_more", "more_than_half"):
        result = _race(players, cards=cards, threshold=threshold)
        assert [o.won for o in result.players] == [0, 1]
        assert (result.awarded, result.value_removed, result.value_added) == (1, 0, 25)


def test_leftover_below_half_leaves_play() -> None:
    players = [
        RacePlayer(1, {25: 3, 500: 1}),
        RacePlayer(2, {25: 3, 500: 1}),
        RacePlayer(3, {25: 4}),
    ]
    result = _race(
        players,
        cards={1: ["As", "2c", "3c"], 2: ["Ks", "4c", "5c"]},
        threshold="more_than_half",
    )
    # Seat 3's four 25s change up directly; T = 150: one chip to seat 1, 50 leaves play.
    assert [o.won for o in result.players] == [1, 0, 0]
    assert _by_seat(result)[3].chips == {100: 1}
    assert (result.awarded, result.value_removed, result.value_added) == (1, 50, 0)


# RULES 5.7
def test_player_with_only_odd_chips_is_not_raced_out() -> None:
    result = _race(
        [RacePlayer(1, {25: 3, 100: 5}), RacePlayer(2, {25: 1})],
        cards={1: ["As", "Kd", "Qc"], 2: ["2c"]},
    )
    seats = _by_seat(result)
    # T = 100: seat 1 wins the chip; seat 2 had one 25 and nothing else.
    assert (seats[1].won, seats[1].protected, seats[1].chips) == (1, False, {100: 6})
    assert (seats[2].won, seats[2].protected, seats[2].chips) == (0, True, {100: 1})
    assert (result.awarded, result.value_removed, result.value_added) == (1, 0, 100)


def test_player_with_other_chips_who_loses_is_not_protected() -> None:
    result = _race(
        [RacePlayer(1, {25: 3}), RacePlayer(2, {25: 1, 500: 1})],
        cards={1: ["As", "Kd", "Qc"], 2: ["2c"]},
    )
    seats = _by_seat(result)
    assert (seats[2].won, seats[2].protected, seats[2].chips) == (0, False, {500: 1})


def test_player_whose_odd_chips_won_is_not_protected() -> None:
    result = _race(
        [RacePlayer(1, {25: 3}), RacePlayer(2, {25: 1, 500: 1})],
        cards={1: ["As", "Kd", "Qc"], 2: ["2c"]},
    )
    seats = _by_seat(result)
    assert (seats[1].won, seats[1].protected, seats[1].chips) == (1, False, {100: 1})


def test_a_stack_partly_changed_up_directly_is_not_protected() -> None:
    result = _race(
        [RacePlayer(1, {25: 5}), RacePlayer(2, {25: 3, 100: 1})],
        cards={1: ["2c"], 2: ["As", "Kd", "Qc"]},
    )
    seats = _by_seat(result)
    assert (seats[1].won, seats[1].protected, seats[1].chips) == (0, False, {100: 1})


# RULES 5.2: several denominations at one break
def test_two_denominations_race_smallest_first_into_the_next_still_in_play() -> None:
    players = [
        RacePlayer(1, {25: 7, 100: 12, 500: 3}),
        RacePlayer(4, {25: 3}),
        RacePlayer(5, {25: 2, 100: 3}),
    ]
    first, second = color_up_many(
        denominations=(25, 100, 500, 1000), remove=[100, 25], players=players, rng=random.Random(1)
    )
    assert (first.remove, first.unit) == (25, 100)
    assert (second.remove, second.unit) == (100, 500)
    # The second race starts from the first race's stacks.
    for before, after in zip(first.players, second.players, strict=True):
        assert before.seat == after.seat
        assert second_input_odd(before.chips) == after.odd_chips
    for outcome in second.players:
        assert set(outcome.chips) <= {500, 1000}
    before = sum(stack_value(p.chips) for p in players)
    after = sum(stack_value(o.chips) for o in second.players)
    added = sum(r.value_added - r.value_removed for r in (first, second))
    assert after - before == added


def test_two_denominations_worked_example_with_the_dealers_cards() -> None:
    """RULES 5.2: 25s and 100s leave at one break (chips 25, 100, 500, 1000). The 25s race
    into 100s first; the dealer then counts the 100s of the new stacks and races them into
    500s. Cards as the dealer dealt them (RULES 5.8), so every winner is known."""
    players = [
        RacePlayer(1, {25: 7, 100: 12, 500: 3}),
        RacePlayer(4, {25: 3}),
        RacePlayer(5, {25: 2, 100: 3}),
    ]
    chips = (25, 100, 500, 1000)
    # 25s: seat 1 changes four up directly (13 x 100), 3 + 3 + 2 odd = 200 = two 100s, no
    # leftover. As (seat 5) and Kd (seat 4) win one each; seat 1 has other chips: no chip.
    first = color_up(
        denominations=chips,
        remove=25,
        players=players,
        cards={1: ["2c", "3c", "4c"], 4: ["Kd", "5d", "6d"], 5: ["As", "7h"]},
    )
    assert first == RaceResult(
        remove=25,
        unit=100,
        awarded=2,
        value_removed=0,
        value_added=0,
        players=(
            RaceOutcome(1, 3, ("2c", "3c", "4c"), 0, False, {100: 13, 500: 3}),
            RaceOutcome(4, 3, ("Kd", "5d", "6d"), 1, False, {100: 1}),
            RaceOutcome(5, 2, ("As", "7h"), 1, False, {100: 4}),
        ),
    )
    # 100s into 500s: seat 1 changes ten up directly (5 x 500) and has 3 odd; seat 4's one
    # 100 and seat 5's four are their whole stacks. 800 = one 500 and 300 over, at least half
    # (RULES 5.6): two chips, to Ah (seat 1) and Ks (seat 4). Seat 5 wins none but cannot be
    # raced out (RULES 5.7): one 500 that was not in play before.
    second = color_up(
        denominations=chips[1:],
        remove=100,
        players=[RacePlayer(o.seat, o.chips) for o in first.players],
        cards={1: ["Ah", "2d", "3d"], 4: ["Ks"], 5: ["Qs", "Jh", "4h", "5h"]},
    )
    assert second == RaceResult(
        remove=100,
        unit=500,
        awarded=2,
        value_removed=0,
        value_added=(500 - 300) + 500,  # the extra chip's top-up and the protection chip
        players=(
            RaceOutcome(1, 3, ("Ah", "2d", "3d"), 1, False, {500: 6}),
            RaceOutcome(4, 1, ("Ks",), 1, False, {500: 1}),
            RaceOutcome(5, 4, ("Qs", "Jh", "4h", "5h"), 0, True, {500: 1}),
        ),
    )
    before = sum(stack_value(p.chips) for p in players)
    assert (before, sum(stack_value(o.chips) for o in second.players)) == (3300, 4000)


def test_color_up_many_is_the_races_one_after_the_other() -> None:
    """The seeded ``color_up_many`` deals cards; raced one at a time with those cards as the
    dealer's, the same chips go to the same players."""
    players = [
        RacePlayer(1, {25: 7, 100: 12, 500: 3}),
        RacePlayer(4, {25: 3}),
        RacePlayer(5, {25: 2, 100: 3}),
    ]
    chips = (25, 100, 500, 1000)
    results = color_up_many(
        denominations=chips, remove=[25, 100], players=players, rng=random.Random(7)
    )
    stacks = players
    for result, in_play in zip(results, (chips, chips[1:]), strict=True):
        again = color_up(
            denominations=in_play,
            remove=result.remove,
            players=stacks,
            cards={o.seat: list(o.cards) for o in result.players},
        )
        assert again == result
        stacks = [RacePlayer(o.seat, o.chips) for o in result.players]


def second_input_odd(chips: dict[int, int]) -> int:
    return chips.get(100, 0) % 5


def test_color_up_many_replays_with_the_same_seed() -> None:
    players = [RacePlayer(s, {25: s, 100: 2 * s}) for s in range(1, 8)]
    args = {"denominations": DENOMS, "remove": [25, 100], "players": players}
    assert color_up_many(**args, rng=random.Random(5)) == color_up_many(  # type: ignore[arg-type]
        **args, rng=random.Random(5)
    )


def test_color_up_many_cannot_remove_the_largest() -> None:
    with pytest.raises(DomainError) as excinfo:
        color_up_many(denominations=DENOMS, remove=[25, 100, 500], players=[], rng=random.Random(1))
    assert excinfo.value.code == "remove_last_denomination"


def test_color_up_many_refuses_a_repeated_denomination() -> None:
    with pytest.raises(DomainError) as excinfo:
        color_up_many(denominations=DENOMS, remove=[25, 25], players=[], rng=random.Random(1))
    assert excinfo.value.code == "duplicate_remove"


# bad input
@pytest.mark.parametrize(
    ("kwargs", "code", "message"),
    [
        ({"remove": 50}, "unknown_denomination", MSG_UNKNOWN_REMOVE),
        ({"remove": 500}, "remove_last_denomination", MSG_REMOVE_LAST),
        ({"threshold": "half"}, "bad_threshold", MSG_BAD_THRESHOLD),
        ({"denominations": (25, 60, 500)}, "bad_denominations", MSG_NOT_MULTIPLE),
        ({"rng": None}, "no_deal", MSG_NO_DEAL),
        ({"cards": {1: ["As"], 2: ["Kd"]}}, "no_deal", MSG_NO_DEAL),
    ],
)
def test_bad_race_settings_are_refused(kwargs: dict[str, object], code: str, message: str) -> None:
    args: dict[str, object] = {
        "players": [RacePlayer(1, {25: 1, 100: 1}), RacePlayer(2, {25: 1})],
        "rng": random.Random(1),
    }
    with pytest.raises(DomainError) as excinfo:
        _race(**(args | kwargs))  # type: ignore[arg-type]
    assert (excinfo.value.code, excinfo.value.message, excinfo.value.status) == (
        code,
        message,
        400,
    )


@pytest.mark.parametrize(
    ("players", "code"),
    [
        ([RacePlayer(1, {25: 1}), RacePlayer(1, {25: 2})], "duplicate_seat"),
        ([RacePlayer(0, {25: 1})], "bad_seat"),
        ([RacePlayer(1, {5: 1})], "bad_chips"),
        ([RacePlayer(1, {25: -1})], "bad_chips"),
    ],
)
def test_bad_stacks_are_refused(players: list[RacePlayer], code: str) -> None:
    with pytest.raises(DomainError) as excinfo:
        _race(players, rng=random.Random(1))
    assert excinfo.value.code == code


@pytest.mark.parametrize(
    ("cards", "code"),
    [
        ({1: ["As"]}, "cards_count"),
        ({1: ["As", "Kd"], 2: ["Qc"]}, "cards_count"),
        ({1: ["As"], 2: ["As"]}, "duplicate_card"),
        ({1: ["As"], 2: ["Xx"]}, "bad_card"),
        ({1: ["As"], 2: ["Kd"], 3: ["Qc"]}, "cards_count"),
        ({1: ["As"], 2: ["Kd"], 9: []}, "cards_unknown_seat"),
    ],
)
def test_bad_dealer_cards_are_refused(cards: dict[int, list[str]], code: str) -> None:
    players = [RacePlayer(1, {25: 1, 100: 1}), RacePlayer(2, {25: 1}), RacePlayer(3, {100: 1})]
    with pytest.raises(DomainError) as excinfo:
        _race(players, cards=cards)
    assert excinfo.value.code == code
    if code == "cards_count":
        assert excinfo.value.message == MSG_CARDS_COUNT


def test_seat_without_odd_chips_may_have_an_empty_card_list() -> None:
    players = [RacePlayer(1, {25: 1, 100: 1}), RacePlayer(2, {25: 1}), RacePlayer(3, {100: 1})]
    result = _race(players, cards={1: ["As"], 2: ["Kd"], 3: []})
    assert [o.won for o in result.players] == [1, 0, 0]


# properties
@st.composite
def tables(draw: st.DrawFn) -> dict[str, object]:
    n = draw(st.integers(1, 10))
    seats = draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True))
    players = []
    for seat in seats:
        # Up to 11 of the removed chip: four and more change up directly (RULES 5.2).
        chips = {
            d: draw(st.integers(0, 11 if d == 25 else 6)) for d in DENOMS if draw(st.booleans())
        }
        players.append(RacePlayer(seat, chips))
    return {
        "players": players,
        "threshold": draw(st.sampled_from(["half_or_more", "more_than_half"])),
        "rng": random.Random(draw(st.integers(0, 2**32))),
    }


@settings(max_examples=200, deadline=None)
@given(tables())
def test_race_invariants(table: dict[str, object]) -> None:
    players: list[RacePlayer] = table["players"]  # type: ignore[assignment]
    result = _race(**table)  # type: ignore[arg-type]
    before = sum(stack_value(p.chips) for p in players)
    after = sum(stack_value(o.chips) for o in result.players)
    assert after - before == result.value_added - result.value_removed
    assert result.value_removed == 0 or result.value_added % result.unit == 0
    assert 0 <= result.value_removed < result.unit
    assert all(o.won in (0, 1) for o in result.players)
    assert sum(o.won for o in result.players) == result.awarded
    assert all(not (o.won and o.protected) for o in result.players)
    assert all(o.odd_chips < result.unit // result.remove for o in result.players)
    assert all(len(o.cards) == o.odd_chips for o in result.players)
    assert len({c for o in result.players for c in o.cards}) == sum(
        o.odd_chips for o in result.players
    )
    assert all(25 not in o.chips and all(o.chips.values()) for o in result.players)
    # Nobody who had chips leaves the race with none (RULES 5.7).
    for p, o in zip(sorted(players, key=lambda p: p.seat), result.players, strict=True):
        assert bool(o.chips) == (stack_value(p.chips) > 0)
    # RULES 5.2: whole chips of the unit change up directly; only the rest races.
    per_unit = result.unit // result.remove
    for p, o in zip(sorted(players, key=lambda p: p.seat), result.players, strict=True):
        removed = p.chips.get(result.remove, 0)
        assert o.odd_chips == removed % per_unit
        assert o.chips.get(result.unit, 0) == (
            p.chips.get(result.unit, 0) + removed // per_unit + o.won + int(o.protected)
        )


def test_the_table_strategy_reaches_the_direct_change_up() -> None:
    """The properties above see stacks with whole chips of the unit in the removed chip
    (``find`` raises NoSuchExample if the strategy never draws one)."""
    found = find(tables(), lambda t: any(p.chips.get(25, 0) >= 8 for p in t["players"]))
    result = _race(**found)  # type: ignore[arg-type]
    assert any(
        o.odd_chips < p.chips.get(25, 0)
        for p, o in zip(sorted(found["players"], key=lambda p: p.seat), result.players, strict=True)
    )


@settings(max_examples=100, deadline=None)
@given(tables())
def test_color_up_many_conserves_value_apart_from_recorded_changes(
    table: dict[str, object],
) -> None:
    players: list[RacePlayer] = table["players"]  # type: ignore[assignment]
    results = color_up_many(denominations=DENOMS, remove=[25, 100], **table)  # type: ignore[arg-type]
    before = sum(stack_value(p.chips) for p in players)
    after = sum(stack_value(o.chips) for o in results[-1].players)
    assert after - before == sum(r.value_added - r.value_removed for r in results)
    assert all(set(o.chips) <= {500} for o in results[-1].players)
