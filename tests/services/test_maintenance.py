"""Upkeep of the hot tables where the PostgreSQL server runs without autovacuum
(tourney/services/maintenance.py): the beat task and the simulation call it."""

from __future__ import annotations

import pytest
from django.db import connection

from tables.models import Seat
from tourney import services
from tourney.services import maintenance
from tourney.tasks import vacuum_hot_tables


@pytest.mark.django_db
def test_it_never_runs_inside_a_transaction_or_on_sqlite():
    # VACUUM cannot run in a transaction block; a test's transaction is one.
    assert maintenance.vacuum_hot_tables(force=True) == []
    if connection.vendor != "postgresql":
        assert maintenance.autovacuum_is_off() is False


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_it_reclaims_the_dead_seat_rows_busts_leave_and_follows_the_server_setting(director):
    t = services.tournament_create(actor=director, name="Upkeep", tables=3, seed=1)
    for i in range(20):
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
    for seat in list(Seat.objects.filter(tournament=t))[:10]:
        services.elimination_record(tournament_id=t.pk, busts=[(seat.entry_id, 100)])

    def dead_seats() -> int:
        with connection.cursor() as cursor:
            if connection.pg_version >= 150000:  # statistics are flushed lazily since 15
                cursor.execute("SELECT pg_stat_force_next_flush()")
            cursor.execute(
                "SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = %s",
                [Seat._meta.db_table],
            )
            return cursor.fetchone()[0]

    assert dead_seats() >= 10
    done = maintenance.vacuum_hot_tables(force=True)
    assert set(done) == {"tourney_tournament", "tables_table", "tables_seat", "tourney_entry"}
    assert dead_seats() == 0
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        off = cursor.fetchone()[0] != "on"
    assert maintenance.autovacuum_is_off() is off
    # The beat's task does it only where the server does not.
    assert vacuum_hot_tables() == (done if off else [])
