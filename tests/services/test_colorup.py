"""Issue 5: the color-up at a break, in a tournament (RULES 5.1-5.9, 4.5).

The fixture structure is 100/200, a break that colors up the 25s, then 200/400; the chips are
25, 100, 500, ... so the 25s race into 100s, four 25s to a 100."""

from __future__ import annotations

import pytest

from tables.models import Seat
from tourney import selectors, services
from tourney.engine import structure as structure_engine
from tourney.engine.errors import DomainError
from tourney.models import ChipDenomination, Event, Tournament
from tourney.selectors import clock as clock_reads
from tourney.selectors.colorup import colorup_pending, colorup_rack_plan
from tourney.services import colorup

pytestmark = pytest.mark.django_db

STACKS = 20 * 20000


@pytest.fixture
def at_break(seated_tournament, director):
    t = seated_tournament
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="jump", index=1, actor=director)
    services.clock_action(tournament_id=t.pk, action="pause", actor=director)
    t.refresh_from_db()
    return t


def _seats(t: Tournament, table: int) -> list[int]:
    return list(
        Seat.objects.filter(tournament=t, table__number=table)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _race(t: Tournament, table: int, **kwargs):
    args = {"tournament_id": t.pk, "table_number": table, "remove": 25, "odd_chips": {}}
    return colorup.colorup_race_table(**(args | kwargs))


def _race_every_table(t: Tournament, director) -> None:
    for table in (1, 2, 3):
        _race(t, table, actor=director, seed=table)


def _error(excinfo) -> tuple[str, int]:
    return excinfo.value.code, excinfo.value.status


# ---------------------------------------------------------------- pending and the race


def test_pending_lists_the_breaks_color_up_and_who_reports_odd_chips(at_break):
    pending = colorup_pending(at_break)

    assert pending["at_break"] is True
    assert pending["break_index"] == 1
    assert pending["denominations"] == [
        {"value": 25, "color": "green", "unit": 100, "removable": True}
    ]
    assert [row["table"] for row in pending["tables"]] == [1, 2, 3]
    assert sum(len(row["seats"]) for row in pending["tables"]) == 20
    first = pending["tables"][0]
    assert [s["seat"] for s in first["seats"]] == _seats(at_break, 1)
    assert first["seats"][0]["name"].startswith("Player ")
    assert first["raced"] == [] and first["to_race"] == [25]
    assert pending["races"] == []
    assert pending["total_chips"] == STACKS
    assert pending["average_stack"] == STACKS // 20


def test_race_with_the_dealers_cards_follows_rules_5_3_to_5_6(at_break, director):
    a, b, c = _seats(at_break, 1)[:3]

    result = _race(
        at_break,
        1,
        odd_chips={a: 3, b: 2, c: 1},
        whole_stack=[c],
        cards={a: ["2c", "3d", "4h"], b: ["As", "2d"], c: ["Kd"]},
        actor=director,
    )

    # T = 6 x 25 = 150: one chip of 100 to the best card (As), and the leftover 50 is half of
    # 100, so the next best card (Kd) wins one more (RULES 5.5, 5.6); 4h wins nothing.
    players = {p["seat"]: p for p in result["players"]}
    assert (players[b]["won"], players[c]["won"], players[a]["won"]) == (1, 1, 0)
    assert players[b]["chips"] == {"100": 1} and players[a]["chips"] == {}
    assert players[c]["protected"] is False  # RULES 5.7 only for who wins nothing
    assert players[a]["cards"] == ["2c", "3d", "4h"]
    assert players[a]["entry"] == Seat.objects.get(table__number=1, number=a).entry_id
    assert len(players) == len(_seats(at_break, 1))  # every seat, zero odd chips included
    assert (result["unit"], result["awarded"]) == (100, 2)
    assert (result["value_added"], result["value_removed"], result["chips_delta"]) == (50, 0, 50)
    assert result["cards_given"] is True and result["seed"] is None

    at_break.refresh_from_db()
    assert at_break.chips_color_up_delta == 50
    assert selectors.total_chips(at_break) == STACKS + 50
    # RULES 10.8: to the nearest chip, a half chip up
    assert colorup_pending(at_break)["average_stack"] == (2 * (STACKS + 50) + 20) // 40

    event = Event.objects.get(pk=result["event"])
    assert event.kind == "chip_race" and event.actor == director
    assert event.payload["table"] == 1 and event.payload["chips_delta"] == 50
    assert event.payload["inputs"]["odd_chips"] == {str(a): 3, str(b): 2, str(c): 1}
    assert event.payload["inputs"]["cards"][str(b)] == ["As", "2d"]


def test_a_player_whose_whole_stack_was_odd_chips_is_not_raced_out(at_break, director):
    a, b = _seats(at_break, 2)[:2]

    result = _race(
        at_break, 2, odd_chips={a: 1, b: 1}, whole_stack=[a], cards={a: ["2c"], b: ["Ah"]}
    )

    # T = 50: no whole chip; the leftover 50 (half) goes to Ah; 2c held the whole stack and
    # won nothing, so gets a chip anyway (RULES 5.7): 50 + 100 enter play.
    players = {p["seat"]: p for p in result["players"]}
    assert players[b]["won"] == 1 and players[b]["protected"] is False
    assert players[a]["won"] == 0 and players[a]["protected"] is True
    assert players[a]["chips"] == {"100": 1}
    assert (result["awarded"], result["value_added"], result["value_removed"]) == (1, 150, 0)
    at_break.refresh_from_db()
    assert at_break.chips_color_up_delta == 150
    assert selectors.total_chips(at_break) == STACKS + 150


def test_more_than_half_threshold_removes_an_exact_half(at_break, director):
    Tournament.objects.filter(pk=at_break.pk).update(race_threshold="more_than_half")
    a, b = _seats(at_break, 2)[:2]

    result = _race(at_break, 2, odd_chips={a: 1, b: 1}, cards={a: ["2c"], b: ["Ah"]})

    assert [p["won"] for p in result["players"] if p["seat"] in (a, b)] == [0, 0]
    assert result["threshold"] == "more_than_half"
    assert (result["value_added"], result["value_removed"], result["chips_delta"]) == (0, 50, -50)
    at_break.refresh_from_db()
    assert at_break.chips_color_up_delta == -50
    assert selectors.total_chips(at_break) == STACKS - 50
    assert colorup_pending(at_break)["average_stack"] == 19998  # 19,997.5: a half up (RULES 10.8)


def test_a_simulated_race_records_a_replayable_seed(at_break, director):
    seats = _seats(at_break, 3)
    odd = {s: 1 + i % 3 for i, s in enumerate(seats)}

    first = _race(at_break, 3, odd_chips=odd, actor=director)
    colorup.colorup_race_undo(tournament_id=at_break.pk, table_number=3, remove=25)
    again = _race(at_break, 3, odd_chips=odd, seed=first["seed"])

    assert first["seed"] is not None and first["cards_given"] is False
    assert again["players"] == first["players"]  # RULES 1.1: the same seed deals the same
    cards = [c for p in first["players"] for c in p["cards"]]
    assert len(cards) == sum(odd.values()) == len(set(cards))
    at_break.refresh_from_db()
    assert at_break.chips_color_up_delta == again["chips_delta"]


def test_simulated_races_step_the_draw_counter_and_the_chips_with_their_event(at_break, director):
    """Each drawn race writes its event, the draw counter (RULES 1.1) and the chips it adds
    (RULES 5.9) in one statement: two races, two steps, the sum of both deltas."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    t = Tournament.objects.get(pk=at_break.pk)
    results = []
    for table in (1, 2):
        odd = {s: 1 + i % 3 for i, s in enumerate(_seats(t, table))}
        with CaptureQueriesContext(connection) as q:
            results.append(_race(t, table, odd_chips=odd, actor=director))
        writes = [
            x["sql"]
            for x in q.captured_queries
            if x["sql"].lstrip().startswith(("UPDATE", "INSERT", "WITH"))
        ]
        assert len(writes) == 1 or connection.vendor != "postgresql", writes
    after = Tournament.objects.get(pk=t.pk)
    assert after.draw_counter == t.draw_counter + 2
    assert results[0]["seed"] != results[1]["seed"]
    assert after.chips_color_up_delta == t.chips_color_up_delta + sum(
        r["chips_delta"] for r in results
    )
    assert after.version == t.version + 2


def test_a_second_race_at_the_same_table_is_refused_until_undone(at_break, director):
    a = _seats(at_break, 1)[0]
    first = _race(at_break, 1, odd_chips={a: 2}, cards={a: ["Ah", "Kh"]})
    assert first["chips_delta"] == 50  # 50 left over, half: the extra chip (RULES 5.6)

    with pytest.raises(DomainError) as excinfo:
        _race(at_break, 1, odd_chips={a: 1}, cards={a: ["2c"]})

    assert _error(excinfo) == ("already_raced", 409)
    assert excinfo.value.message == colorup.MSG_ALREADY_RACED
    at_break.refresh_from_db()
    assert at_break.chips_color_up_delta == 50
    assert Event.objects.filter(kind="chip_race").count() == 1

    undo = colorup.colorup_race_undo(
        tournament_id=at_break.pk, table_number=1, remove=25, actor=director
    )
    at_break.refresh_from_db()
    assert undo["chips_delta"] == -50 and at_break.chips_color_up_delta == 0
    assert Event.objects.get(pk=first["event"]).undone is True
    assert Event.objects.filter(kind="chip_race_undone").count() == 1

    second = _race(at_break, 1, odd_chips={a: 1}, cards={a: ["2c"]})
    at_break.refresh_from_db()
    assert second["chips_delta"] == -25  # 25 left over, below half: it leaves play
    assert at_break.chips_color_up_delta == -25


def test_pending_shows_raced_tables_and_results(at_break, director):
    a = _seats(at_break, 2)[0]
    _race(at_break, 2, odd_chips={a: 3}, cards={a: ["2c", "2d", "2h"]})

    pending = colorup_pending(at_break)

    rows = {row["table"]: row for row in pending["tables"]}
    assert rows[2]["raced"] == [25] and rows[2]["to_race"] == []
    assert rows[1]["raced"] == [] and rows[1]["to_race"] == [25]
    assert [r["table"] for r in pending["races"]] == [2]
    assert pending["total_chips"] == STACKS + 25  # 75 raced: 1 chip of 100 won


# ---------------------------------------------------------------- bad input changes nothing


@pytest.mark.parametrize(
    ("kwargs", "code", "status"),
    [
        ({"odd_chips": {99: 1}}, "unknown_seat", 400),
        ({"odd_chips": {"SEAT": -1}}, "bad_odd_chips", 400),
        ({"odd_chips": {"SEAT": 4}}, "bad_odd_chips", 400),  # four 25s make a 100
        ({"odd_chips": {"SEAT": True}}, "bad_odd_chips", 400),
        ({"remove": 30}, "unknown_denomination", 400),
        ({"remove": 100}, "denomination_still_needed", 409),  # RULES 5.1: 200/400 next
        ({"odd_chips": {}, "whole_stack": ["SEAT"]}, "bad_whole_stack", 400),
        ({"odd_chips": {"SEAT": 1}, "cards": {"SEAT": ["2c", "3c"]}}, "cards_count", 400),
        ({"odd_chips": {"SEAT": 1}, "cards": {"SEAT": ["Xx"]}}, "bad_card", 400),
        ({"odd_chips": {"SEAT": 1}, "cards": {"SEAT": ["2c"]}, "seed": 1}, "no_deal", 400),
        ({"odd_chips": {"SEAT": 1}, "counted": 4}, "bad_counted", 400),
        ({"table": 9}, "table_not_found", 404),
    ],
)
def test_bad_race_input_is_refused_and_changes_nothing(at_break, director, kwargs, code, status):
    seat = _seats(at_break, 1)[0]
    kwargs = {
        k: (
            {(seat if s == "SEAT" else s): v for s, v in val.items()}
            if isinstance(val, dict)
            else [seat if s == "SEAT" else s for s in val]
            if isinstance(val, list)
            else val
        )
        for k, val in kwargs.items()
    }
    table = kwargs.pop("table", 1)
    version = at_break.version
    events = Event.objects.count()

    with pytest.raises(DomainError) as excinfo:
        _race(at_break, table, actor=director, **kwargs)

    assert _error(excinfo) == (code, status)
    at_break.refresh_from_db()
    assert at_break.chips_color_up_delta == 0 and at_break.version == version
    assert Event.objects.count() == events
    assert ChipDenomination.objects.get(tournament=at_break, value=25).in_play is True


def test_a_chip_out_of_play_cannot_be_raced(at_break, director):
    ChipDenomination.objects.filter(tournament=at_break, value=25).update(in_play=False)

    with pytest.raises(DomainError) as excinfo:
        _race(at_break, 1)

    assert _error(excinfo) == ("denomination_not_in_play", 409)
    assert excinfo.value.message == colorup.MSG_NOT_IN_PLAY
    assert not Event.objects.filter(kind="chip_race").exists()


def test_a_level_in_progress_still_needs_its_chips(director):
    t = services.tournament_create(
        actor=director,
        name="Small blinds",
        tables=1,
        seed=3,
        levels=[
            {"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 20},
            {"kind": "break", "minutes": 10, "color_up": [25]},
            {"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
        ],
    )
    services.entry_register(tournament_id=t.pk, name="Ann", actor=director)

    with pytest.raises(DomainError) as excinfo:
        _race(t, 1)  # clock at the 25/50 level (RULES 5.1)

    assert _error(excinfo) == ("denomination_still_needed", 409)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="next", actor=director)
    assert _race(t, 1)["chips_delta"] == 0


# ---------------------------------------------------------------- several chips at one break


@pytest.fixture
def two_chips_break(director):
    t = services.tournament_create(
        actor=director,
        name="Two chips",
        tables=1,
        seed=11,
        levels=[
            {"kind": "level", "small_blind": 100, "big_blind": 200, "minutes": 20},
            {"kind": "break", "minutes": 10, "color_up": [25, 100]},
            {"kind": "level", "small_blind": 500, "big_blind": 1000, "minutes": 20},
        ],
    )
    for name in ("Ann", "Bob", "Cy"):
        services.entry_register(tournament_id=t.pk, name=name, actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="next", actor=director)
    t.refresh_from_db()
    return t


def test_several_chips_race_smallest_first(two_chips_break, director):
    t = two_chips_break
    a, b, c = _seats(t, 1)

    with pytest.raises(DomainError) as excinfo:
        _race(t, 1, remove=100, odd_chips={a: 1}, cards={a: ["2c"]})
    assert _error(excinfo) == ("race_smaller_first", 409)
    assert excinfo.value.fields == {"race_first": [25]}

    first = _race(
        t, 1, odd_chips={a: 3, b: 3}, cards={a: ["Ac", "2c", "3c"], b: ["Kd", "4d", "5d"]}
    )
    # The dealer counts the 100s after the 25 race was paid (RULES 5.2: one at a time).
    second = _race(
        t,
        1,
        remove=100,
        odd_chips={a: 4, c: 1},
        whole_stack=[c],
        cards={a: ["2h", "3h", "4h", "5h"], c: ["6h"]},
    )

    # 25s: T = 150 -> Ac wins a 100, leftover 50 -> Kd wins one more: +50.
    assert first["chips_delta"] == 50
    # 100s into 500s: T = 500 -> one chip to the best card (6h), no leftover: 0.
    assert (second["unit"], second["awarded"], second["chips_delta"]) == (500, 1, 0)
    t.refresh_from_db()
    assert t.chips_color_up_delta == 50

    with pytest.raises(DomainError) as excinfo:
        colorup.colorup_race_undo(tournament_id=t.pk, table_number=1, remove=25)
    assert _error(excinfo) == ("undo_later_first", 409)

    pending = colorup_pending(t)
    assert [d["value"] for d in pending["denominations"]] == [25, 100]
    assert [d["unit"] for d in pending["denominations"]] == [100, 500]

    done = colorup.colorup_finish(tournament_id=t.pk, denominations=[25, 100], actor=director)
    assert done["removed"] == [25, 100] and done["in_play"][0] == 500
    assert not ChipDenomination.objects.filter(tournament=t, value__in=[25, 100], in_play=True)


# ---------------------------------------------------------------- finishing


def test_finish_waits_for_every_table_with_players(at_break, director):
    _race(at_break, 1, seed=1)

    with pytest.raises(DomainError) as excinfo:
        colorup.colorup_finish(tournament_id=at_break.pk, denominations=[25], actor=director)

    assert _error(excinfo) == ("tables_not_raced", 409)
    assert excinfo.value.fields == {"tables": {"25": [2, 3]}}
    assert ChipDenomination.objects.get(tournament=at_break, value=25).in_play is True
    assert not Event.objects.filter(kind="color_up_finished").exists()


def test_finish_marks_the_chips_out_of_play_and_keeps_rules_4_5(at_break, director):
    a = _seats(at_break, 1)[0]
    _race(at_break, 1, odd_chips={a: 3}, cards={a: ["2c", "2d", "2h"]})  # +25
    _race(at_break, 2)
    _race(at_break, 3)

    done = colorup.colorup_finish(tournament_id=at_break.pk, denominations=[25], actor=director)

    assert done["removed"] == [25] and done["forced"] is False
    assert done["in_play"][:2] == [100, 500]
    assert done["chips_delta"] == 25
    assert ChipDenomination.objects.get(tournament=at_break, value=25).in_play is False
    event = Event.objects.get(kind="color_up_finished")
    assert event.payload["denominations"] == [25] and len(event.payload["races"]) == 3
    at_break.refresh_from_db()
    assert selectors.total_chips(at_break) == STACKS + 25
    # RULES 4.5: every later blind is a multiple of the smallest chip left in play.
    in_play = list(
        ChipDenomination.objects.filter(tournament=at_break, in_play=True).values_list(
            "value", flat=True
        )
    )
    later = clock_reads.structure_items(at_break)[2:]
    assert structure_engine.check_structure(later, in_play) == []
    assert all(v % min(in_play) == 0 for it in later for v in (it.small_blind, it.big_blind))
    # Nothing is left to race, and the 25s are refused from now on.
    assert colorup_pending(at_break)["denominations"] == []
    with pytest.raises(DomainError) as excinfo:
        _race(at_break, 1)
    assert _error(excinfo) == ("denomination_not_in_play", 409)
    with pytest.raises(DomainError) as excinfo:
        colorup.colorup_race_undo(tournament_id=at_break.pk, table_number=1, remove=25)
    assert _error(excinfo) == ("denomination_not_in_play", 409)


def test_the_director_can_force_the_finish(at_break, director):
    done = colorup.colorup_finish(
        tournament_id=at_break.pk, denominations=[25], force=True, actor=director
    )

    assert done["forced"] is True and done["not_raced"] == {"25": [1, 2, 3]}
    assert ChipDenomination.objects.get(tournament=at_break, value=25).in_play is False
    assert Event.objects.get(kind="color_up_finished").payload["forced"] is True


@pytest.mark.parametrize(
    ("denominations", "code", "status"),
    [
        ([], "bad_input", 400),
        ([30], "unknown_denomination", 400),
        ([100], "remove_smaller_first", 409),
        ([25, 100], "denomination_still_needed", 409),
    ],
)
def test_bad_finish_is_refused_and_changes_nothing(at_break, director, denominations, code, status):
    with pytest.raises(DomainError) as excinfo:
        colorup.colorup_finish(
            tournament_id=at_break.pk, denominations=denominations, force=True, actor=director
        )

    assert _error(excinfo) == (code, status)
    assert ChipDenomination.objects.filter(tournament=at_break, in_play=False).count() == 0
    assert not Event.objects.filter(kind="color_up_finished").exists()


# ---------------------------------------------------------------- rack plan


def test_rack_plan_counts_race_and_direct_change_up_chips(at_break, director):
    a, b, c = _seats(at_break, 1)[:3]
    # 6 odd chips, 40 counted before the change-up: (40 - 6) / 4 is not whole -> refused.
    with pytest.raises(DomainError):
        _race(at_break, 1, odd_chips={a: 3, b: 2, c: 1}, counted=40, seed=5)
    _race(
        at_break,
        1,
        odd_chips={a: 3, b: 2, c: 1},
        cards={a: ["2c", "3d", "4h"], b: ["As", "2d"], c: ["Kd"]},
        counted=46,
    )
    x = _seats(at_break, 2)[0]
    _race(at_break, 2, odd_chips={x: 1}, whole_stack=[x], cards={x: ["2c"]})

    plan = colorup_rack_plan(at_break)

    assert plan["new_smallest"] == 100
    rows = {row["table"]: row for row in plan["tables"]}
    assert rows[1]["races"] == [
        {
            "remove": 25,
            "unit": 100,
            "raced": True,
            "race_chips": 2,
            "direct_chips": 10,  # (46 - 6) / 4
            "needed": 12,
        }
    ]
    # One odd 25 and the whole stack: nobody wins (25 < 50), protection gives the chip.
    assert rows[2]["races"][0]["race_chips"] == 1 and rows[2]["races"][0]["direct_chips"] is None
    players_3 = len(_seats(at_break, 3))
    assert rows[3]["races"] == [
        {"remove": 25, "unit": 100, "raced": False, "at_most": players_3, "needed": None}
    ]
    assert plan["totals"] == [
        {
            "remove": 25,
            "unit": 100,
            "race_chips": 3,
            "direct_chips": 10,
            "needed": 13,
            "tables_not_raced": [3],
            "at_most_not_raced": players_3,
        }
    ]


# ---------------------------------------------------------------- the general undo (issue 10)


def _colorup_state(t: Tournament) -> dict:
    """What a race or a finish can change: the chips in play (RULES 5.9), the draw counter
    (RULES 1.1), the chips of the color-up and the races that count."""
    t = Tournament.objects.get(pk=t.pk)
    return {
        "delta": t.chips_color_up_delta,
        "total": selectors.total_chips(t),
        "draw_counter": t.draw_counter,
        "in_play": sorted(
            ChipDenomination.objects.filter(tournament=t, in_play=True).values_list(
                "value", flat=True
            )
        ),
        "races": sorted(
            (r["table"], r["remove"], r["chips_delta"]) for r in colorup_pending(t)["races"]
        ),
    }


def test_the_general_undo_takes_back_a_finish_then_the_races_then_goes_on(at_break, director):
    """The dashboard's undo of the last action, after a color-up: the finish, then each race
    (with the chips it added and its draw), then the action before them, exactly."""
    from tourney.services.undo import action_redo, action_undo

    services.clock_action(tournament_id=at_break.pk, action="resume", actor=director)
    before_races = _colorup_state(at_break)
    a = _seats(at_break, 1)[0]
    _race(at_break, 1, odd_chips={a: 2}, cards={a: ["Ah", "Kh"]}, actor=director)  # +50
    after_first = _colorup_state(at_break)
    odd = {s: 1 + i % 3 for i, s in enumerate(_seats(at_break, 2))}
    drawn = _race(at_break, 2, odd_chips=odd, actor=director)  # the software deals
    after_races = _colorup_state(at_break)
    assert after_races["draw_counter"] == before_races["draw_counter"] + 1
    colorup.colorup_finish(tournament_id=at_break.pk, denominations=[25], force=True)
    assert _colorup_state(at_break)["in_play"][0] == 100

    out = action_undo(tournament_id=at_break.pk, actor=director)

    assert out["kind"] == "color_up_finished"
    assert _colorup_state(at_break) == after_races  # 25s in play, both races live again
    assert Event.objects.filter(kind="color_up_finish_undone").count() == 1
    with pytest.raises(DomainError) as excinfo:  # the undone finish cannot be redone
        action_redo(tournament_id=at_break.pk, actor=director)
    assert excinfo.value.code == "nothing_to_redo"

    out = action_undo(tournament_id=at_break.pk, actor=director)
    assert out == {"undid": drawn["event"], "kind": "chip_race"}
    assert _colorup_state(at_break) == after_first  # its chips and its draw are back
    # Table 2 may race again, and the same draw comes out (the counter went back).
    again = _race(at_break, 2, odd_chips=odd, actor=director)
    assert again["seed"] == drawn["seed"] and again["players"] == drawn["players"]
    assert action_undo(tournament_id=at_break.pk, actor=director)["undid"] == again["event"]

    action_undo(tournament_id=at_break.pk, actor=director)
    assert _colorup_state(at_break) == before_races
    assert Event.objects.filter(kind="chip_race", undone=False).count() == 0

    # Below the color-up, the journaled actions go on being undone (here: the resume).
    assert Tournament.objects.get(pk=at_break.pk).clock_running is True
    out = action_undo(tournament_id=at_break.pk, actor=director)
    assert out["kind"] == "clock_resume"
    assert Tournament.objects.get(pk=at_break.pk).clock_running is False


def test_the_general_undo_of_a_race_keeps_a_later_draw(at_break, director):
    """A race whose draw is not the last one (a later draw was undone by its own undo, not
    the general one) gives back its chips but leaves the counter: no seed is dealt twice."""
    from tourney.services.undo import action_undo

    odd = {s: 1 for s in _seats(at_break, 1)}
    first = _race(at_break, 1, odd_chips=odd, actor=director)
    _race(at_break, 2, odd_chips={s: 1 for s in _seats(at_break, 2)}, actor=director)
    colorup.colorup_race_undo(tournament_id=at_break.pk, table_number=2, remove=25)
    counter = Tournament.objects.get(pk=at_break.pk).draw_counter

    out = action_undo(tournament_id=at_break.pk, actor=director)

    assert out == {"undid": first["event"], "kind": "chip_race"}
    t = Tournament.objects.get(pk=at_break.pk)
    assert t.chips_color_up_delta == 0 and t.draw_counter == counter


# ---------------------------------------------------------------- concurrency (PostgreSQL)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_directors_racing_one_table_and_finishing_at_once_count_each_race_once(director):
    """Five threads race table 1's 25s while a sixth forces the finish: the tournament row
    lock lets one race in at most (before the finish), every other call is refused with a
    409, and the chips it added are counted once (RULES 5.9)."""
    import threading

    from django.db import connections

    from tests.conftest import TWO_LEVELS

    t = services.tournament_create(actor=director, name="Rush", tables=2, seed=1, levels=TWO_LEVELS)
    for i in range(12):
        services.entry_register(tournament_id=t.pk, name=f"P{i}", actor=director)
    services.clock_action(tournament_id=t.pk, action="start", actor=director)
    services.clock_action(tournament_id=t.pk, action="next", actor=director)
    seat = _seats(t, 1)[0]
    results: list[dict] = []
    refused: list[str] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(6)

    def call(k: int) -> None:
        try:
            barrier.wait()
            if k < 5:
                results.append(
                    _race(t, 1, odd_chips={seat: 2}, cards={seat: ["As", "Kd"]}, actor=director)
                )
            else:
                results.append(
                    colorup.colorup_finish(
                        tournament_id=t.pk, denominations=[25], force=True, actor=director
                    )
                )
        except DomainError as exc:
            refused.append(exc.code)
        except BaseException as exc:  # noqa: BLE001 — asserted below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=call, args=(k,)) for k in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)

    assert errors == []
    assert len(results) + len(refused) == 6
    finishes = [r for r in results if "removed" in r]
    races = [r for r in results if "removed" not in r]
    assert len(finishes) == 1 and len(races) <= 1
    assert set(refused) <= {"already_raced", "denomination_not_in_play"}
    t.refresh_from_db()
    assert Event.objects.filter(tournament=t, kind="chip_race", undone=False).count() == len(races)
    assert Event.objects.filter(tournament=t, kind="color_up_finished").count() == 1
    assert t.chips_color_up_delta == 50 * len(races)  # 50 left over, half: the extra chip
    assert finishes[0]["chips_delta"] == t.chips_color_up_delta
    assert finishes[0]["not_raced"] == ({"25": [2]} if races else {"25": [1, 2]})
    assert ChipDenomination.objects.get(tournament=t, value=25).in_play is False
