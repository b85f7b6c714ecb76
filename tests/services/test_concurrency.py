"""Two desks registering at once never share a seat (TOURNAMENT_DAY; issue 7's load: eight
desks, 400 players, 45 tables). Real threads on PostgreSQL, committed transactions."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connections

from tables.models import Seat, Table
from tourney import services
from tourney.models import Entry


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_eight_desks_register_400_players_into_45_tables_at_once(director):
    t = services.tournament_create(actor=director, name="Rush", tables=45, seed=1)
    errors: list[BaseException] = []

    def desk(k: int) -> None:
        try:
            for i in range(50):
                services.entry_register(tournament_id=t.pk, name=f"D{k}-{i}", actor=director)
        except BaseException as exc:  # noqa: BLE001 — asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=desk, args=(k,)) for k in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(300)
    assert errors == []
    assert Entry.objects.filter(tournament=t).count() == 400
    assert Entry.objects.filter(tournament=t, status="seated").count() == 400
    seats = list(Seat.objects.filter(tournament=t).values_list("table_id", "number", "entry_id"))
    assert len(seats) == 400
    assert len({(tb, n) for tb, n, _ in seats}) == 400  # no seat shared
    assert len({e for *_, e in seats}) == 400  # no entry twice
    numbers = sorted(Entry.objects.filter(tournament=t).values_list("number", flat=True))
    assert numbers == list(range(1, 401))
    per_table = Counter(tb for tb, *_ in seats)
    sizes = [per_table.get(r.pk, 0) for r in Table.objects.filter(tournament=t)]
    assert max(sizes) - min(sizes) <= 1  # RULES 1.3 keeps the draw even
