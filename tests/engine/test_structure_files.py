"""Structure files (issue 29, docs/structure-files.md): the versioned JSON document and the
plain-text format, their round trips and their per-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.engine import structure_files as sf
from tourney.engine.clock import Item
from tourney.engine.errors import DomainError
from tourney.engine.structure import preset

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "static/schemas/structure-v1.schema.json").read_text()
)
VALIDATOR = jsonschema_rs.validator_for(SCHEMA)


def level(sb: int, bb: int, ante: int = 0, bba: int = 0, minutes: int = 20) -> Item:
    return Item("level", minutes * 60, small_blind=sb, big_blind=bb, ante=ante, big_blind_ante=bba)


def brk(*color_up: int, minutes: int = 10) -> Item:
    return Item("break", minutes * 60, color_up=tuple(sorted(color_up)))


def problems(text: str) -> dict[int, str]:
    with pytest.raises(sf.StructureTextError) as info:
        sf.parse_text(text)
    assert info.value.code == "bad_structure_text"
    assert info.value.status == 400
    return {p.line: p.message for p in info.value.problems}


# -- strategies -----------------------------------------------------------------------------------

amounts = st.integers(min_value=0, max_value=10**15)


@st.composite
def levels(draw) -> Item:
    sb = draw(st.integers(min_value=1, max_value=10**12))
    bb = draw(st.integers(min_value=sb, max_value=10**15))
    seconds = draw(st.integers(min_value=1, max_value=24 * 3600))
    return Item(
        "level",
        seconds,
        small_blind=sb,
        big_blind=bb,
        ante=draw(amounts),
        big_blind_ante=draw(amounts),
    )


@st.composite
def breaks(draw) -> Item:
    chips = draw(st.lists(st.integers(min_value=1, max_value=10**15), unique=True, max_size=6))
    return Item("break", draw(st.integers(1, 24 * 3600)), color_up=tuple(sorted(chips)))


structures = st.lists(st.one_of(levels(), breaks()), min_size=0, max_size=25).flatmap(
    lambda rest: st.builds(lambda first: tuple(rest[:3]) + (first,) + tuple(rest[3:]), levels())
)


# -- the JSON document ----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(structures, st.text(max_size=200), st.none() | st.integers(1, 10**12))
def test_document_round_trip(items, name, stack):
    doc = sf.to_document(items, name=name, starting_stack=stack)
    assert json.loads(json.dumps(doc)) == doc
    assert sf.from_document(json.loads(json.dumps(doc))) == items


@settings(max_examples=150, deadline=None)
@given(structures, st.text(max_size=200), st.none() | st.integers(1, 10**12))
def test_the_schema_accepts_every_exported_document(items, name, stack):
    doc = sf.to_document(items, name=name, starting_stack=stack)
    assert VALIDATOR.is_valid(doc), list(VALIDATOR.iter_errors(doc))[:3]


def test_the_schema_is_draft_2020_12_with_its_published_id():
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"] == "/static/schemas/structure-v1.schema.json"


def test_the_schema_refuses_a_bad_document_with_a_readable_message():
    doc = sf.to_document((level(100, 200), brk(25)), name="x")
    doc["items"][0]["big_blind"] = "two hundred"
    doc["items"][1]["colour_up"] = [25]
    errors = {tuple(e.instance_path): e.message for e in VALIDATOR.iter_errors(doc)}
    assert errors[("items", 0, "big_blind")] == '"two hundred" is not of type "integer"'
    assert "'colour_up' was unexpected" in errors[("items", 1)]


def test_document_shape_break_label_and_seconds():
    doc = sf.to_document(
        (level(100, 200, 25, 200), brk(25, 100, minutes=15), Item("level", 90, 200, 400)),
        name="Friday",
        starting_stack=20000,
    )
    assert doc == {
        "format": "tourney.structure",
        "version": 1,
        "name": "Friday",
        "starting_stack": 20000,
        "items": [
            {
                "kind": "level",
                "small_blind": 100,
                "big_blind": 200,
                "ante": 25,
                "big_blind_ante": 200,
                "minutes": 20,
            },
            {"kind": "break", "minutes": 15, "label": "Break", "color_up": [25, 100]},
            {
                "kind": "level",
                "small_blind": 200,
                "big_blind": 400,
                "ante": 0,
                "big_blind_ante": 0,
                "seconds": 90,
            },
        ],
    }
    assert "starting_stack" not in sf.to_document((level(1, 2),), name="x")


def test_an_unknown_version_is_refused_with_what_to_do():
    doc = sf.to_document((level(100, 200),), name="x") | {"version": 2}
    with pytest.raises(DomainError) as info:
        sf.from_document(doc)
    assert info.value.code == "unsupported_version"
    assert info.value.message == (
        "The structure file has version 2; this app reads version 1: export it again as "
        "version 1, or update the app."
    )
    assert info.value.template == sf.MSG_UNKNOWN_VERSION and info.value.params == {"version": 2}


@pytest.mark.parametrize(
    ("doc", "fields"),
    [
        ([], {"document": sf.MSG_NOT_A_DOCUMENT}),
        ({"format": "other", "version": 1, "items": []}, {"format": sf.MSG_BAD_FORMAT}),
        (
            {"format": "tourney.structure", "version": "1", "items": []},
            {"version": sf.MSG_BAD_VERSION},
        ),
    ],
)
def test_a_document_without_its_header_is_refused(doc, fields):
    with pytest.raises(DomainError) as info:
        sf.from_document(doc)
    assert (info.value.code, info.value.fields) == ("bad_document", fields)


def test_document_item_errors_are_named_by_item():
    doc = {
        "format": "tourney.structure",
        "version": 1,
        "name": 5,
        "items": [
            {"kind": "level", "small_blind": 200, "big_blind": 100, "minutes": 20},
            {"kind": "break", "minutes": 10, "label": ["x"]},
        ],
    }
    with pytest.raises(DomainError) as info:
        sf.from_document(doc)
    assert info.value.code == "bad_document"
    assert set(info.value.fields) == {"name", "items[0].big_blind", "items[1].label"}


# -- the text format ------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(structures, st.none() | st.text(max_size=50))
def test_text_round_trip(items, name):
    assert sf.parse_text(sf.to_text(items, name=name)) == items


@pytest.mark.parametrize("name", ["regular", "turbo", "deep"])
def test_text_round_trip_of_the_presets(name):
    items = preset(name)
    assert sf.parse_text(sf.to_text(items)) == items


def test_text_levels_breaks_bba_and_color_ups():
    text = """# Friday deepstack
    20, 100, 200
    20, 100, 200, 25

    20, 200, 400, 25, 400
    20, 300, 600, 600 BBA
    20 400 800 BBA
    15, Break
    10 Color up the 25s
    10, Break, color up 100, 500
    12:30, 1000, 2000, 0
    """
    assert sf.parse_text(text) == (
        level(100, 200),
        level(100, 200, 25),
        level(200, 400, 25, 400),
        level(300, 600, 0, 600),
        level(400, 800, 0, 800),
        brk(minutes=15),
        brk(25),
        brk(100, 500),
        Item("level", 750, 1000, 2000),
    )


@pytest.mark.parametrize(
    "line",
    [
        "20; 1,000; 2,000; 200",  # semicolons: commas are thousands
        "20\t1,000\t2,000\t200",  # tabs
        "20, 1,000, 2,000, 200",  # ", " separates, "1,000" is one number
        "20 1,000 2,000 200",  # spaces separate
        "20,1000,2000,200",  # no spaces: commas separate
        "20 1.000 2.000 200",  # a dot between groups of three digits
    ],
)
def test_text_thousands_by_the_lines_separators(line):
    assert sf.parse_text(line) == (level(1000, 2000, 200),)


def test_a_comma_line_with_a_thousands_comma_is_refused_not_guessed():
    got = problems("20,1,000,2,000,0")
    assert got == {1: sf.LINE_COMMA_THOUSANDS % {"value": "000"}}


def test_every_bad_line_is_named_with_what_to_write():
    text = "\n".join(
        [
            "# a comment",
            "20, 100, 200",
            "",
            "20, 200, 150",
            "Level 1, 20, 100, 200",
            "20, 100",
            "20, 1, 2, 3, 4, 5",
            "20, 100, 200, 25, 200 BBA",
            "10, Color up 25 and dinner",
            "20, 1.5, 3",
            "0, 100, 200",
            "20, 0, 0",
            "10, Color up 25, 25",
        ]
    )
    assert problems(text) == {
        4: "the big blind 150 is below the small blind 200: write the small blind first "
        '("20, 150, 200")',
        5: 'the line starts with "Level": a line starts with the minutes. Write a level as '
        '"20, 100, 200, 0" or a break as "15, Break"; start a note with #',
        6: sf.LINE_FEW_COLUMNS,
        7: sf.LINE_MANY_COLUMNS % {"count": 6},
        8: sf.LINE_BBA_TWICE,
        9: sf.LINE_BAD_CHIP % {"value": "dinner"},
        10: sf.LINE_NOT_A_NUMBER["small_blind"] % {"value": "1.5"},
        11: sf.LINE_MINUTES_RANGE % {"value": "0"},
        12: sf.LINE_ZERO_SMALL_BLIND,
        13: sf.LINE_CHIP_TWICE % {"value": 25},
    }


def test_the_error_fields_are_keyed_by_line_and_keep_template_and_values():
    with pytest.raises(sf.StructureTextError) as info:
        sf.parse_text("20, 100, 200\n20, 400, 300\n")
    (p,) = info.value.problems
    assert (p.line, p.template, dict(p.params)) == (
        2,
        sf.LINE_BIG_BELOW_SMALL,
        {"big": 300, "small": 400, "minutes": "20"},
    )
    assert info.value.fields == {"line 2": p.message}


@pytest.mark.parametrize("text", ["", "# only a comment\n", "15, Break\n"])
def test_a_text_without_a_level_is_refused(text):
    assert problems(text) == {0: sf.TEXT_NO_LEVEL}


def test_the_text_reads_at_most_500_items():
    got = problems("20, 100, 200\n" * 501)
    assert got == {501: sf.LINE_TOO_MANY}


@pytest.mark.parametrize("line", ["20, x, 400", "20 x 400 0", "20; abc; 400; 0"])
def test_a_mistyped_blind_is_a_bad_level_not_a_break(line):
    (message,) = problems(line + "\n20, 100, 200").values()
    assert message.startswith("the small blind ")


@pytest.mark.parametrize("line", ["15, Dinner break", "15 Dinner break", "15;Break"])
def test_a_break_label_may_be_several_words(line):
    assert sf.parse_text(line + "\n20, 100, 200")[0] == brk(minutes=15)
