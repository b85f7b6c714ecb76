"""Blinds, button and positions at one table (RULES 1.3, 1.4, 2).

Tables are drawn as pictures, seat 1 first: ``.`` empty, ``x`` unavailable, ``12`` entry 12,
``12w`` entry 12 waiting for the button, a leading ``B`` marks the button seat.
"""

from __future__ import annotations

import random

import pytest

from tables.engine import model
from tables.engine.blinds import (
    MSG_BAD_BUTTON_SEAT,
    MSG_EMPTY_TABLE,
    MSG_NO_OPEN_SEAT,
    bb_next,
    blinds,
    released_by_button_move,
    waits_for_button,
    worst_position,
)
from tables.engine.model import Table, parse_table
from tourney.engine.errors import DomainError


def rng(seed: int = 1) -> random.Random:
    return random.Random(seed)


# --- the picture helper and Table itself -------------------------------------------------------


def test_picture_round_trips():
    picture = "B1 2w . x 5 ."
    table = parse_table(picture, number=4)
    assert table.number == 4
    assert dict(table.occupants) == {1: 1, 2: 2, 5: 5}
    assert table.waiting == {2}
    assert table.unavailable == {4}
    assert table.button_seat == 1
    assert table.picture() == picture


def test_picture_accepts_seat_labels():
    assert parse_table("1:B 2:12 3:. 4:14").picture() == "B. 12 . 14"


def test_picture_with_wrong_seat_label_is_rejected():
    with pytest.raises(DomainError) as err:
        parse_table("1:4 3:5")
    assert err.value.code == "invalid_picture"
    assert err.value.message == model.MSG_BAD_PICTURE
    assert err.value.status == 400


def test_table_helpers_count_players_and_open_seats():
    table = parse_table("B1 . x 4w . 6")
    assert table.players == 3
    assert table.capacity == 5
    assert table.open_seats() == (2, 5)
    assert table.dealt_in_seats() == (1, 6)
    assert table.seat_of(4) == 4
    assert table.seat_of(99) is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seats": 1, "occupants": {}}, model.MSG_BAD_SEAT_COUNT),
        ({"seats": 6, "occupants": {7: 1}}, model.MSG_BAD_SEAT),
        (
            {"seats": 6, "occupants": {2: 1}, "unavailable": frozenset({2})},
            model.MSG_SEAT_UNAVAILABLE,
        ),
        ({"seats": 6, "occupants": {1: 5, 2: 5}}, model.MSG_ENTRY_TWICE),
        (
            {"seats": 6, "occupants": {1: 5}, "waiting": frozenset({6})},
            model.MSG_WAITING_NOT_SEATED,
        ),
        ({"seats": 6, "occupants": {}, "button_seat": 0}, model.MSG_BAD_BUTTON),
    ],
)
def test_inconsistent_table_is_bad_input(kwargs, message):
    with pytest.raises(DomainError) as err:
        Table(number=1, **kwargs)
    assert (err.value.code, err.value.message, err.value.status) == ("invalid_table", message, 400)


def test_table_is_immutable():
    table = parse_table("B1 2 .")
    with pytest.raises(TypeError):
        table.occupants[3] = 9  # type: ignore[index]


def test_seating_an_entry_already_at_the_table_is_refused():
    with pytest.raises(DomainError) as err:
        parse_table("B1 2 .").with_player(3, 2)
    assert (err.value.code, err.value.message, err.value.status) == (
        "invalid_table",
        model.MSG_ENTRY_TWICE,
        400,
    )


def test_moving_the_button_off_the_table_is_refused():
    with pytest.raises(DomainError) as err:
        parse_table("B1 2 .").with_button(4)
    assert (err.value.code, err.value.message) == ("invalid_table", model.MSG_BAD_BUTTON)


def test_copies_keep_waiting_players_consistent():
    table = parse_table("B1 . 3 4").with_player(2, 9, waits=True)
    assert table.picture() == "B1 9w 3 4"
    assert table.without_seat(2).picture() == "B1 . 3 4"
    assert table.without_seat(2).waiting == frozenset()


def test_seating_on_a_taken_seat_is_refused():
    with pytest.raises(DomainError) as err:
        parse_table("B1 2 .").with_player(2, 9)
    assert (err.value.code, err.value.status) == ("seat_taken", 409)


# --- RULES 2.2 blinds ----------------------------------------------------------------------------


def test_blinds_are_the_next_two_players_after_the_button():
    assert blinds(parse_table("B1 2 3 . . 6 x 8 .")) == (1, 2, 3)


def test_blinds_wrap_around_seat_one():
    assert blinds(parse_table("1 . 3 . . B6")) == (6, 1, 3)


def test_waiting_player_posts_no_blind():
    assert blinds(parse_table("B1 2w 3 4")) == (1, 3, 4)


def test_dead_button_small_blind_is_first_player_after_it():
    assert blinds(parse_table("B. 2 3 4")) == (1, 2, 3)


def test_heads_up_button_posts_small_blind():
    # RULES 2.2 (002, TDA): heads-up the button is the small blind.
    assert blinds(parse_table(". B2 . 4")) == (2, 2, 4)
    assert blinds(parse_table("1 . B3")) == (3, 3, 1)


def test_heads_up_with_a_waiting_third_player_is_still_heads_up():
    assert blinds(parse_table("B1 2w 3")) == (1, 1, 3)


def test_heads_up_with_dead_button_uses_the_plain_order():
    assert blinds(parse_table("B. 2 . 4")) == (1, 2, 4)


def test_no_button_means_no_blinds_yet():
    assert blinds(parse_table("1 2 3")) == (None, None, None)


def test_a_lone_player_has_no_big_blind():
    assert blinds(parse_table("B. 2 3w")) == (1, 2, None)


# --- RULES 2.3 player to be big blind next ------------------------------------------------------


def test_bb_next_is_the_big_blind_of_the_next_hand():
    assert bb_next(parse_table("B1 2 3 . . 6"), rng()) == 3
    assert bb_next(parse_table("1 . 3 . . B6"), rng()) == 3


def test_bb_next_heads_up_is_the_player_off_the_button():
    assert bb_next(parse_table(". B2 . 4"), rng()) == 4


def test_bb_next_without_button_is_a_seeded_random_dealt_in_player():
    table = parse_table("1 2w 3 4 5w 6")
    picks = {bb_next(table, rng(seed)) for seed in range(200)}
    assert picks == {1, 3, 4, 6}
    assert bb_next(table, rng(7)) == bb_next(table, rng(7))


def test_bb_next_with_one_dealt_in_player_is_the_next_seated_after_small_blind():
    assert bb_next(parse_table("B1w 2 . 4w"), rng()) == 4


def test_bb_next_of_an_empty_table_is_refused():
    with pytest.raises(DomainError) as err:
        bb_next(parse_table("B. . ."), rng())
    assert (err.value.code, err.value.message, err.value.status) == (
        "empty_table",
        MSG_EMPTY_TABLE,
        409,
    )


# --- RULES 1.3 waiting for the button -----------------------------------------------------------


def test_the_button_seat_waits():
    assert waits_for_button(parse_table("B. 2 3 4"), 1) is True


def test_a_seat_between_the_button_and_the_small_blind_waits():
    assert waits_for_button(parse_table("B1 . 3 4"), 2) is True


def test_a_seat_between_the_small_and_big_blind_is_dealt_in():
    assert waits_for_button(parse_table("B1 2 . 4"), 3) is False


def test_a_seat_after_the_big_blind_is_dealt_in():
    assert waits_for_button(parse_table("B1 2 3 ."), 4) is False


def test_waiting_players_do_not_count_as_the_small_blind():
    # Seat 2 waits, so seat 4 posts the small blind and seat 3 lies before it.
    assert waits_for_button(parse_table("B1 2w . 4 5"), 3) is True


def test_heads_up_seat_between_button_and_big_blind_waits():
    # The newcomer would be the small blind of the three-handed table.
    table = parse_table("B1 . 3 .")
    assert waits_for_button(table, 2) is True
    assert waits_for_button(table, 4) is False


def test_nobody_waits_before_play_starts():
    table = parse_table("1 . 3 .")
    assert not any(waits_for_button(table, seat) for seat in range(1, 5))


def test_nobody_waits_at_a_table_without_dealt_in_players():
    assert waits_for_button(parse_table("B. . ."), 1) is False


# --- RULES 2.4 worst position -------------------------------------------------------------------


def test_worst_position_is_the_first_open_seat_after_the_small_blind():
    table = parse_table("B1 2 3 . . 6 x 8 .")
    assert worst_position(table, rng()) == (4, False)


def test_worst_position_between_the_blinds_posts_the_big_blind_next_hand():
    # TDA: the big blind may be paid twice in the orbit.
    table = parse_table("B1 2 . 4 5 .")
    seat, waits = worst_position(table, rng())
    assert (seat, waits) == (3, False)
    assert bb_next(table.with_player(seat, 99), rng()) == 3


def test_worst_position_is_never_the_small_blind():
    # Seat 2 is the first open seat after the button: a newcomer there would post the small
    # blind (and waits, RULES 1.3). The worst position is after the small blind.
    table = parse_table("B1 . 3 4 . .")
    assert waits_for_button(table, 2) is True
    assert worst_position(table, rng()) == (5, False)


def test_worst_position_skips_unavailable_seats():
    assert worst_position(parse_table("B11 12 x 14 . ."), rng()) == (5, False)


def test_worst_position_heads_up_is_after_the_big_blind():
    table = parse_table("B1 . . 4 . .")
    assert worst_position(table, rng()) == (5, False)
    assert blinds(table.with_player(5, 99)) == (1, 4, 5)


def test_worst_position_waits_when_only_seats_before_the_small_blind_are_open():
    assert worst_position(parse_table("1 B2 . 4 5 6"), rng()) == (3, True)


def test_worst_position_prefers_the_dead_button_seat_over_later_waiting_seats():
    # Walk from the small blind (seat 3): 4, 5, 6 taken, then the empty button seat 1 comes first.
    assert worst_position(parse_table("B. . 3 4 5 6"), rng()) == (1, True)


def test_worst_position_without_button_is_a_seeded_random_open_seat():
    table = parse_table("1 . 3 . x .")
    picks = {worst_position(table, rng(seed)) for seed in range(100)}
    assert picks == {(2, False), (4, False), (6, False)}


def test_worst_position_at_a_full_table_is_refused():
    with pytest.raises(DomainError) as err:
        worst_position(parse_table("B1 2 x"), rng())
    assert (err.value.code, err.value.message, err.value.status) == (
        "no_open_seat",
        MSG_NO_OPEN_SEAT,
        409,
    )


# --- RULES 1.3 release of the wait ---------------------------------------------------------------


def test_wait_released_when_the_button_passes():
    table = parse_table("1 B2 3w 4 5")
    assert released_by_button_move(table, 3) == {3}


def test_wait_not_released_before_the_button_reaches_the_seat():
    table = parse_table("B1 2 3 4w 5 6")
    assert released_by_button_move(table, 3) == frozenset()
    assert released_by_button_move(table, 4) == {4}


def test_button_move_wraps_around_seat_one():
    table = parse_table("1w 2 3w B4 5w 6")
    assert released_by_button_move(table, 1) == {5, 1}


def test_player_who_sat_on_the_button_is_dealt_in_once_the_button_moves_on():
    # RULES 1.3, card-room reading: the button seat waits one hand, not a whole orbit.
    table = parse_table("B1w 2 3 4")
    assert released_by_button_move(table, 2) == {1}
    assert released_by_button_move(parse_table("B1w 2 3w 4"), 2) == {1}
    assert released_by_button_move(parse_table("B1w 2 3w 4"), 3) == {1, 3}


def test_a_backward_button_correction_counts_the_long_way_round():
    # RULES 1.3: the director moves the button back from seat 5 to seat 3 (a correction). The
    # wait of the player who sat down on the button seat (5) ends: the button left it. The move
    # back passes 6, 7, 8, 9, 1, 2 and 3 the long way round: the waits there end too; seat 4,
    # behind the new button and not passed, keeps waiting.
    table = parse_table("1 2 3 4w B5w 6w 7 8 9")
    assert released_by_button_move(table, 3) == {5, 6}
    assert released_by_button_move(parse_table("1w 2 3 4w B5w 6 7 8 9"), 4) == {1, 4, 5}
    assert released_by_button_move(parse_table("1 2 3 4w B5 6 7 8 9"), 3) == frozenset()


def test_button_that_does_not_move_releases_nobody():
    assert released_by_button_move(parse_table("1 B2 3w 4"), 2) == frozenset()


def test_button_move_to_a_seat_off_the_table_is_bad_input():
    with pytest.raises(DomainError) as err:
        released_by_button_move(parse_table("1 B2 3w 4"), 5)
    assert (err.value.code, err.value.message, err.value.status) == (
        "invalid_button",
        MSG_BAD_BUTTON_SEAT,
        400,
    )
