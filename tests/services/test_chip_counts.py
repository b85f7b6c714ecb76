"""Issue 26: chip counts during play (RULES 10.8). The director enters counts for some seated
players at once (one action, one event, undone exactly); refusals write nothing; each player
shows their latest count (ties: entered last), counts of players out since are dropped, and
the average stack is the exact chips in play over the players still in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tables.models import Seat
from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.engine.errors import DomainError
from tourney.models import ChipCount, Entry, Event
from tourney.selectors import total_chips
from tourney.selectors.chip_counts import chip_counts_read, chip_leaders, table_counts
from tourney.services import chip_counts as svc
from tourney.services.undo import action_redo, action_undo

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 6, 20, 15, tzinfo=UTC)


def _seated(t, table=1) -> list[tuple[int, int]]:
    """(entry, seat) at one table, in seat order."""
    return list(
        Seat.objects.filter(tournament=t, table__number=table)
        .order_by("number")
        .values_list("entry_id", "number")
    )


def _record(t, counts, director, now=T0):
    return svc.chip_counts_record(tournament_id=t.pk, counts=counts, actor=director, now=now)


def _refused(t, counts, director, code, message=None):
    before = ChipCount.objects.count(), Event.objects.count()
    with pytest.raises(DomainError) as exc:
        _record(t, counts, director)
    assert exc.value.code == code
    if message is not None:
        assert exc.value.message == message
    assert (ChipCount.objects.count(), Event.objects.count()) == before
    return exc.value


def test_counts_for_a_table_are_one_action_with_where_each_player_sat(seated_tournament, director):
    t = seated_tournament
    seats = _seated(t)
    counts = {e: 20000 + 1000 * s for e, s in seats[:3]}
    written = _record(t, counts, director)
    assert [(w["entry"], w["chips"], w["table"], w["seat"]) for w in written] == [
        (e, 20000 + 1000 * s, 1, s) for e, s in seats[:3]
    ]
    rows = ChipCount.objects.filter(tournament=t).order_by("id")
    assert [(r.entry_id, r.chips, r.bag, r.table, r.seat, r.at, r.actor) for r in rows] == [
        (e, 20000 + 1000 * s, False, 1, s, T0, director) for e, s in seats[:3]
    ]
    ev = Event.objects.filter(tournament=t).latest("id")
    assert ev.kind == "chip_counts"
    assert ev.payload["counts"] == [
        {"entry": e, "chips": 20000 + 1000 * s, "table": 1, "seat": s} for e, s in seats[:3]
    ]
    assert ev.payload["undo"]["created"]["chipcount"] == [r.pk for r in rows]
    # What a redo would run again: the same counts, taken at the same time.
    assert ev.payload["call"] == {
        "service": "chip_counts_record",
        "kwargs": {"counts": {str(e): c for e, c in counts.items()}, "now": T0.isoformat()},
    }
    again = svc.chip_counts_record(
        tournament_id=t.pk, actor=director, **ev.payload["call"]["kwargs"] | {"now": T0}
    )
    assert [(w["entry"], w["chips"]) for w in again] == [(e, c) for e, c in counts.items()]


def test_undo_takes_the_counts_back_exactly_and_only_those(seated_tournament, director):
    t = seated_tournament
    (a, _), (b, _) = _seated(t)[:2]
    _record(t, {a: 30000}, director)
    _record(t, {a: 31000, b: 12000}, director, now=T0 + timedelta(minutes=5))
    action_undo(tournament_id=t.pk, actor=director)
    assert list(ChipCount.objects.values_list("entry_id", "chips")) == [(a, 30000)]
    assert chip_counts_read(t)["counts"][0]["chips"] == 30000
    assert Event.objects.filter(kind="chip_counts", undone=True).count() == 1
    action_redo(tournament_id=t.pk, actor=director)  # the same counts, taken at the same time
    assert sorted(ChipCount.objects.values_list("entry_id", "chips", "at")) == sorted(
        [
            (a, 30000, T0),
            (a, 31000, T0 + timedelta(minutes=5)),
            (b, 12000, T0 + timedelta(minutes=5)),
        ]
    )


def test_the_latest_count_shows_ties_by_time_then_entered_last(seated_tournament, director):
    t = seated_tournament
    (a, _), (b, _) = _seated(t)[:2]
    _record(t, {a: 40000}, director, now=T0 + timedelta(minutes=10))
    _record(t, {a: 10000, b: 5000}, director, now=T0)  # entered later, taken earlier
    _record(t, {b: 7000}, director, now=T0)  # same time: the one entered last
    read = chip_counts_read(t)
    assert [(r["entry"], r["chips"], r["at"]) for r in read["counts"]] == [
        (a, 40000, T0 + timedelta(minutes=10)),
        (b, 7000, T0),
    ]
    assert read["counted"] == 2 and read["not_counted"] == 18 and read["players"] == 20


def test_counts_of_a_player_out_since_are_dropped(seated_tournament, director):
    t = seated_tournament
    (a, _), (b, _) = _seated(t)[:2]
    _record(t, {a: 50000, b: 30000}, director)
    services.elimination_record(tournament_id=t.pk, busts=[(a, None)], actor=director)
    assert [r["entry"] for r in chip_counts_read(t)["counts"]] == [b]
    assert [r["entry"] for r in chip_leaders(t)] == [b]


def test_the_average_is_the_exact_chips_in_play_never_the_counts(seated_tournament, director):
    t = seated_tournament
    (a, _), (b, _) = _seated(t)[:2]
    _record(t, {a: 100000, b: 3}, director)
    read = chip_counts_read(t)
    assert read["chips_in_play"] == total_chips(t) == 400000
    assert read["average_stack"] == 20000  # 400,000 over 20, whatever was counted
    services.elimination_record(tournament_id=t.pk, busts=[(b, None)], actor=director)
    read = chip_counts_read(t)
    assert read["players"] == 19
    assert read["average_stack"] == 21053  # 21,052.63: to the nearest chip


def test_leaders_are_the_biggest_latest_counts(seated_tournament, director):
    t = seated_tournament
    seats = _seated(t) + _seated(t, 2)
    _record(t, {e: 1000 * (i + 1) for i, (e, _) in enumerate(seats[:8])}, director)
    leaders = chip_leaders(t, limit=5)
    assert [r["chips"] for r in leaders] == [8000, 7000, 6000, 5000, 4000]
    assert leaders[0]["name"] and leaders[0]["table"] and leaders[0]["seat"]


def test_table_counts_list_every_player_of_a_table_with_the_latest_count(
    seated_tournament, director
):
    t = seated_tournament
    seats = _seated(t)
    _record(t, {seats[1][0]: 25000}, director)
    rows = table_counts(t, 1)
    assert [(r["entry"], r["seat"]) for r in rows] == seats
    assert [(r["chips"], r["at"]) for r in rows[:2]] == [(None, None), (25000, T0)]


@pytest.mark.parametrize("chips", [0, -5, 1.5, "100", True, None])
def test_a_count_below_one_chip_or_not_a_number_is_refused(seated_tournament, director, chips):
    (a, _), (b, _) = _seated(seated_tournament)[:2]
    exc = _refused(
        seated_tournament, {b: 20000, a: chips}, director, "bad_count", svc.MSG_BAD_CHIPS
    )
    assert exc.fields["chips"] == svc.MSG_BAD_CHIPS


def test_a_player_not_seated_is_refused_and_nothing_is_written(seated_tournament, director):
    t = seated_tournament
    (a, _), (b, _) = _seated(t)[:2]
    services.elimination_record(tournament_id=t.pk, busts=[(b, None)], actor=director)
    exc = _refused(t, {a: 20000, b: 20000}, director, "not_seated", svc.MSG_NOT_SEATED)
    assert exc.status == 409 and exc.fields["entry"] == b
    _refused(t, {a: 20000, 10**9: 20000}, director, "not_seated")
    _refused(t, {"x": 20000}, director, "not_seated")


def test_another_tournaments_player_is_not_seated_here(seated_tournament, director):
    other = services.tournament_create(
        actor=director,
        name="Other",
        tables=1,
        starting_stack=20000,
        buy_in=5000,
        fee=500,
        seed=8,
        levels=TWO_LEVELS,
    )
    services.entry_register(tournament_id=other.pk, name="Elsewhere", actor=director)
    theirs = Entry.objects.get(tournament=other)
    assert Seat.objects.filter(entry=theirs).exists()
    exc = _refused(seated_tournament, {theirs.pk: 20000}, director, "not_seated")
    assert exc.fields["entry"] == theirs.pk


def test_counts_adding_up_to_more_than_the_chips_in_play_are_refused(seated_tournament, director):
    t = seated_tournament
    (a, _), (b, _) = _seated(t)[:2]
    exc = _refused(t, {a: 300000, b: 100001}, director, "more_than_in_play")
    assert exc.message == svc.MSG_TOO_MANY.format(counted=400001, in_play=400000)
    assert "400,001" in exc.message
    _record(t, {a: 300000, b: 100000}, director)  # exactly every chip: possible


def test_no_count_is_refused(seated_tournament, director):
    _refused(seated_tournament, {}, director, "no_counts", svc.MSG_NO_COUNTS)


def test_one_player_twice_is_refused(seated_tournament, director):
    (a, _) = _seated(seated_tournament)[0]
    _refused(seated_tournament, {a: 100, str(a): 200}, director, "duplicate_entry", svc.MSG_TWICE)


def test_a_finished_tournament_takes_no_count(seated_tournament, director):
    t = seated_tournament
    (a, _) = _seated(t)[0]
    t.status = t.Status.FINISHED
    t.save(update_fields=["status"])
    _refused(t, {a: 20000}, director, "tournament_finished", svc.MSG_FINISHED)
