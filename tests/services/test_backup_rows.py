"""Issue 30: the restore writes its rows itself (tourney/services/backup_sql.py); what it
stores or refuses is what ``bulk_create`` stored or refused."""

from __future__ import annotations

from datetime import datetime

import pytest

from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, Player, Tournament
from tourney.selectors import backup as reads
from tourney.services.backup import tournament_import

pytestmark = pytest.mark.django_db


def _doc(director) -> dict:
    t = services.tournament_create(actor=director, name="V", tables=1, seed=1)
    services.entry_register(tournament_id=t.pk, name="Ann", actor=director)
    services.entry_register(tournament_id=t.pk, name="Bob", actor=director)
    return reads.tournament_document(t.pk)


def _counts() -> tuple[int, ...]:
    return (
        Tournament.objects.count(),
        Entry.objects.count(),
        Event.objects.count(),
        Player.objects.count(),
    )


def test_rows_keep_their_times_of_creation(director):
    doc = _doc(director)
    doc["rows"]["tourney.entry"][0]["created_at"] = "2026-01-02T03:04:05.000006+00:00"
    doc["rows"]["tourney.event"][0]["created_at"] = "2025-12-31T23:00:00+00:00"
    copy = tournament_import(document=doc)
    first = Entry.objects.filter(tournament=copy).order_by("pk").first()
    assert first.created_at == datetime.fromisoformat("2026-01-02T03:04:05.000006+00:00")
    log = Event.objects.filter(tournament=copy).order_by("pk").first()
    assert log.created_at == datetime.fromisoformat("2025-12-31T23:00:00+00:00")


def test_a_value_of_another_type_is_read_by_its_field(director):
    doc = _doc(director)
    doc["rows"]["tourney.entry"][1]["number"] = "7"  # a text where a number goes
    doc["rows"]["tourney.entry"][1]["chips_bought"] = 2.0
    copy = tournament_import(document=doc)
    second = Entry.objects.filter(tournament=copy).order_by("pk")[1]
    assert (second.number, second.chips_bought) == (7, 2)


@pytest.mark.parametrize(
    ("column", "value"),
    [("chips_bought", -5), ("number", "seven"), ("created_at", None)],
)
def test_a_value_its_column_refuses_refuses_the_whole_backup(director, column, value):
    doc = _doc(director)
    doc["rows"]["tourney.entry"][1][column] = value
    before = _counts()
    with pytest.raises(DomainError) as err:
        tournament_import(document=doc)
    assert err.value.code == "backup_invalid"
    assert _counts() == before


def test_a_row_without_its_time_of_creation_is_refused(director):
    doc = _doc(director)
    del doc["rows"]["tourney.event"][0]["created_at"]
    before = _counts()
    with pytest.raises(DomainError) as err:
        tournament_import(document=doc)
    assert err.value.code == "backup_invalid"
    assert "created_at" in err.value.message
    assert _counts() == before


def test_a_column_an_older_backup_lacks_gets_its_default(director):
    doc = _doc(director)
    for r in doc["rows"]["tourney.entry"]:
        del r["rebuys"]
    copy = tournament_import(document=doc)
    assert list(Entry.objects.filter(tournament=copy).values_list("rebuys", flat=True)) == [0, 0]
