"""``Table.players`` is kept by database triggers on the seat table (tables migration 0002):
every way a seat is written — the draw, late seating, eliminations with their breaks and
redraws, manual moves, closing a table, undo, the desk's own undo, raw updates and cascades —
leaves each table's count equal to its seats. Balancing reads the sizes from it (RULES 3.2),
so a wrong count would move the wrong players."""

from __future__ import annotations

from collections import Counter

import pytest

from tables import services as ts
from tables.models import Seat, Table
from tourney import services
from tourney.models import Entry, Player
from tourney.services import desk
from tourney.services.undo import action_undo

pytestmark = pytest.mark.django_db


def assert_table_players_true(t) -> None:
    seated = Counter(Seat.objects.filter(tournament=t).values_list("table_id", flat=True))
    kept = dict(Table.objects.filter(tournament=t).values_list("pk", "players"))
    assert kept == {pk: seated.get(pk, 0) for pk in kept}


def _tournament(director, seats_per_table=6, **kw):
    return services.tournament_create(
        actor=director, name="Counts", seats_per_table=seats_per_table, seed=5, **kw
    )


def test_the_draw_and_late_seating_count_every_seat(director):
    t = _tournament(director, tables=0, options={"draw_at_registration": False})
    players = Player.objects.bulk_create(Player(name=f"P{i:04d}") for i in range(1100))
    Entry.objects.bulk_create(  # more than one insert statement's worth of seats
        Entry(tournament=t, player=p, number=i + 1, status="registered", chips_bought=1)
        for i, p in enumerate(players)
    )
    ts.seating_draw_all(tournament_id=t.pk, actor=director)
    assert_table_players_true(t)
    assert sum(Table.objects.filter(tournament=t).values_list("players", flat=True)) == 1100


def test_eliminations_breaks_moves_closing_and_undo_keep_the_counts(director):
    t = _tournament(director, tables=4, seats_per_table=9)
    entries = [
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director) for i in range(20)
    ]
    assert_table_players_true(t)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    ts.table_close(tournament_id=t.pk, table_number=2)  # 20 players go to 3 tables of 9
    assert_table_players_true(t)
    action_undo(tournament_id=t.pk, actor=director)
    assert_table_players_true(t)
    for k in range(0, 8, 2):  # two at a time: tables break, balance, redraw
        services.elimination_record(
            tournament_id=t.pk, busts=[(entries[k].pk, 100), (entries[k + 1].pk, 200)]
        )
        assert_table_players_true(t)
    action_undo(tournament_id=t.pk, actor=director)
    assert_table_players_true(t)
    seat = Seat.objects.filter(tournament=t).first()
    target = next(
        (tb, n)
        for tb in Table.objects.filter(tournament=t, status="open").exclude(pk=seat.table_id)
        for n in range(1, tb.seats + 1)
        if not Seat.objects.filter(table=tb, number=n).exists()
    )
    ts.move_manual(
        tournament_id=t.pk, entry_id=seat.entry_id, table_number=target[0].number, seat=target[1]
    )
    assert_table_players_true(t)
    action_undo(tournament_id=t.pk, actor=director)
    assert_table_players_true(t)


def test_the_desk_undo_raw_updates_and_cascades_keep_the_counts(director):
    t = _tournament(director, tables=2)
    services.entry_register(tournament_id=t.pk, name="Bo", actor=director)
    e, _ = desk.desk_register(tournament_id=t.pk, name="Ann Lee", actor=director)
    assert_table_players_true(t)
    desk.entry_registration_undo(tournament_id=t.pk, entry_id=e.pk, actor=director)
    assert_table_players_true(t)
    seat = Seat.objects.get(tournament=t)
    other = Table.objects.filter(tournament=t).exclude(pk=seat.table_id).get()
    Seat.objects.filter(pk=seat.pk).update(table=other)  # a seat moved by a plain UPDATE
    assert_table_players_true(t)
    assert other.__class__.objects.get(pk=other.pk).players == 1
    Entry.objects.filter(pk=seat.entry_id).delete()  # the seat goes with its entry
    assert_table_players_true(t)
    assert set(Table.objects.filter(tournament=t).values_list("players", flat=True)) == {0}
