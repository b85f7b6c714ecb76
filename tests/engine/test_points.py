"""League points (issue 27): presets, options, refusals and standings."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tourney.engine.errors import DomainError
from tourney.engine.formula import MSG_DIVISION_BY_ZERO
from tourney.engine.points import (
    BEST_ENTRY,
    EVERY_ENTRY,
    FIRST_ENTRY,
    MSG_BAD_ATTENDANCE,
    MSG_BAD_BEST_EVENTS,
    MSG_BAD_ENTRY_MODE,
    MSG_BAD_EVENT,
    MSG_BAD_ROW,
    MSG_BAD_SCORING,
    MSG_BAD_TABLE,
    MSG_BAD_TABLE_ENTRY,
    MSG_DUPLICATE_EVENT,
    MSG_FIRST_ENTRIES,
    MSG_POINTS_FAILED,
    MSG_TOO_MANY_POINTS,
    MSG_UNKNOWN_PRESET,
    PRESETS,
    EventResults,
    Options,
    PlayerEvent,
    ResultRow,
    Scoring,
    Standing,
    event_points,
    formula_scoring,
    parse_table,
    preset_scoring,
    season_points,
    standings,
    table_scoring,
)

ROOT = Path(__file__).resolve().parents[2]
D = Decimal

# Five entrants at a $50 buy-in; players 3 and 4 tie for 3rd-4th (RULES 7.2).
FIELD = EventResults(
    event=1,
    entrants=5,
    buyin=5000,
    rows=(
        ResultRow(player=11, place=1, prize=15000, hits=2),
        ResultRow(player=12, place=2, prize=10000, bounties=2500, hits=1),
        ResultRow(player=13, place=3, place_to=4, hits=1),
        ResultRow(player=14, place=3, place_to=4),
        ResultRow(player=15, place=5),
    ),
)


def points_of(event: EventResults, scoring: Scoring, options: Options | None = None) -> dict:
    return {pe.player: pe.points for pe in event_points(event, scoring, options)}


def refused(code: str, message: str, call, *args, **kwargs) -> DomainError:
    with pytest.raises(DomainError) as info:
        call(*args, **kwargs)
    assert info.value.code == code
    assert info.value.message == message
    return info.value


def test_engine_imports_no_django() -> None:
    code = (
        "import sys; import tourney.engine.points; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'celery')]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False).returncode == 0


# ------------------------------------------------------------------------------ presets


def test_the_place_table_preset_by_hand() -> None:
    # 3rd-4th tied share (50 + 40) / 2 = 45
    assert points_of(FIELD, preset_scoring("place_table")) == {
        11: D("100.00"),
        12: D("70.00"),
        13: D("45.00"),
        14: D("45.00"),
        15: D("30.00"),
    }


def test_the_entrants_minus_place_preset_by_hand() -> None:
    # 5 - 1 + 1 = 5, ..., the tie shares (3 + 2) / 2 = 2.5
    assert points_of(FIELD, preset_scoring("entrants_minus_place")) == {
        11: D("5.00"),
        12: D("4.00"),
        13: D("2.50"),
        14: D("2.50"),
        15: D("1.00"),
    }


def test_the_square_root_preset_by_hand() -> None:
    # sqrt(5) * (1 + log10(50.25)) = 2.2360680 * 2.7011361 = 6.0399242 for 1st; / sqrt(2)
    # = 4.2708930; 3rd-4th: (6.0399242 / 1.7320508 + 6.0399242 / 2) / 2 = 3.2535793;
    # 5th: 6.0399242 / 2.2360680 = 2.7011361
    assert points_of(FIELD, preset_scoring("sqrt_buyin")) == {
        11: D("6.04"),
        12: D("4.27"),
        13: D("3.25"),
        14: D("3.25"),
        15: D("2.70"),
    }


def test_the_presets_are_named_honestly() -> None:
    assert set(PRESETS) == {"place_table", "entrants_minus_place", "sqrt_buyin"}
    assert PRESETS["sqrt_buyin"].label == "A square-root formula with buy-in weighting"
    assert PRESETS["place_table"].table[:3] == (100, 70, 50)


def test_an_unknown_preset_is_refused() -> None:
    message = MSG_UNKNOWN_PRESET.format(
        name="tdpoints", names="place_table, entrants_minus_place, sqrt_buyin"
    )
    refused("unknown_preset", message, preset_scoring, "tdpoints")


def test_places_past_the_table_score_nothing() -> None:
    scoring = table_scoring([10, 5])
    assert points_of(FIELD, scoring) == {11: 10, 12: 5, 13: 0, 14: 0, 15: 0}


def test_a_tie_across_the_end_of_the_table_shares_with_the_zero_below() -> None:
    scoring = table_scoring([10, 5, 3])
    assert points_of(FIELD, scoring)[13] == D("1.50")


def test_a_typed_table_is_read() -> None:
    assert parse_table("100, 70 50\n 40.5 .25").table == (
        D(100),
        D(70),
        D(50),
        D("40.5"),
        D("0.25"),
    )


@pytest.mark.parametrize(
    ("text", "place", "shown"),
    [("100, -5", 2, "-5"), ("100, 1.005", 2, "1.005"), ("1e3", 1, "1e3"), ("5, 6, x", 3, "x")],
)
def test_a_typed_table_names_the_place_it_cannot_read(text: str, place: int, shown: str) -> None:
    error = refused(
        "bad_points_table",
        MSG_BAD_TABLE_ENTRY.format(place=place, text=shown),
        parse_table,
        text,
    )
    assert error.fields == {"place": place}


@pytest.mark.parametrize("values", [[], [10, -1], [D("0.001")], [10**9], [True], [1.5]])
def test_a_bad_table_is_refused(values: list) -> None:
    refused("bad_points_table", MSG_BAD_TABLE.format(limit=1000), table_scoring, values)
    refused("bad_points_table", MSG_BAD_TABLE.format(limit=1000), table_scoring, [1] * 1001)


def test_scoring_is_a_formula_or_a_table_never_both_nor_neither() -> None:
    refused("bad_scoring", MSG_BAD_SCORING, Scoring)
    formula = formula_scoring("place").formula
    refused("bad_scoring", MSG_BAD_SCORING, Scoring, formula=formula, table=(D(1),))


def test_a_formula_that_cannot_be_read_is_refused_when_it_is_saved() -> None:
    with pytest.raises(DomainError) as info:
        formula_scoring("sqrt(entrants")
    assert info.value.code == "bad_formula"


# ------------------------------------------------------------------ variables and ties


def test_the_money_variables_are_in_currency_units() -> None:
    scoring = formula_scoring("prize + bounties + buyin")
    # 100.00 + 25.00 + 50.00
    assert points_of(FIELD, scoring)[12] == D("175.00")


def test_tied_players_share_with_their_own_values() -> None:
    scoring = formula_scoring("10 * (entrants - place + 1) + hits")
    got = points_of(FIELD, scoring)
    assert got[13] == D("26.00")  # (30 + 1 + 20 + 1) / 2
    assert got[14] == D("25.00")


def test_without_sharing_tied_players_score_the_best_place_they_cover() -> None:
    got = points_of(FIELD, preset_scoring("place_table"), Options(share_ties=False))
    assert got[13] == got[14] == D("50.00")


def test_points_are_rounded_half_up_once() -> None:
    scoring = table_scoring([D("1.00"), D("0.01")])
    tie = EventResults(1, 2, 0, (ResultRow(1, 1, 2), ResultRow(2, 1, 2)))
    assert points_of(tie, scoring) == {1: D("0.51"), 2: D("0.51")}  # 0.505, not 0.50


def test_attendance_points_go_to_every_player_once() -> None:
    got = points_of(FIELD, table_scoring([10]), Options(attendance=D("2.5")))
    assert got == {11: D("12.50"), 12: D("2.50"), 13: D("2.50"), 14: D("2.50"), 15: D("2.50")}


# ------------------------------------------------------------------------- re-entries

# Player 21 busts 6th, re-enters and wins; player 22 busts 5th, re-enters, busts 3rd.
REENTRY = EventResults(
    event=2,
    entrants=6,
    buyin=1000,
    rows=(
        ResultRow(player=21, place=6, hits=1),
        ResultRow(player=21, place=1, prize=3000, hits=2, rebuys=1, reentry=True),
        ResultRow(player=22, place=5),
        ResultRow(player=22, place=3, reentry=True),
        ResultRow(player=23, place=2, prize=1000),
        ResultRow(player=24, place=4),
    ),
)
FIELD_POINTS = formula_scoring("entrants - place + 1 + hits")


def test_by_default_a_player_scores_once_with_their_best_finish() -> None:
    results = event_points(REENTRY, FIELD_POINTS)
    got = {pe.player: pe.points for pe in results}
    assert got == {21: D("9.00"), 22: D("4.00"), 23: D("5.00"), 24: D("3.00")}  # 6 + hits 3
    winner = results[0]
    assert (winner.player, winner.place, winner.entries, winner.prize, winner.hits) == (
        21,
        1,
        2,
        3000,
        3,
    )


def test_first_entry_only_scores_the_first_entry_with_its_own_values() -> None:
    got = points_of(REENTRY, FIELD_POINTS, Options(entries=FIRST_ENTRY))
    assert got == {21: D("2.00"), 22: D("2.00"), 23: D("5.00"), 24: D("3.00")}


def test_every_entry_scores_and_adds_up() -> None:
    got = points_of(REENTRY, FIELD_POINTS, Options(entries=EVERY_ENTRY, attendance=D(1)))
    # 21: (1 + 1) + (6 + 2) + 1 attendance; 22: 2 + 4 + 1
    assert got == {21: D("11.00"), 22: D("7.00"), 23: D("6.00"), 24: D("4.00")}


def test_the_money_facts_cover_every_entry_whatever_the_mode() -> None:
    season = season_points([REENTRY], FIELD_POINTS, Options(entries=FIRST_ENTRY))
    top = next(s for s in season.standings if s.player == 21)
    assert (top.wins, top.cashes, top.winnings, top.knockouts) == (1, 1, 3000, 3)


def test_a_player_has_exactly_one_first_entry() -> None:
    two = EventResults(3, 4, 0, (ResultRow(1, 1), ResultRow(1, 2), ResultRow(2, 3)))
    message = MSG_FIRST_ENTRIES.format(event=3, player=1, count=2)
    refused("bad_results", message, event_points, two, FIELD_POINTS)
    none = EventResults(3, 4, 0, (ResultRow(1, 1, reentry=True), ResultRow(2, 3)))
    message = MSG_FIRST_ENTRIES.format(event=3, player=1, count=0)
    refused("bad_results", message, event_points, none, FIELD_POINTS)


# --------------------------------------------------------------------------- refusals


def test_a_failing_formula_refuses_the_season_naming_event_player_and_values() -> None:
    scoring = formula_scoring("100 / (place - 5)")
    later = EventResults(2, 3, 0, (ResultRow(11, 1),))
    error = refused(
        "formula_failed",
        MSG_POINTS_FAILED.format(
            event=1,
            player=15,
            reason=MSG_DIVISION_BY_ZERO.format(
                column=5,
                values="entrants=5, place=5, buyin=50, prize=0, bounties=0, rebuys=0, addons=0, "
                "hits=0",
            ),
        ),
        season_points,
        [FIELD, later],
        scoring,
    )
    assert error.fields["event"] == 1 and error.fields["player"] == 15
    assert error.fields["values"]["place"] == "5"


def test_points_too_large_to_show_are_refused() -> None:
    scoring = formula_scoring("10^12 / place")
    message = MSG_TOO_MANY_POINTS.format(event=1, player=11, points="1000000000000")
    refused("formula_failed", message, event_points, FIELD, scoring)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (Options(best_events=0), MSG_BAD_BEST_EVENTS),
        (Options(best_events=True), MSG_BAD_BEST_EVENTS),
        (Options(attendance=D("-1")), MSG_BAD_ATTENDANCE),
        (Options(attendance=D("0.001")), MSG_BAD_ATTENDANCE),
        (Options(attendance=D("NaN")), MSG_BAD_ATTENDANCE),
        (
            Options(entries="last"),
            MSG_BAD_ENTRY_MODE.format(modes="best, first, each", mode="last"),
        ),
    ],
)
def test_bad_options_are_refused(options: Options, message: str) -> None:
    refused("bad_options", message, season_points, [FIELD], FIELD_POINTS, options)


@pytest.mark.parametrize(
    "event",
    [EventResults(4, 0, 0), EventResults(4, 3, -1), EventResults(4, True, 0)],
)
def test_a_bad_event_is_refused(event: EventResults) -> None:
    refused("bad_results", MSG_BAD_EVENT.format(event=4), event_points, event, FIELD_POINTS)


@pytest.mark.parametrize(
    "row",
    [
        ResultRow(9, 0),
        ResultRow(9, 4),
        ResultRow(9, 2, place_to=1),
        ResultRow(9, 2, place_to=4),
        ResultRow(9, 1, prize=-1),
        ResultRow(9, 1, hits=True),
        ResultRow(9, 1, rebuys=1.0),  # type: ignore[arg-type]
    ],
)
def test_a_bad_result_row_is_refused(row: ResultRow) -> None:
    event = EventResults(4, 3, 0, (row,))
    message = MSG_BAD_ROW.format(event=4, player=9, entrants=3)
    refused("bad_results", message, event_points, event, FIELD_POINTS)


def test_an_event_listed_twice_is_refused() -> None:
    message = MSG_DUPLICATE_EVENT.format(event=1)
    refused("bad_results", message, season_points, [FIELD, FIELD], FIELD_POINTS)


# -------------------------------------------------------------------- best N, standings


def test_only_a_players_best_events_count() -> None:
    small = EventResults(5, 2, 0, (ResultRow(11, 2), ResultRow(15, 1)))
    season = season_points([FIELD, small], preset_scoring("place_table"), Options(best_events=1))
    marks = {(pe.event, pe.player): (pe.points, pe.counted) for pe in season.results}
    assert marks[(1, 11)] == (D(100), True)
    assert marks[(5, 11)] == (D(70), False)
    assert marks[(1, 15)] == (D(30), False)
    assert marks[(5, 15)] == (D(100), True)
    top = season.standings[0]
    assert (top.player, top.events, top.counted, top.points) == (11, 2, 1, D(100))


def test_of_equal_events_the_earlier_one_counts() -> None:
    again = EventResults(5, 1, 0, (ResultRow(11, 1),))
    season = season_points([FIELD, again], table_scoring([7]), Options(best_events=1))
    assert [(pe.event, pe.counted) for pe in season.results if pe.player == 11] == [
        (1, True),
        (5, False),
    ]


def _pe(player: int, points: str, place: int = 5, prize: int = 0, event: int = 1):
    return PlayerEvent(event, player, place, place, 1, prize, 0, 0, D(points))


def test_standings_break_ties_by_wins_then_cashes_then_winnings_and_share_the_rest() -> None:
    table = standings(
        [
            _pe(1, "50", prize=100),
            _pe(2, "50", place=1),
            _pe(3, "50", prize=500),
            _pe(4, "60"),
            _pe(5, "50", prize=500),
            _pe(6, "40"),
        ]
    )
    assert [(s.rank, s.player) for s in table] == [(1, 4), (2, 2), (3, 3), (3, 5), (5, 1), (6, 6)]
    assert table[1] == Standing(2, 2, 1, 1, D("50"), 1, 0, 0, 0, 0)


# -------------------------------------------------------------- Hypothesis: invariants


@st.composite
def events(draw, event_id: int) -> EventResults:
    players = draw(st.lists(st.integers(1, 8), min_size=1, max_size=10))
    entrants = len(players) + draw(st.integers(0, 3))
    places = draw(st.permutations(range(1, entrants + 1)))[: len(players)]
    seen: set[int] = set()
    rows = []
    for player, place in zip(players, places, strict=True):
        tie = draw(st.booleans()) and place < entrants and place + 1 not in places
        rows.append(
            ResultRow(
                player=player,
                place=place,
                place_to=place + 1 if tie else place,
                prize=draw(st.sampled_from([0, 0, 500, 12345])),
                bounties=draw(st.sampled_from([0, 250])),
                hits=draw(st.integers(0, 3)),
                reentry=player in seen,
            )
        )
        seen.add(player)
    return EventResults(event_id, entrants, draw(st.integers(0, 20000)), tuple(rows))


SEASONS = st.integers(1, 5).flatmap(lambda n: st.tuples(*(events(i) for i in range(1, n + 1))))
OPTIONS = st.builds(
    Options,
    best_events=st.none() | st.integers(1, 4),
    entries=st.sampled_from([BEST_ENTRY, FIRST_ENTRY, EVERY_ENTRY]),
    attendance=st.sampled_from([D(0), D("2.5")]),
    share_ties=st.booleans(),
)
SCORINGS = st.sampled_from(
    [
        preset_scoring("place_table"),
        preset_scoring("entrants_minus_place"),
        preset_scoring("sqrt_buyin"),
        formula_scoring("if(place <= 3, 10, 1) + hits - rebuys"),
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEASONS, SCORINGS, OPTIONS)
def test_standings_invariants(season_events, scoring: Scoring, options: Options) -> None:
    season = season_points(list(season_events), scoring, options)
    by_player: dict[int, list[PlayerEvent]] = defaultdict(list)
    for pe in season.results:
        by_player[pe.player].append(pe)
        assert pe.points == pe.points.quantize(D("0.01"))
    assert len(season.results) == sum(len({r.player for r in e.rows}) for e in season_events)
    assert {s.player for s in season.standings} == set(by_player)
    for s in season.standings:
        mine = by_player[s.player]
        counted = [pe.points for pe in mine if pe.counted]
        assert s.points == sum(counted, D(0))
        assert s.events == len(mine) and s.counted == len(counted)
        if options.best_events is not None:
            assert s.counted == min(options.best_events, len(mine))
            dropped = [pe.points for pe in mine if not pe.counted]
            assert not dropped or max(dropped) <= min(counted)
        else:
            assert s.counted == len(mine)
    assert sum(s.winnings for s in season.standings) == sum(
        r.prize for e in season_events for r in e.rows
    )
    ranks = [s.rank for s in season.standings]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    for i, s in enumerate(season.standings):
        merit = (s.points, s.wins, s.cashes, s.winnings)
        better = [t for t in season.standings if (t.points, t.wins, t.cashes, t.winnings) > merit]
        assert s.rank == len(better) + 1
        if i and season.standings[i - 1].points == s.points:
            before = season.standings[i - 1]
            same = (before.wins, before.cashes, before.winnings) == merit[1:]
            assert (before.rank == s.rank) == same
