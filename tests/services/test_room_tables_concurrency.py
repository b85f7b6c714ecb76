"""Two events opening tables at the same moment never get the same number (RULES 13.1): the
room-wide lock (``tourney.core.locking.lock_room_tables``) serialises them. Real threads on
PostgreSQL, committed transactions."""

from __future__ import annotations

from collections import Counter

import pytest

from tables.models import Table
from tables.services import table_open
from tourney import services
from tourney.services.room import room_update

from ..threads import at_once


def _open_at_once(director, count: int) -> list[int]:
    events = [
        services.tournament_create(actor=director, name=f"E{i}", tables=1, seed=i) for i in range(4)
    ]
    turn = iter(events)

    def one():
        t = next(turn)  # each thread its own event (next() is atomic under the GIL)
        return [r.number for r in table_open(tournament_id=t.pk, count=count, actor=director)]

    results = at_once(4, one)
    assert not [r for r in results if isinstance(r, BaseException)], results
    return list(
        Table.objects.filter(tournament__in=events, status="open").values_list("number", flat=True)
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_four_events_open_tables_at_once_without_a_shared_number(director):
    opened = _open_at_once(director, 3)
    assert len(opened) == 16
    assert Counter(opened).most_common(1)[0][1] == 1  # no number twice
    assert sorted(opened) == list(range(1, 17))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_four_events_take_the_plans_tables_at_once(director):
    room_update(name="", floor_plan="101-120", actor=director)
    opened = _open_at_once(director, 2)
    assert len(opened) == len(set(opened)) == 12
    assert set(opened) == set(range(101, 113))
