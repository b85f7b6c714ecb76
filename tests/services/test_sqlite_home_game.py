"""The laptop default (issue 24): SQLite in WAL mode with a busy timeout and IMMEDIATE
transactions, so that the web process, the worker and beat share the file, and two desks
registering at the same moment both get a seat, each its own, with the same write path
(locks, idempotency) as on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tables.models import Seat
from tests.threads import at_once
from tourney import services
from tourney.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite default: DATABASE_URL points elsewhere")


def test_the_file_is_in_wal_mode_with_a_busy_timeout(sqlite_only):
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] >= 10_000  # ms: a writer waits for the other, no error
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_eight_desks_registering_at_once_on_sqlite_each_get_their_own_seat(sqlite_only, director):
    t = services.tournament_create(actor=director, name="Home game", tables=2, seed=4)

    def register():
        name = f"Desk {threading.get_ident()}"
        return services.entry_register(tournament_id=t.pk, name=name, actor=director)

    out = at_once(8, register)
    assert not [o for o in out if isinstance(o, BaseException)], out
    assert Entry.objects.filter(tournament=t).count() == 8
    seats = list(Seat.objects.filter(tournament=t).values_list("table_id", "number"))
    assert len(seats) == 8 and len(set(seats)) == 8
