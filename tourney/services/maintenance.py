"""Database upkeep for the tables every write action rewrites.

A tournament day rewrites a few tables all the time: the tournament row (its version and
counters, every action), the seats (every bust and move deletes and inserts rows), the tables
(their kept player counts) and the entries (busts, the late-registration place shift).
PostgreSQL reclaims the dead row versions this leaves and keeps the planner's statistics with
its autovacuum daemon. Where a server runs with ``autovacuum = off`` (the PostgreSQL on the
machines this project is built on does), nothing does: by the end of a 10,000-entry
simulation the seat table held 21,000 dead rows beside its one live row, and the planner,
which had never analysed the entry table, estimated one busted entry where there were 9,999.

``vacuum_hot_tables`` does that upkeep for these four tables only, and only when the server's
autovacuum is off: the Celery beat runs it every few minutes (tourney/celery.py), and the
simulation (``manage.py simulate``), which has no beat, runs it between hands. It never runs
inside a transaction (VACUUM cannot) and does nothing on SQLite.

``idempotent_requests_expire`` deletes the idempotency keys and form nonces older than 24
hours (tourney/core/idempotency.py); the beat runs it every hour.
"""

from __future__ import annotations

from datetime import datetime

from django.db import connection

from tables.models import Seat, Table
from tourney.core.idempotency import expired_before
from tourney.models import Entry, IdempotentRequest, Tournament

HOT_MODELS = (Tournament, Table, Seat, Entry)


def autovacuum_is_off() -> bool:
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        return cursor.fetchone()[0] != "on"


def vacuum_hot_tables(*, force: bool = False) -> list[str]:
    """``VACUUM (ANALYZE)`` the hot tables if the server's autovacuum is off (or ``force``).
    Returns the tables vacuumed (none on SQLite, inside a transaction, or when the server
    does it itself)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return []
    if not force and not autovacuum_is_off():
        return []
    done = []
    with connection.cursor() as cursor:
        for model in HOT_MODELS:
            table = model._meta.db_table
            cursor.execute(f"VACUUM (ANALYZE) {connection.ops.quote_name(table)}")
            done.append(table)
    return done


def idempotent_requests_expire(*, now: datetime | None = None) -> int:
    """Delete the stored answers of keys older than 24 hours; how many were deleted. A key
    sent again after that runs as a new request."""
    deleted, _ = IdempotentRequest.objects.filter(created_at__lt=expired_before(now)).delete()
    return deleted
