"""The tournament lock: every write locks the tournament row first (the one lock order), and
``tournament_action`` wraps a write in its transaction and undo journal."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction

from tourney.core.journal import current as journal_current
from tourney.core.journal import journal
from tourney.core.messages import MSG_NOT_FOUND
from tourney.core.rows import load_with as load_rows_with
from tourney.engine.errors import DomainError
from tourney.models import Tournament


def lock_tournament(tournament_id: int) -> Tournament:
    """Lock the tournament row for the rest of the transaction (the one lock order)."""
    j = journal_current()
    if j is not None and j.tournament_id == tournament_id:
        j.flush_counters()  # a nested service reads the row as the outer one left it
    if not 0 < tournament_id < 2**63:  # no such row, and beyond what the column can hold
        raise DomainError("not_found", MSG_NOT_FOUND, status=404)
    # Plain SQL: every write starts here, and the ORM's query building was a third of it.
    # The payout table and the frozen prizes come only if they changed since this process
    # last read them (their ``prizes_key``, set by the database): turning them into text
    # was two thirds of the lock's time at 10,000 entries.
    lock = "FOR UPDATE" if connection.features.has_select_for_update else ""
    seen = _PRIZES.get(tournament_id)
    hint = seen[0] if seen is not None else None  # NULL: equal to nothing, all is read
    found = load_rows_with(
        Tournament,
        "id = %s",
        [tournament_id],
        extra=PRIZES_SQL,
        extra_params=[hint, hint],
        suffix=lock,
        skip=PRIZE_FIELDS,
    )
    if not found:
        raise DomainError("not_found", MSG_NOT_FOUND, status=404)
    t, (key, table, prizes) = found[0]
    if seen is not None and key == hint:
        table, prizes = seen[1], seen[2]
    else:
        table, prizes = (
            Tournament._meta.get_field(f).from_db_value(v, None, connection)
            for f, v in zip(PRIZE_FIELDS, (table, prizes), strict=True)
        )
        if len(_PRIZES) >= 256:
            _PRIZES.clear()
        _PRIZES[tournament_id] = (key, table, prizes)
    # Each instance its own lists: a caller may change them.
    t.payout_percentages = list(table) if table is not None else None
    t.frozen_prizes = list(prizes) if prizes is not None else None
    return t


# The room's tables (issue 28, RULES 13.1): one fixed key for PostgreSQL's advisory lock.
ROOM_TABLES_LOCK = 0x7461626C  # "tabl"


def lock_room_tables() -> None:
    """Serialise, room-wide and to the end of the transaction, the writers that hand out
    table numbers or change the floor plan: two events opening tables at once never get the
    same number (RULES 13.1). Taken after the tournament's lock (the one lock order). SQLite
    serialises every write already."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ROOM_TABLES_LOCK])


PRIZE_FIELDS = ("payout_percentages", "frozen_prizes")


PRIZES_SQL = (
    "prizes_key, CASE WHEN prizes_key = %s THEN NULL ELSE payout_percentages END, "
    "CASE WHEN prizes_key = %s THEN NULL ELSE frozen_prizes END"
)


# tournament id -> (prizes_key, payout table, frozen prizes) as this process last read them
_PRIZES: dict[int, tuple[str, Any, Any]] = {}


@contextmanager
def tournament_action(tournament_id: int, *, call: dict[str, Any] | None = None):
    """One write action: a transaction, the tournament row locked first, and the undo
    journal of every row it changes (tourney/core/journal.py)."""
    with transaction.atomic():
        t = lock_tournament(tournament_id)
        with journal(t) as j:
            if call is not None and j.call is None:
                j.call = call
            yield t
