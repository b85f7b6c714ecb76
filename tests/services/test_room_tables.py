"""Tables shared by the room (RULES 13): a table number open in one unfinished event is never
handed to another; with a floor plan the plan's first free numbers go first, and when the plan
has no free table left the opening is refused with nothing written."""

from __future__ import annotations

import pytest

from tables.models import Table
from tables.services import seating_draw_all, table_open
from tables.services import seats as seat_writes
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import Event, Tournament
from tourney.services.room import room_update
from tourney.services.undo import action_undo


def make(director, name: str, tables: int) -> Tournament:
    return services.tournament_create(actor=director, name=name, tables=tables, seed=1)


def numbers(t: Tournament, status: str | None = Table.Status.OPEN) -> list[int]:
    rows = Table.objects.filter(tournament=t)
    if status:
        rows = rows.filter(status=status)
    return sorted(rows.values_list("number", flat=True))


def set_plan(text: str, director) -> None:
    room_update(name="The Card Room", floor_plan=text, actor=director)


@pytest.mark.django_db
def test_home_game_numbers_count_up_around_other_events(director):
    main = make(director, "Main", 3)
    turbo = make(director, "Turbo", 2)
    assert numbers(main) == [1, 2, 3]
    assert numbers(turbo) == [4, 5]  # RULES 13.1: 1-3 are Main's
    table_open(tournament_id=main.pk, count=2, actor=director)
    assert numbers(main) == [1, 2, 3, 6, 7]


@pytest.mark.django_db
def test_a_finished_or_bagged_event_frees_its_numbers(director):
    day1 = make(director, "Day 1A", 2)
    Tournament.objects.filter(pk=day1.pk).update(bagged=True)
    assert numbers(make(director, "Day 2", 2)) == [1, 2]
    done = make(director, "Early", 1)
    assert numbers(done) == [3]
    Tournament.objects.filter(pk=done.pk).update(status=Tournament.Status.FINISHED)
    assert numbers(make(director, "Late", 1)) == [3]


@pytest.mark.django_db
def test_a_broken_table_of_another_event_is_free(director):
    main = make(director, "Main", 3)
    Table.objects.filter(tournament=main, number=3).update(status=Table.Status.BROKEN)
    assert numbers(make(director, "Turbo", 1)) == [3]


@pytest.mark.django_db
def test_the_floor_plan_order_comes_first(director):
    set_plan("31-33, 1-4", director)
    main = make(director, "Main", 2)
    assert numbers(main) == [31, 32]
    turbo = make(director, "Turbo", 3)
    assert numbers(turbo) == [1, 2, 33]
    table_open(tournament_id=main.pk, count=1, actor=director)
    assert numbers(main) == [3, 31, 32]


@pytest.mark.django_db
def test_an_events_own_broken_numbers_are_skipped(director):
    set_plan("1-5", director)
    main = make(director, "Main", 2)
    Table.objects.filter(tournament=main, number=1).update(status=Table.Status.BROKEN)
    table_open(tournament_id=main.pk, count=1, actor=director)
    assert numbers(main, None) == [1, 2, 3]  # 1 is broken here: unique per tournament


@pytest.mark.django_db
def test_no_free_table_is_refused_with_nothing_written(director):
    set_plan("1-4", director)
    main = make(director, "Main", 3)
    turbo = make(director, "Turbo", 1)
    events = Event.objects.count()
    with pytest.raises(DomainError) as exc:
        table_open(tournament_id=turbo.pk, count=1, actor=director)
    assert exc.value.code == "no_free_table"
    assert exc.value.status == 409
    assert exc.value.message == seat_writes.MSG_NO_FREE_TABLE.format(
        count=4, free=0, free_verb="are", needed=1, using="Main (1–3)"
    )
    assert numbers(turbo) == [4]
    assert numbers(main) == [1, 2, 3]
    assert Event.objects.count() == events


@pytest.mark.django_db
def test_creating_an_event_with_no_free_table_writes_nothing(director):
    set_plan("1-2", director)
    make(director, "Main", 2)
    before = Tournament.objects.count()
    with pytest.raises(DomainError) as exc:
        make(director, "Turbo", 1)
    assert exc.value.code == "no_free_table"
    assert "Main (1, 2)" in exc.value.message
    assert Tournament.objects.count() == before


@pytest.mark.django_db
def test_undo_of_a_table_open_frees_the_number(director):
    set_plan("1-6", director)
    main = make(director, "Main", 2)
    table_open(tournament_id=main.pk, count=1, actor=director)
    assert numbers(main) == [1, 2, 3]
    action_undo(tournament_id=main.pk, actor=director)
    assert numbers(main) == [1, 2]
    assert numbers(make(director, "Turbo", 1)) == [3]


@pytest.mark.django_db
def test_registration_opens_a_table_from_the_plan(director):
    set_plan("7-9", director)
    t = services.tournament_create(
        actor=director, name="Small", tables=1, seats_per_table=2, seed=1
    )
    other = make(director, "Other", 1)
    assert numbers(other) == [8]
    for i in range(3):
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
    assert numbers(t) == [7, 9]  # auto_open_tables: the plan's next free number


@pytest.mark.django_db
def test_the_draw_at_the_start_opens_the_plans_free_tables(director):
    set_plan("10-12, 1-3", director)
    make(director, "Main", 1)  # holds 10
    home = services.tournament_create(
        actor=director,
        name="Home",
        tables=0,
        seats_per_table=4,
        seed=1,
        options={"draw_at_registration": False},
    )
    for i in range(10):
        services.entry_register(tournament_id=home.pk, name=f"H{i}", actor=director)
    seating_draw_all(tournament_id=home.pk, actor=director)
    assert numbers(home) == [1, 11, 12]  # three tables of four: the plan's next free ones
