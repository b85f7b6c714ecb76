"""``TableCount`` (tables migration 0004): the open tables of each tournament counted by
players and open seats, kept by database triggers on the table table. A late entry's draw
(RULES 1.3) and an elimination's totals (RULES 3.2–3.5, whether anything breaks or balances)
read it instead of every open table, so a wrong count would seat a late entry at the wrong
table or leave a table unbalanced. Every way a table is written keeps it true: the draw,
late seating, eliminations with breaks, balancing and redraws, closing and opening tables,
unavailable seats, undo, raw updates, cascades and a deleted tournament."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from django.db import connection

from tables import selectors as table_reads
from tables import services as ts
from tables.engine.pick import pick_table
from tables.models import Seat, Table, TableCount
from tourney import services
from tourney.models import Entry, Player, Tournament
from tourney.services.undo import action_undo


class Fixed:
    """A draw that always gives ``x``."""

    def __init__(self, x: float) -> None:
        self.x = x

    def random(self) -> float:
        return self.x


def recounted(t) -> dict[tuple[int, int], int]:
    """The buckets as counted from the tables themselves."""
    c: Counter = Counter()
    for tb in Table.objects.filter(tournament=t, status="open"):
        taken = Seat.objects.filter(table=tb).count()
        c[(taken, tb.seats - len(tb.unavailable_seats) - taken)] += 1
    return dict(c)


def kept(t) -> dict[tuple[int, int], int]:
    rows = TableCount.objects.filter(tournament_id=t.pk).exclude(tables=0)
    return {(r.players, r.room): r.tables for r in rows}


def assert_counts_true(t) -> None:
    assert kept(t) == recounted(t)


def _tournament(director, tables=3, seats=9, **options):
    return services.tournament_create(
        actor=director, name="Counts", tables=tables, seats_per_table=seats, seed=7, options=options
    )


def _register(t, n, director, prefix="P"):
    return [
        services.entry_register(tournament_id=t.pk, name=f"{prefix}{i}", actor=director)
        for i in range(n)
    ]


@pytest.mark.django_db
def test_the_draw_late_seating_and_new_tables_keep_the_counts(director):
    t = _tournament(director, tables=0, seats=10, draw_at_registration=False)
    players = Player.objects.bulk_create(Player(name=f"P{i:04d}") for i in range(1005))
    Entry.objects.bulk_create(  # more than one insert statement's worth of seats
        Entry(tournament=t, player=p, number=i + 1, status="registered", chips_bought=1)
        for i, p in enumerate(players)
    )
    ts.seating_draw_all(tournament_id=t.pk, actor=director)
    assert_counts_true(t)
    assert sum(kept(t).values()) == Table.objects.filter(tournament=t).count() == 101
    _register(t, 30, director, prefix="Late")
    assert_counts_true(t)


@pytest.mark.django_db
def test_eliminations_breaks_closing_unavailable_seats_and_undo_keep_the_counts(director):
    t = _tournament(director, tables=4, seats=9)
    entries = _register(t, 22, director)
    assert_counts_true(t)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    ts.table_close(tournament_id=t.pk, table_number=2)
    assert_counts_true(t)
    action_undo(tournament_id=t.pk, actor=director)
    assert_counts_true(t)
    tb = Table.objects.filter(tournament=t, status="open").first()
    free = set(range(1, tb.seats + 1)) - set(
        Seat.objects.filter(table=tb).values_list("number", flat=True)
    )
    ts.seat_set_available(
        tournament_id=t.pk, table_number=tb.number, seat=min(free), available=False
    )
    assert_counts_true(t)
    for k in range(0, 12, 2):  # two at a time: tables break, balance, redraw
        services.elimination_record(
            tournament_id=t.pk, busts=[(entries[k].pk, 100), (entries[k + 1].pk, 200)]
        )
        assert_counts_true(t)
    action_undo(tournament_id=t.pk, actor=director)
    assert_counts_true(t)


@pytest.mark.django_db
def test_raw_updates_cascades_and_a_deleted_tournament_keep_the_counts(director):
    t = _tournament(director, tables=2, seats=6)
    _register(t, 5, director)
    Table.objects.filter(tournament=t, number=1).update(seats=8)  # a plain UPDATE
    assert_counts_true(t)
    Table.objects.filter(tournament=t, number=2).update(status="broken")
    assert_counts_true(t)
    Entry.objects.filter(tournament=t).first().delete()  # its seat goes with it
    assert_counts_true(t)
    Table.objects.filter(tournament=t, number=2).delete()  # a broken table: no bucket
    assert_counts_true(t)
    other = _tournament(director, tables=1, seats=6)
    _register(other, 2, director)
    Tournament.objects.filter(pk=t.pk).delete()
    assert not TableCount.objects.filter(tournament_id=t.pk).exists()
    assert_counts_true(other)  # another tournament's counts untouched


@pytest.mark.django_db
def test_the_triggers_are_there():
    """A later migration that rebuilds the table table on SQLite drops its triggers."""
    with connection.cursor() as c:
        if connection.vendor == "postgresql":
            c.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            c.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        names = {r[0] for r in c.fetchall()}
    assert {
        "tables_table_added",
        "tables_table_removed",
        "tables_table_changed",
        "tables_tournament_gone",
    } <= names


@pytest.mark.django_db
def test_a_field_of_like_tables_draws_the_engines_table_without_the_candidates_rows(
    director, monkeypatch
):
    # RULES 1.3: 40 like tables, 39 tied with the fewest players: the draw is the engine's,
    # seed for seed, in one statement, made from the counts and the index alone — with the
    # draw over the candidates' rows (``_drawn_sql``) taken away, it still picks right.
    from django.test.utils import CaptureQueriesContext

    t = _tournament(director, tables=40, seats=10)
    _register(t, 241, director)  # six a table, one with seven
    rows = table_reads.open_tables(t)
    counts = {r.number: r.players for r in rows}
    capacity = {r.number: r.seats - len(r.unavailable_seats) for r in rows}
    assert sorted(Counter(counts.values()).items()) == [(6, 39), (7, 1)]
    nothing = "SELECT CAST(NULL AS BIGINT) FROM (SELECT %s AS t, %s AS s, %s AS x) unused"
    monkeypatch.setattr(table_reads, "_drawn_sql", lambda: nothing)
    for seed in range(200):
        mine, theirs = random.Random(seed), random.Random(seed)
        expected = pick_table(counts, capacity, mine)
        with CaptureQueriesContext(connection) as q:
            picked = table_reads.late_pick(t, theirs)
        assert picked[0].number == expected
        assert len(q.captured_queries) == 1
        assert mine.random() == theirs.random()
    # Draws on and beside every table's last open seat (39 tables of 4: 156 seats): a draw
    # exactly on a boundary goes to the next table (``>``, as pick_table compares), whatever
    # the database's division rounds to.
    total = 39 * 4
    for k in range(total + 1):
        for x in (k / total, math.nextafter(k / total, 0), math.nextafter(k / total, 1)):
            if not 0 <= x < 1:
                continue
            expected = pick_table(counts, capacity, Fixed(x))
            assert table_reads.late_pick(t, Fixed(x))[0].number == expected, x
    # Tied tables of different open seats are drawn over their rows: taken away, no table.
    tb = Table.objects.get(tournament=t, number=min(n for n, c in counts.items() if c == 6))
    taken = set(Seat.objects.filter(table=tb).values_list("number", flat=True))
    free = min(set(range(1, tb.seats + 1)) - taken)
    ts.seat_set_available(tournament_id=t.pk, table_number=tb.number, seat=free, available=False)
    assert table_reads.late_pick(t, random.Random(1)) is None
    monkeypatch.undo()
    counts_now = {r.number: r.players for r in table_reads.open_tables(t)}
    capacity[tb.number] -= 1
    for seed in range(50):
        expected = pick_table(counts_now, capacity, random.Random(seed))
        assert table_reads.late_pick(t, random.Random(seed))[0].number == expected
