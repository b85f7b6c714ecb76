"""Blind structures (RULES 4.1, 4.5, 5.1): parsing, checking, generating, presets."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.engine import structure as s
from tourney.engine.clock import Item
from tourney.engine.errors import DomainError
from tourney.engine.structure import (
    check_structure,
    generate,
    items_to_data,
    parse_levels,
    preset,
    removable_denominations,
)

CHIPS = (25, 100, 500, 1000, 5000, 25000)


def level(sb: int, bb: int, ante: int = 0, bba: int = 0, minutes: int = 20) -> Item:
    return Item("level", minutes * 60, small_blind=sb, big_blind=bb, ante=ante, big_blind_ante=bba)


def brk(*color_up: int, minutes: int = 10) -> Item:
    return Item("break", minutes * 60, color_up=color_up)


def bad_fields(data) -> dict[str, str]:
    with pytest.raises(DomainError) as info:
        parse_levels(data)
    error = info.value
    assert (error.code, error.status, error.message) == ("bad_structure", 400, s.MSG_BAD_STRUCTURE)
    return error.fields


def brief(items) -> list[str]:
    return [
        f"{i.small_blind}/{i.big_blind}({i.big_blind_ante})"
        if i.kind == "level"
        else f"break{list(i.color_up)}"
        for i in items
    ]


# -- parse_levels ---------------------------------------------------------------------------------


def test_parse_levels_reads_levels_and_breaks():
    items = parse_levels(
        [
            {
                "kind": "level",
                "small_blind": 100,
                "big_blind": 200,
                "ante": 0,
                "big_blind_ante": 200,
                "minutes": 20,
            },
            {"kind": "break", "minutes": 10, "color_up": [100, 25]},
        ]
    )
    assert items == (level(100, 200, bba=200), brk(25, 100))


def test_parse_levels_takes_seconds_instead_of_minutes():
    items = parse_levels([{"kind": "level", "small_blind": 25, "big_blind": 50, "seconds": 450}])
    assert items[0].seconds == 450


def test_parse_levels_accepts_agreeing_minutes_and_seconds():
    data = [{"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 2, "seconds": 120}]
    assert parse_levels(data)[0].seconds == 120


def test_parse_levels_defaults_antes_to_zero_and_ignores_unknown_keys():
    items = parse_levels(
        [
            {"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 15, "colour": "x"},
            {"kind": "break", "minutes": 5, "small_blind": 7},
        ]
    )
    assert items == (level(25, 50, minutes=15), brk(minutes=5))


def test_parse_levels_round_trips_items_to_data():
    items = preset("regular")
    assert parse_levels(items_to_data(items)) == items


@pytest.mark.parametrize("data", [None, {"kind": "level"}, "levels", 3])
def test_parse_levels_needs_a_list(data):
    assert bad_fields(data) == {"levels": s.MSG_NOT_A_LIST}


def test_parse_levels_refuses_too_many_items():
    data = [{"kind": "break", "minutes": 1}] * (s.MAX_ITEMS + 1)
    assert bad_fields(data) == {"levels": s.MSG_TOO_MANY}


def test_parse_levels_needs_at_least_one_level():
    assert bad_fields([]) == {"levels": s.MSG_NO_LEVEL}
    assert bad_fields([{"kind": "break", "minutes": 10}]) == {"levels": s.MSG_NO_LEVEL}


def test_parse_levels_names_an_item_that_is_not_an_object():
    assert bad_fields([["level"]]) == {"levels[0]": s.MSG_NOT_AN_OBJECT}


@pytest.mark.parametrize("kind", [None, "Level", "pause", 1])
def test_parse_levels_refuses_an_unknown_kind(kind):
    assert bad_fields([{"kind": kind, "minutes": 10}]) == {"levels[0].kind": s.MSG_BAD_KIND}


def test_parse_levels_needs_a_duration():
    data = [{"kind": "level", "small_blind": 25, "big_blind": 50}]
    assert bad_fields(data) == {"levels[0].minutes": s.MSG_NO_DURATION}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("minutes", 0),
        ("minutes", -5),
        ("minutes", 2.5),
        ("minutes", "20"),
        ("minutes", True),
        ("minutes", 24 * 60 + 1),
        ("seconds", 0),
        ("seconds", 86_401),
    ],
)
def test_parse_levels_refuses_a_bad_duration(key, value):
    data = [{"kind": "level", "small_blind": 25, "big_blind": 50, key: value}]
    assert bad_fields(data) == {f"levels[0].{key}": s.MSG_BAD_DURATION}


def test_parse_levels_refuses_disagreeing_minutes_and_seconds():
    data = [{"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 2, "seconds": 100}]
    assert bad_fields(data) == {"levels[0].seconds": s.MSG_DURATION_MISMATCH}


@pytest.mark.parametrize("value", [0, -25, None, 2.5, "25", True])
def test_parse_levels_refuses_a_bad_small_blind(value):
    data = [{"kind": "level", "small_blind": value, "big_blind": 50, "minutes": 20}]
    assert bad_fields(data)["levels[0].small_blind"] == s.MSG_BAD_SMALL_BLIND


@pytest.mark.parametrize("value", [0, 20, None, 50.0])
def test_parse_levels_refuses_a_big_blind_below_the_small_blind(value):
    data = [{"kind": "level", "small_blind": 25, "big_blind": value, "minutes": 20}]
    assert bad_fields(data) == {"levels[0].big_blind": s.MSG_BAD_BIG_BLIND}


def test_parse_levels_accepts_a_big_blind_equal_to_the_small_blind():
    data = [{"kind": "level", "small_blind": 50, "big_blind": 50, "minutes": 20}]
    assert parse_levels(data) == (level(50, 50),)


@pytest.mark.parametrize("name", ["ante", "big_blind_ante"])
@pytest.mark.parametrize("value", [-1, None, 1.5])
def test_parse_levels_refuses_a_negative_ante(name, value):
    data = [{"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 20, name: value}]
    assert bad_fields(data) == {f"levels[0].{name}": s.MSG_BAD_ANTE}


def test_parse_levels_refuses_amounts_beyond_what_a_column_holds():
    big = s.MAX_AMOUNT + 1
    data = [
        {"kind": "level", "small_blind": big, "big_blind": big, "minutes": 20},
        {"kind": "level", "small_blind": 25, "big_blind": big, "minutes": 20},
        {"kind": "level", "small_blind": 25, "big_blind": 50, "ante": big, "minutes": 20},
        {"kind": "break", "minutes": 10, "color_up": [10**30]},
    ]
    assert bad_fields(data) == {
        "levels[0].small_blind": s.MSG_BAD_SMALL_BLIND,
        "levels[0].big_blind": s.MSG_BAD_BIG_BLIND,
        "levels[1].big_blind": s.MSG_BAD_BIG_BLIND,
        "levels[2].ante": s.MSG_BAD_ANTE,
        "levels[3].color_up": s.MSG_BAD_COLOR_UP,
    }
    top = [{"kind": "level", "small_blind": s.MAX_AMOUNT, "big_blind": s.MAX_AMOUNT, "minutes": 1}]
    assert parse_levels(top) == (level(s.MAX_AMOUNT, s.MAX_AMOUNT, minutes=1),)


@pytest.mark.parametrize("value", [25, [0], [25, 25], ["25"], [True]])
def test_parse_levels_refuses_a_bad_color_up(value):
    data = [
        {"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 20},
        {"kind": "break", "minutes": 10, "color_up": value},
    ]
    assert bad_fields(data) == {"levels[1].color_up": s.MSG_BAD_COLOR_UP}


def test_parse_levels_names_every_bad_item():
    data = [
        {"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 20},
        {"kind": "level", "small_blind": 100, "big_blind": 50, "minutes": 20},
        {"kind": "break", "minutes": -1},
        {"kind": "level", "small_blind": 0, "big_blind": 200, "ante": -5, "seconds": 60},
    ]
    assert bad_fields(data) == {
        "levels[1].big_blind": s.MSG_BAD_BIG_BLIND,
        "levels[2].minutes": s.MSG_BAD_DURATION,
        "levels[3].small_blind": s.MSG_BAD_SMALL_BLIND,
        "levels[3].ante": s.MSG_BAD_ANTE,
    }


# -- removable_denominations ----------------------------------------------------------------------

BOOK = (
    level(25, 50),
    level(50, 100),
    level(75, 150),
    level(100, 200, bba=200),
    level(150, 300, bba=300),
    brk(25),
    level(200, 400, bba=400),
    level(300, 600, bba=600),
    brk(),
    level(1000, 2000, bba=2000),
    level(1500, 3000, bba=3000),
)


def test_a_chip_goes_when_the_next_larger_chip_divides_every_later_amount():
    assert removable_denominations(BOOK, 5, CHIPS) == (25,)
    assert removable_denominations(BOOK, 8, (100, 500, 1000)) == (100,)


def test_a_chip_stays_while_a_later_amount_needs_it():
    assert removable_denominations(BOOK, 2, CHIPS) == ()


def test_several_chips_go_at_once_when_a_larger_chip_divides_everything():
    items = (level(25, 50), brk(), level(5000, 10000, ante=1000))
    assert removable_denominations(items, 1, CHIPS) == (25, 100, 500)


def test_the_largest_chip_is_never_removable():
    assert removable_denominations(BOOK, len(BOOK) - 1, (25, 100)) == (25,)


def test_removable_denominations_refuses_bad_chips_and_index():
    with pytest.raises(DomainError) as info:
        removable_denominations(BOOK, 1, (25, 25))
    assert (info.value.code, info.value.message) == ("bad_denominations", s.MSG_BAD_DENOMINATIONS)
    with pytest.raises(DomainError) as info:
        removable_denominations(BOOK, len(BOOK), CHIPS)
    assert (info.value.code, info.value.status) == ("bad_index", 400)


# -- check_structure ------------------------------------------------------------------------------


def test_check_structure_passes_the_book_example():
    assert check_structure(BOOK, CHIPS) == []


def test_check_structure_catches_a_blind_not_divisible_after_a_color_up():
    items = (level(25, 50), brk(25), level(150, 300), level(200, 400))
    assert check_structure(items, CHIPS) == [
        s.PROBLEM_STILL_NEEDED.format(index=1, chip=25),
        s.PROBLEM_NOT_MULTIPLE.format(index=2, field="small_blind", value=150, chip=100),
    ]
    assert s.PROBLEM_NOT_MULTIPLE.format(index=2, field="small_blind", value=150, chip=100) == (
        "levels[2].small_blind: 150 is not a multiple of 100, "
        "the smallest chip in play (RULES 4.5)."
    )


def test_check_structure_catches_an_ante_not_divisible():
    items = (level(100, 200, ante=25), level(200, 400, ante=50))
    assert check_structure(items, (100, 500)) == [
        s.PROBLEM_NOT_MULTIPLE.format(index=0, field="ante", value=25, chip=100),
        s.PROBLEM_NOT_MULTIPLE.format(index=1, field="ante", value=50, chip=100),
    ]


def test_check_structure_checks_levels_before_any_color_up():
    items = (level(10, 20),)
    assert check_structure(items, CHIPS) == [
        s.PROBLEM_NOT_MULTIPLE.format(index=0, field="small_blind", value=10, chip=25),
        s.PROBLEM_NOT_MULTIPLE.format(index=0, field="big_blind", value=20, chip=25),
    ]


def test_check_structure_catches_a_color_up_of_a_chip_not_in_play():
    items = (level(25, 50), brk(25), level(100, 200), brk(25), level(200, 400))
    assert check_structure(items, CHIPS) == [s.PROBLEM_NOT_IN_PLAY.format(index=3, chip=25)]


def test_check_structure_catches_a_color_up_that_skips_the_lowest_chip():
    items = (level(25, 50), brk(100), level(500, 1000))
    assert check_structure(items, CHIPS) == [
        s.PROBLEM_NOT_LOWEST.format(index=1, chip=100, smaller=25)
    ]


def test_check_structure_catches_a_color_up_of_every_chip():
    items = (level(100, 200), brk(100, 500), level(500, 1000))
    assert check_structure(items, (100, 500)) == [s.PROBLEM_REMOVES_ALL.format(index=1)]


def test_check_structure_allows_keeping_a_chip_longer_than_needed():
    items = (level(25, 50), brk(), level(100, 200), brk(25), level(500, 1000))
    assert check_structure(items, CHIPS) == []


# -- generate -------------------------------------------------------------------------------------


def test_regular_preset_reproduces_the_book_example():
    assert brief(preset("regular"))[:18] == [
        "25/50(0)",
        "50/100(0)",
        "75/150(0)",
        "100/200(200)",
        "150/300(300)",
        "break[25]",
        "200/400(400)",
        "300/600(600)",
        "400/800(800)",
        "500/1000(1000)",
        "break[]",
        "600/1200(1200)",
        "800/1600(1600)",
        "1000/2000(2000)",
        "break[100]",
        "1500/3000(3000)",
        "2000/4000(4000)",
        "3000/6000(6000)",
    ]
    items = preset("regular")
    assert {i.seconds for i in items if i.kind == "level"} == {1200}
    assert {i.seconds for i in items if i.kind == "break"} == {600}
    assert items[-1].big_blind >= 100 * 10000
    assert check_structure(items, CHIPS) == []


def test_turbo_preset_halves_the_level_minutes():
    regular, turbo = preset("regular"), preset("turbo")
    assert brief(turbo) == brief(regular)
    assert {i.seconds for i in turbo if i.kind == "level"} == {600}


def test_deep_preset_doubles_the_stack_and_has_more_levels():
    regular, deep = preset("regular"), preset("deep")
    assert (deep[0].small_blind, deep[0].big_blind) == (50, 100)
    levels = [sum(1 for i in items if i.kind == "level") for items in (regular, deep)]
    assert levels[1] > levels[0]
    assert check_structure(deep, CHIPS) == []


def test_unknown_preset_is_refused():
    with pytest.raises(DomainError) as info:
        preset("hyper")
    assert (info.value.code, info.value.status, info.value.message) == (
        "unknown_preset",
        400,
        s.MSG_UNKNOWN_PRESET,
    )


def test_generate_puts_breaks_every_n_levels_and_never_last():
    items = generate(
        starting_stack=10000,
        denominations=CHIPS,
        level_minutes=20,
        target_hours=2,
        break_every=3,
    )
    kinds = "".join("B" if i.kind == "break" else "L" for i in items)
    assert kinds.startswith("LLLBLLLBLLLB")
    assert "BB" not in kinds
    assert kinds.endswith("L")


def test_generate_without_breaks_has_no_breaks_and_no_color_up():
    items = generate(
        starting_stack=10000, denominations=CHIPS, level_minutes=20, target_hours=1, break_every=0
    )
    assert all(i.kind == "level" for i in items)
    assert check_structure(items, CHIPS) == []


def test_generate_starts_big_blind_ante_at_the_asked_level():
    items = generate(
        starting_stack=10000,
        denominations=CHIPS,
        level_minutes=20,
        target_hours=1,
        bb_ante_from_level=6,
    )
    levels = [i for i in items if i.kind == "level"]
    assert [i.big_blind_ante for i in levels[:7]] == [0, 0, 0, 0, 0, 400, 600]
    never = generate(
        starting_stack=10000,
        denominations=CHIPS,
        level_minutes=20,
        target_hours=1,
        bb_ante_from_level=0,
    )
    assert all(i.big_blind_ante == 0 for i in never)


def test_generate_fills_the_target_hours_beyond_the_field_chips():
    items = generate(starting_stack=10000, denominations=CHIPS, level_minutes=10, target_hours=7)
    assert sum(i.seconds for i in items) >= 7 * 3600
    assert sum(i.seconds for i in items[:-1]) < 7 * 3600
    assert items[-1].big_blind > 100 * 10000


def test_generate_reaches_the_field_chips_even_when_the_target_is_short():
    items = generate(starting_stack=10000, denominations=CHIPS, level_minutes=20, target_hours=1)
    assert items[-1].big_blind >= 100 * 10000 > items[-2].big_blind


def test_generate_stops_at_ten_times_the_field_chips():
    items = generate(starting_stack=1000, denominations=(5, 25), level_minutes=20, target_hours=40)
    assert items[-1].big_blind >= s.MAX_BB_FACTOR * 100 * 1000 > items[-2].big_blind
    assert sum(i.seconds for i in items) < 40 * 3600


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"starting_stack": 0}, "starting_stack", s.MSG_BAD_STACK),
        ({"starting_stack": 10010}, "starting_stack", s.MSG_BAD_STACK),
        ({"level_minutes": 0}, "level_minutes", s.MSG_BAD_MINUTES),
        ({"break_minutes": 2.5}, "break_minutes", s.MSG_BAD_MINUTES),
        ({"target_hours": 0}, "target_hours", s.MSG_BAD_HOURS),
        ({"target_hours": 100}, "target_hours", s.MSG_BAD_HOURS),
        ({"break_every": -1}, "break_every", s.MSG_BAD_BREAK_EVERY),
        ({"bb_ante_from_level": -1}, "bb_ante_from_level", s.MSG_BAD_BBA_FROM),
        ({"break_after": (5, 3)}, "break_after", s.MSG_BAD_BREAK_AFTER),
    ],
)
def test_generate_refuses_bad_settings(kwargs, field, message):
    args = {
        "starting_stack": 10000,
        "denominations": CHIPS,
        "level_minutes": 20,
        "target_hours": 8,
    } | kwargs
    with pytest.raises(DomainError) as info:
        generate(**args)
    assert (info.value.code, info.value.status, info.value.fields) == (
        "bad_parameters",
        400,
        {field: message},
    )


def test_generate_refuses_bad_denominations():
    with pytest.raises(DomainError) as info:
        generate(starting_stack=10000, denominations=(), level_minutes=20, target_hours=8)
    assert info.value.code == "bad_denominations"


CHIP_SETS = [
    (25, 100, 500, 1000, 5000, 25000),
    (5, 25, 100, 500, 1000),
    (1, 5, 25, 100, 500),
    (100, 500, 1000, 5000, 25000, 100000),
    (25, 100, 1000, 5000),
    (10, 50, 100, 500),
    (7, 35, 350),
]


@settings(max_examples=150, deadline=None)
@given(
    chips=st.sampled_from(CHIP_SETS),
    units=st.integers(min_value=20, max_value=4000),
    level_minutes=st.sampled_from([10, 15, 20, 30, 40]),
    target_hours=st.floats(min_value=0.5, max_value=16),
    break_every=st.integers(min_value=0, max_value=8),
    bba_from=st.integers(min_value=0, max_value=10),
)
def test_generated_structures_are_sound(
    chips, units, level_minutes, target_hours, break_every, bba_from
):
    stack = units * chips[0]
    items = generate(
        starting_stack=stack,
        denominations=chips,
        level_minutes=level_minutes,
        target_hours=target_hours,
        break_every=break_every,
        bb_ante_from_level=bba_from,
    )
    assert check_structure(items, chips) == []  # RULES 4.5, 5.1
    levels = [i for i in items if i.kind == "level"]
    big_blinds = [i.big_blind for i in levels]
    assert all(a < b for a, b in itertools.pairwise(big_blinds))
    assert all(i.big_blind == 2 * i.small_blind for i in levels)
    assert 0.5 <= big_blinds[0] / max(stack / 200, 2 * chips[0]) <= 2
    for number, item in enumerate(levels, start=1):
        expected = item.big_blind if bba_from and number >= bba_from else 0
        assert item.big_blind_ante == expected
    kinds = "".join("B" if i.kind == "break" else "L" for i in items)
    if break_every:
        assert kinds.startswith(
            ("L" * break_every + "B") * min(3, (len(levels) - 1) // break_every)
        )
    else:
        assert "B" not in kinds
    assert kinds.endswith("L") and "BB" not in kinds
    capped = big_blinds[-1] >= s.MAX_BB_FACTOR * 100 * stack or len(levels) == s.MAX_LEVELS
    assert capped or sum(i.seconds for i in items) >= target_hours * 3600
    assert capped or big_blinds[-1] >= 100 * stack
    # every break colours up all it can: the next break could not have removed more then
    in_play = list(chips)
    for index, item in enumerate(items):
        if item.kind == "break":
            assert item.color_up == removable_denominations(items, index, in_play)
            in_play = [c for c in in_play if c not in item.color_up]


@settings(max_examples=100, deadline=None)
@given(chips=st.sampled_from(CHIP_SETS[:4]), units=st.integers(min_value=40, max_value=2000))
def test_generated_blinds_rise_by_one_fifth_to_one_half_after_the_bottom(chips, units):
    items = generate(
        starting_stack=units * chips[0], denominations=chips, level_minutes=20, target_hours=8
    )
    small_blinds = [i.small_blind for i in items if i.kind == "level"]
    ratios = [b / a for a, b in itertools.pairwise(small_blinds)]
    bottom = 4 * chips[0]  # 1-4 units of the smallest chip may step by 2x, 1.5x, 1.33x
    assert all(1.2 <= r <= 1.5 for a, r in zip(small_blinds, ratios, strict=False) if a >= bottom)
    assert all(r <= 2 for r in ratios)
