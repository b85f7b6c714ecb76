"""Places engine: RULES 7.1-7.4."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.engine.errors import DomainError
from tourney.engine.places import (
    MSG_BAD_PLAYERS_BEFORE,
    MSG_BAD_SEAT,
    MSG_BAD_STACK,
    MSG_DUPLICATE_ENTRY,
    MSG_ENTRY_NOT_ELIMINATED,
    MSG_NO_BUSTS,
    MSG_NO_WINNER,
    MSG_TOO_MANY_BUSTS,
    Bust,
    HandBusts,
    Place,
    assign_places,
    replay_places,
    undo_elimination,
    winner_place,
)

ROOT = Path(__file__).resolve().parents[2]


def test_engine_imports_no_django() -> None:
    code = (
        "import sys; import tourney.engine.places, tourney.engine.payouts; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'celery')]; "
        "sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert done.returncode == 0


# RULES 7.1 --------------------------------------------------------------------------------


def test_single_bust_takes_the_last_place_still_open() -> None:
    assert assign_places(players_before=9, busted=[Bust(7, 1200)]) == (Place(7, 9, 9),)


def test_larger_starting_stack_finishes_higher_in_the_same_hand() -> None:
    places = assign_places(players_before=10, busted=[Bust(1, 300), Bust(2, 5000), Bust(3, 1200)])
    assert places == (Place(2, 8, 8), Place(3, 9, 9), Place(1, 10, 10))


def test_bust_down_to_heads_up_leaves_places_one_and_two_open() -> None:
    places = assign_places(players_before=4, busted=[Bust(1, 100), Bust(2, 200)])
    assert places == (Place(2, 3, 3), Place(1, 4, 4))


# RULES 7.2 --------------------------------------------------------------------------------


def test_equal_starting_stacks_tie_and_share_the_places_they_cover() -> None:
    # The example of the brief and of docs/api.md: 6 players, two bust with 5400 each.
    places = assign_places(players_before=6, busted=[Bust(81, 5400), Bust(90, 5400)])
    assert places == (Place(81, 5, 6), Place(90, 5, 6))


def test_tie_between_other_busts_keeps_the_stack_order() -> None:
    places = assign_places(
        players_before=20,
        busted=[Bust(1, 100), Bust(2, 900), Bust(3, 900), Bust(4, 2000)],
    )
    assert places == (
        Place(4, 17, 17),
        Place(2, 18, 19),
        Place(3, 18, 19),
        Place(1, 20, 20),
    )


def test_tied_players_are_listed_by_table_then_seat() -> None:
    places = assign_places(
        players_before=8,
        busted=[
            Bust(10, 500, table=2, seat=1),
            Bust(11, 500, table=1, seat=9),
            Bust(12, 500, 1, 3),
        ],
    )
    assert [p.entry for p in places] == [12, 11, 10]
    assert {(p.place, p.place_to) for p in places} == {(6, 8)}


# RULES 7.3 --------------------------------------------------------------------------------


def test_hand_for_hand_round_counts_as_one_hand_across_tables() -> None:
    # Two tables play one hand-for-hand round from 19 players; one bust at each table. The
    # bigger stack at the start of its hand finishes higher, whichever table busted first.
    places = assign_places(
        players_before=19,
        busted=[Bust(5, 800, table=1, seat=4), Bust(6, 2400, table=2, seat=7)],
    )
    assert places == (Place(6, 18, 18), Place(5, 19, 19))


def test_hand_for_hand_equal_stacks_on_two_tables_tie() -> None:
    places = assign_places(
        players_before=19,
        busted=[Bust(5, 800, table=2, seat=4), Bust(6, 800, table=1, seat=7)],
    )
    assert places == (Place(6, 18, 19), Place(5, 18, 19))


# Validation --------------------------------------------------------------------------------


def test_everyone_busting_is_refused_as_no_winner() -> None:
    with pytest.raises(DomainError) as err:
        assign_places(players_before=2, busted=[Bust(1, 100), Bust(2, 200)])
    assert (err.value.code, err.value.status, err.value.message) == (
        "no_winner",
        409,
        MSG_NO_WINNER,
    )


def test_more_busts_than_players_is_bad_input() -> None:
    with pytest.raises(DomainError) as err:
        assign_places(players_before=2, busted=[Bust(1, 1), Bust(2, 1), Bust(3, 1)])
    assert (err.value.code, err.value.status, err.value.message) == (
        "too_many_busts",
        400,
        MSG_TOO_MANY_BUSTS,
    )


def test_no_busts_is_bad_input() -> None:
    with pytest.raises(DomainError) as err:
        assign_places(players_before=5, busted=[])
    assert (err.value.code, err.value.status, err.value.message) == (
        "no_busts",
        400,
        MSG_NO_BUSTS,
    )


@pytest.mark.parametrize("players_before", [0, -3, True, 2.0, "5"])
def test_bad_players_before_is_refused(players_before: object) -> None:
    with pytest.raises(DomainError) as err:
        assign_places(players_before=players_before, busted=[Bust(1, 100)])  # type: ignore[arg-type]
    assert (err.value.code, err.value.status, err.value.message) == (
        "bad_players_before",
        400,
        MSG_BAD_PLAYERS_BEFORE,
    )


def test_duplicate_entry_is_refused() -> None:
    with pytest.raises(DomainError) as err:
        assign_places(players_before=5, busted=[Bust(1, 100), Bust(1, 200)])
    assert (err.value.code, err.value.status, err.value.message) == (
        "duplicate_entry",
        400,
        MSG_DUPLICATE_ENTRY,
    )
    assert err.value.fields == {"entry": 1}


@pytest.mark.parametrize("stack", [0, -5, True, 10.5])
def test_starting_stack_must_be_positive_whole_chips(stack: object) -> None:
    with pytest.raises(DomainError) as err:
        assign_places(players_before=5, busted=[Bust(1, stack)])  # type: ignore[arg-type]
    assert (err.value.code, err.value.status, err.value.message) == (
        "bad_stack",
        400,
        MSG_BAD_STACK,
    )


def test_negative_seat_is_refused() -> None:
    with pytest.raises(DomainError) as err:
        assign_places(players_before=5, busted=[Bust(1, 100, table=1, seat=-1)])
    assert (err.value.code, err.value.message) == ("bad_seat", MSG_BAD_SEAT)


def test_winner_gets_place_one() -> None:
    assert winner_place(42) == Place(42, 1, 1)


# RULES 7.4 --------------------------------------------------------------------------------


def _history() -> list[HandBusts]:
    return [
        HandBusts(6, (Bust(1, 100),)),
        HandBusts(5, (Bust(2, 300), Bust(3, 300))),
        HandBusts(3, (Bust(4, 50),)),
    ]


def test_replay_gives_every_recorded_place_best_first() -> None:
    assert replay_places(_history()) == (
        Place(4, 3, 3),
        Place(2, 4, 5),
        Place(3, 4, 5),
        Place(1, 6, 6),
    )


def test_undo_of_a_tied_bust_breaks_the_tie_and_shifts_later_places() -> None:
    hands = undo_elimination(_history(), 3)
    assert hands == (
        HandBusts(6, (Bust(1, 100),)),
        HandBusts(5, (Bust(2, 300),)),
        HandBusts(4, (Bust(4, 50),)),
    )
    assert replay_places(hands) == (Place(4, 4, 4), Place(2, 5, 5), Place(1, 6, 6))


def test_undo_of_a_lone_bust_drops_its_hand() -> None:
    hands = undo_elimination(_history(), 1)
    assert hands == (
        HandBusts(6, (Bust(2, 300), Bust(3, 300))),
        HandBusts(4, (Bust(4, 50),)),
    )
    assert replay_places(hands) == (Place(4, 4, 4), Place(2, 5, 6), Place(3, 5, 6))


def test_undo_of_an_entry_never_eliminated_is_refused() -> None:
    with pytest.raises(DomainError) as err:
        undo_elimination(_history(), 99)
    assert (err.value.code, err.value.status, err.value.message) == (
        "not_eliminated",
        409,
        MSG_ENTRY_NOT_ELIMINATED,
    )


def test_replay_refuses_an_entry_eliminated_twice() -> None:
    with pytest.raises(DomainError) as err:
        replay_places([HandBusts(6, (Bust(1, 100),)), HandBusts(5, (Bust(1, 100),))])
    assert err.value.code == "duplicate_entry"


# Properties ------------------------------------------------------------------------------------

busts_strategy = st.lists(
    st.tuples(st.integers(1, 6), st.integers(1, 3), st.integers(1, 10)),  # stack, table, seat
    min_size=1,
    max_size=12,
)


@settings(max_examples=200, deadline=None)
@given(busts=busts_strategy, extra=st.integers(1, 50))
def test_places_form_the_bottom_block_and_follow_stacks(
    busts: list[tuple[int, int, int]], extra: int
) -> None:
    busted = [Bust(i + 1, stack * 100, table, seat) for i, (stack, table, seat) in enumerate(busts)]
    players_before = len(busted) + extra
    places = assign_places(players_before=players_before, busted=busted)
    by_entry = {p.entry: p for p in places}
    stacks = {b.entry: b.starting_stack for b in busted}

    assert sorted(by_entry) == sorted(stacks)
    # Counting each tie group once, the ranges tile players_before-k+1 .. players_before.
    covered = sorted(
        p for pl in {(p.place, p.place_to) for p in places} for p in range(pl[0], pl[1] + 1)
    )
    assert covered == list(range(players_before - len(busted) + 1, players_before + 1))
    for a in places:
        group = [p for p in places if (p.place, p.place_to) == (a.place, a.place_to)]
        assert len(group) == a.place_to - a.place + 1
        for b in places:
            if stacks[a.entry] > stacks[b.entry]:
                assert a.place_to < b.place  # larger stack never finishes lower
            if stacks[a.entry] == stacks[b.entry]:
                assert (a.place, a.place_to) == (
                    b.place,
                    b.place_to,
                )  # ties only when equal
    assert [p.place for p in places] == sorted(p.place for p in places)


@settings(max_examples=100, deadline=None)
@given(
    hands=st.lists(st.lists(st.integers(1, 4), min_size=1, max_size=3), min_size=1, max_size=6),
    data=st.data(),
)
def test_undo_then_replay_equals_history_without_that_entry(
    hands: list[list[int]], data: st.DataObject
) -> None:
    # Build a consistent history from a field big enough that someone is always left.
    field = sum(len(h) for h in hands) + 1
    history: list[HandBusts] = []
    entry, left = 0, field
    for stacks in hands:
        busts = []
        for s in stacks:
            entry += 1
            busts.append(Bust(entry, s * 10))
        history.append(HandBusts(left, tuple(busts)))
        left -= len(busts)
    victim = data.draw(st.integers(1, entry))
    undone = replay_places(undo_elimination(history, victim))

    # Recompute from scratch: the same hands, the victim absent, field one bigger at the end.
    expected_hands: list[HandBusts] = []
    left = field
    for hand in history:
        busts = tuple(b for b in hand.busts if b.entry != victim)
        if busts:
            expected_hands.append(HandBusts(left, busts))
        left -= len(busts)
    assert undone == replay_places(expected_hands)
    assert victim not in {p.entry for p in undone}
    if undone:
        # The worst place stays the field's last place: the undone entry is back in play.
        assert max(p.place_to for p in undone) == field
