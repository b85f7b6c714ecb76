"""Structure files into a tournament (issue 29): read, preview, import through structure_set
(its rules, event and undo), refusals that write nothing."""

from __future__ import annotations

import json

import pytest

from tourney import services
from tourney.engine import structure_files as sf
from tourney.engine.clock import Item
from tourney.engine.errors import DomainError
from tourney.models import Event, Level
from tourney.selectors.clock import structure_items
from tourney.services import structure_files as files
from tourney.services.undo import action_undo

GOOD = "20, 100, 200\n15, Break, color up 25\n20, 200, 400, 400 BBA\n"


def stored(t):
    return list(
        Level.objects.filter(tournament=t)
        .order_by("index")
        .values_list("kind", "small_blind", "big_blind", "big_blind_ante", "seconds")
    )


def test_detect_tells_json_from_text():
    assert files.detect('\ufeff  {"format": 1}') == files.JSON
    assert files.detect("20, 100, 200") == files.TEXT


@pytest.mark.django_db
def test_import_text_replaces_the_structure_with_an_event_and_undo(tournament, director):
    before = stored(tournament)
    read = files.read_file(GOOD)
    assert read.kind == files.TEXT and read.lines == (1, 2, 3)
    assert files.import_problems(tournament, read) == []
    files.structure_import(tournament_id=tournament.pk, read=read, actor=director)
    assert stored(tournament) == [
        ("level", 100, 200, 0, 1200),
        ("break", 0, 0, 0, 900),
        ("level", 200, 400, 400, 1200),
    ]
    assert Event.objects.filter(tournament=tournament, kind="structure_set").exists()
    action_undo(tournament_id=tournament.pk, actor=director)
    assert stored(tournament) == before


@pytest.mark.django_db
def test_import_json_round_trips_the_export(tournament, director):
    doc = files.export_document(tournament)
    assert doc["name"] == "Friday 50" and doc["starting_stack"] == 20000
    read = files.read_file(json.dumps(doc))
    assert read.kind == files.JSON
    assert read.items == structure_items(tournament)
    assert files.read_file(files.export_text(tournament)).items == structure_items(tournament)


@pytest.mark.django_db
def test_schema_errors_come_before_the_engine_and_name_the_item(tournament):
    doc = files.export_document(tournament)
    doc["items"][0]["big_blind"] = -5
    del doc["items"][1]["minutes"]
    with pytest.raises(DomainError) as info:
        files.read_file(json.dumps(doc))
    assert info.value.code == "bad_document"
    assert info.value.fields == {
        "items[0].big_blind": "-5 is less than the minimum of 1",
        "items[1]": files.MSG_DURATION,
    }


@pytest.mark.django_db
def test_a_newer_version_is_refused_before_the_schema(tournament):
    doc = files.export_document(tournament) | {"version": 3, "new_field": 1}
    with pytest.raises(DomainError) as info:
        files.read_file(json.dumps(doc))
    assert info.value.code == "unsupported_version"


def test_bad_json_names_its_line():
    with pytest.raises(DomainError) as info:
        files.read_file('{"format": "tourney.structure",\n "version": 1,,\n}')
    assert info.value.code == "bad_document"
    assert list(info.value.fields) == ["line 2"]


@pytest.mark.django_db
def test_chip_rule_problems_name_the_files_line_and_nothing_is_written(tournament, director):
    before = stored(tournament)
    read = files.read_file("# chips 25 and up\n20, 100, 200\n20, 130, 260\n")
    got = files.import_problems(tournament, read)
    assert [p.line for p in got] == [3, 3]
    assert got[0].message.startswith(
        "The structure breaks the chip rules (RULES 4.5, 5.1): "
        "small blind: 130 is not a multiple of 25"
    )
    with pytest.raises(DomainError) as info:
        files.structure_import(tournament_id=tournament.pk, read=read, actor=director)
    assert info.value.code == "bad_structure"
    assert set(info.value.fields) == {"line 3"}
    assert stored(tournament) == before


@pytest.mark.django_db
def test_once_the_clock_runs_played_items_must_stay(tournament, director):
    services.clock_action(tournament_id=tournament.pk, action="start", actor=director)
    tournament.refresh_from_db()
    before = stored(tournament)
    read = files.read_file("20, 50, 100\n20, 100, 200\n")
    assert [p.template for p in files.import_problems(tournament, read)] == [files.MSG_PAST]
    with pytest.raises(DomainError) as info:
        files.structure_import(tournament_id=tournament.pk, read=read, actor=director)
    assert (info.value.code, info.value.status) == ("structure_past", 409)
    assert stored(tournament) == before
    # the played level kept, what follows replaced: allowed
    current = structure_items(tournament)[0]
    keep = sf.to_text((current, Item("level", 600, small_blind=500, big_blind=1000)))
    files.structure_import(tournament_id=tournament.pk, read=files.read_file(keep), actor=director)
    assert stored(tournament)[1] == ("level", 500, 1000, 0, 600)


@pytest.mark.parametrize(("text", "code"), [("", "bad_file"), ("  \n", "bad_file")])
def test_an_empty_file_is_refused(text, code):
    with pytest.raises(DomainError) as info:
        files.read_file(text)
    assert info.value.code == code


def test_a_binary_file_is_refused():
    with pytest.raises(DomainError) as info:
        files.decode(b"\xff\xfe\x00 20")
    assert info.value.code == "bad_file"


def test_a_windows_1252_file_is_read():
    text = files.decode("20, 100, 200\n15, Pause \u2013 Farbwechsel\n".encode("cp1252"))
    assert files.read_file(text).items[1].kind == "break"
