"""Issue 27, leagues: the league and season services (room actions, undo exact, refusals that
change nothing) and a season's standings from tournaments played through the services."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
import time_machine

from tests.conftest import TWO_LEVELS
from tourney import services
from tourney.core.room_journal import room_log, room_undo
from tourney.engine.errors import DomainError
from tourney.models import Entry, Event, League, Player, Season, Tournament
from tourney.selectors import backup as backup_reads
from tourney.selectors.standings import points_by_tournament, season_standings
from tourney.services import leagues
from tourney.services.backup import tournament_import

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)


def _snapshot() -> dict:
    return {
        "leagues": list(League.objects.order_by("pk").values()),
        "seasons": list(Season.objects.order_by("pk").values()),
        "seasons_of": list(Tournament.objects.order_by("pk").values_list("pk", "season_id")),
        "events": Event.objects.count(),
    }


def _season(director, **kw) -> Season:
    league = leagues.league_create(name="Thursday League", actor=director)
    return leagues.season_create(league_id=league.pk, name="2026", actor=director, **kw)


def _players(*names: str) -> list[Player]:
    return [Player.objects.create(name=n) for n in names]


def _still_in(t: Tournament) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=t).exclude(status=Entry.Status.BUSTED).order_by("number")
    )


def play(
    director,
    players: list[Player],
    *,
    name: str = "Thursday",
    out: list[list[Player]] | None = None,
    reenter: tuple[Player, ...] = (),
    stop_at: int = 1,
    season: Season | None = None,
    at: datetime = T0,
    **create,
) -> Tournament:
    """A tournament of ``players`` played through the services: the ``reenter`` players bust
    and re-enter first, then the ``out`` groups bust in that order (a group of two in one hand
    with the same stack: a tie, RULES 7.2), then the lowest entry numbers until ``stop_at``
    players are left (1: the last is the winner and the tournament finishes)."""
    args = {"buy_in": 10000, "fee": 1000, "seed": 3, "levels": TWO_LEVELS, "tables": 1}
    args.update(create)
    with time_machine.travel(at, tick=False):
        t = services.tournament_create(actor=director, name=name, **args)
        if season is not None:
            leagues.tournament_season_set(tournament_id=t.pk, season_id=season.pk, actor=director)
        entry = {
            p.pk: services.entry_register(tournament_id=t.pk, player_id=p.pk, actor=director)
            for p in players
        }
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
    with time_machine.travel(at + timedelta(minutes=2), tick=False):
        for p in reenter:
            services.elimination_record(
                tournament_id=t.pk, busts=[(entry[p.pk].pk, 100)], actor=director
            )
            entry[p.pk] = services.entry_reenter(
                tournament_id=t.pk, entry_id=entry[p.pk].pk, actor=director
            )
        services.registration_close(tournament_id=t.pk, actor=director)
        for group in out or []:
            busts = [(entry[p.pk].pk, 500) for p in group]
            services.elimination_record(tournament_id=t.pk, busts=busts, actor=director)
        while len(_still_in(t)) > stop_at:
            services.elimination_record(
                tournament_id=t.pk, busts=[(_still_in(t)[0].pk, 100)], actor=director
            )
    t.refresh_from_db()
    return t


# ---------------------------------------------------------------- leagues and seasons


def test_league_create_update_and_undo_are_exact(director):
    league = leagues.league_create(name="  Thursday   League ", actor=director)
    assert (league.name, league.slug) == ("Thursday League", "thursday-league")
    assert leagues.league_create(name="Thursday League", actor=director).slug == (
        "thursday-league-2"
    )
    before = _snapshot()
    leagues.league_update(league_id=league.pk, name="Friday League", actor=director)
    league.refresh_from_db()
    assert (league.name, league.slug) == ("Friday League", "thursday-league")
    log = room_log(kinds=["league_updated"])
    assert log[0]["payload"] == {"league": league.pk, "name": "Friday League"}
    room_undo(event_id=log[0]["id"], actor=director)
    after = _snapshot()
    assert after["leagues"] == before["leagues"]
    with pytest.raises(DomainError) as err:
        room_undo(event_id=log[0]["id"], actor=director)
    assert err.value.code == "already_undone"


def test_league_create_undone_removes_it(director):
    league = leagues.league_create(name="Gone", actor=director)
    room_undo(event_id=room_log(kinds=["league_created"])[0]["id"], actor=director)
    assert not League.objects.filter(pk=league.pk).exists()


def test_season_create_stores_the_checked_scoring(director):
    season = _season(
        director,
        scoring="place_table",
        points_table="100, 60 30.5\n10",
        best_n=3,
        entries="first",
        attendance_points=Decimal("2.5"),
        share_ties=False,
        starts_on=date(2026, 1, 1),
        ends_on=date(2026, 12, 31),
    )
    season.refresh_from_db()
    assert season.points_table == ["100", "60", "30.5", "10"]
    assert (season.best_n, season.entries, season.share_ties) == (3, "first", False)
    assert season.attendance_points == Decimal("2.50")
    formula = leagues.season_update(
        season_id=season.pk, name="2026", scoring="formula", formula=" entrants - place + 1 "
    )
    formula.refresh_from_db()
    assert (formula.formula, formula.points_table, formula.best_n) == (
        "entrants - place + 1",
        [],
        None,
    )


@pytest.mark.parametrize(
    ("kw", "code", "field", "message"),
    [
        (
            {"scoring": "formula", "formula": "sqrt(entrants) / plcae"},
            "bad_formula",
            "formula",
            "Column 18: unknown name 'plcae'; the names are entrants, place, buyin, prize, "
            "bounties, rebuys, addons, hits.",
        ),
        ({"scoring": "formula", "formula": "  "}, "bad_formula", "formula", None),
        (
            {"scoring": "place_table", "points_table": "100, 70, x"},
            "bad_points_table",
            "points_table",
            None,
        ),
        ({"scoring": "nope"}, "bad_scoring", "scoring", None),
        ({"best_n": 0}, "bad_options", "best_n", None),
        ({"best_n": 1001}, "bad_options", "best_n", leagues.MSG_BEST_N_RANGE),
        (
            {"attendance_points": Decimal("10000000")},
            "bad_options",
            "attendance_points",
            leagues.MSG_ATTENDANCE_RANGE,
        ),
        ({"attendance_points": Decimal("-1")}, "bad_options", "attendance_points", None),
        ({"attendance_points": Decimal("0.001")}, "bad_options", "attendance_points", None),
        ({"entries": "all"}, "bad_options", "entries", None),
        (
            {"starts_on": date(2026, 2, 1), "ends_on": date(2026, 1, 1)},
            "bad_dates",
            "ends_on",
            leagues.MSG_DATES,
        ),
        ({"name": " "}, "bad_name", "name", leagues.MSG_NAME),
    ],
)
def test_season_refusals_change_nothing(director, kw, code, field, message):
    league = leagues.league_create(name="L", actor=director)
    season = leagues.season_create(league_id=league.pk, name="Old", actor=director)
    before = _snapshot()
    args = {"name": "2026", **kw}
    for call in (
        lambda: leagues.season_create(league_id=league.pk, actor=director, **args),
        lambda: leagues.season_update(season_id=season.pk, actor=director, **args),
    ):
        with pytest.raises(DomainError) as err:
            call()
        assert err.value.code == code
        assert field in err.value.fields
        if message:
            assert err.value.message == message
        assert _snapshot() == before


def test_a_formula_refusal_carries_its_column(director):
    league = leagues.league_create(name="L", actor=director)
    with pytest.raises(DomainError) as err:
        leagues.season_create(
            league_id=league.pk, name="S", scoring="formula", formula="entrants -* place"
        )
    assert err.value.fields["column"] == 11
    assert err.value.fields["formula"].startswith("Column 11: ")


def test_season_update_undo_is_exact(director):
    season = _season(director, scoring="place_table", points_table="10 5", best_n=2)
    before = _snapshot()
    leagues.season_update(
        season_id=season.pk,
        name="Renamed",
        scoring="formula",
        formula="100 / place",
        attendance_points=Decimal(3),
        share_ties=False,
        actor=director,
    )
    assert Season.objects.get(pk=season.pk).formula == "100 / place"
    room_undo(event_id=room_log(kinds=["season_updated"])[0]["id"], actor=director)
    after = _snapshot()
    assert after["seasons"] == before["seasons"]


def test_a_tournament_counts_toward_one_season_at_a_time(director, tournament):
    first = _season(director)
    second = leagues.season_create(league_id=first.league_id, name="2027", actor=director)
    tournament.refresh_from_db()
    version = tournament.version
    leagues.tournament_season_set(tournament_id=tournament.pk, season_id=first.pk, actor=director)
    tournament.refresh_from_db()
    assert tournament.season_id == first.pk and tournament.version == version + 1
    leagues.tournament_season_set(tournament_id=tournament.pk, season_id=second.pk, actor=director)
    assert Tournament.objects.get(pk=tournament.pk).season_id == second.pk
    assert list(first.tournaments.all()) == []
    log = room_log(kinds=["tournament_season_set"])
    assert log[0]["payload"] == {"tournament": tournament.pk, "season": second.pk, "was": first.pk}
    # the older action touched the same row: the later one first
    with pytest.raises(DomainError) as err:
        room_undo(event_id=log[1]["id"], actor=director)
    assert err.value.code == "stale_undo"
    room_undo(event_id=log[0]["id"], actor=director)
    assert Tournament.objects.get(pk=tournament.pk).season_id == first.pk
    leagues.tournament_season_set(tournament_id=tournament.pk, season_id=None, actor=director)
    assert Tournament.objects.get(pk=tournament.pk).season_id is None


def test_tournament_season_set_refusals_change_nothing(director, tournament):
    season = _season(director)
    before = _snapshot()
    for kw, code in (
        ({"tournament_id": tournament.pk, "season_id": season.pk + 99}, "not_found"),
        ({"tournament_id": tournament.pk + 99, "season_id": season.pk}, "not_found"),
    ):
        with pytest.raises(DomainError) as err:
            leagues.tournament_season_set(actor=director, **kw)
        assert err.value.code == code and err.value.status == 404
    assert _snapshot() == before


# ---------------------------------------------------------------- standings (DB path)


def _table(standings) -> list[tuple]:
    return [(r.rank, r.name, r.events, r.points, r.wins, r.cashes) for r in standings.rows]


def test_standings_of_two_finished_tournaments(director):
    ann, bob, cat, dan = _players("Ann", "Bob", "Cat", "Dan")
    season = _season(director, scoring="place_table", points_table="10 6 3 1")
    # busts by lowest entry number: the first registered goes out first
    play(director, [ann, bob, cat, dan], out=[[ann], [bob], [cat]], season=season)  # Dan wins
    play(
        director,
        [dan, cat, bob, ann],
        out=[[dan], [cat], [bob]],
        name="Two",
        season=season,
        at=T0 + timedelta(days=7),
    )  # Ann wins
    s = season_standings(season)
    assert s.error == ""
    assert _table(s) == [
        (1, "Ann", 2, Decimal(11), 1, 1),
        (1, "Dan", 2, Decimal(11), 1, 1),
        (3, "Bob", 2, Decimal(9), 0, 1),
        (3, "Cat", 2, Decimal(9), 0, 1),
    ]
    # the default payouts pay two places of a field of four: 65% and 35% of 4 x 10000
    assert [r.winnings for r in s.rows] == [26000, 26000, 14000, 14000]


def test_entrants_minus_place_counts_re_entries_as_entrants(director):
    ann, bob, cat = _players("Ann", "Bob", "Cat")
    season = _season(director, scoring="entrants_minus_place", entries="best")
    t = play(
        director,
        [ann, bob, cat],
        reenter=(ann,),
        out=[[ann], [bob]],
        season=season,
        options=_reentry(),
    )
    assert t.entries.count() == 4  # Ann's first entry is place 4
    rows = {r.name: r.points for r in season_standings(season).rows}
    # Ann re-entered (entry 4) and busts first of the three left: place 3 → 4 - 3 + 1 = 2
    assert rows == {"Cat": Decimal(4), "Bob": Decimal(3), "Ann": Decimal(2)}
    leagues.season_update(
        season_id=season.pk, name="2026", scoring="entrants_minus_place", entries="first"
    )
    rows = {r.name: r.points for r in season_standings(Season.objects.get(pk=season.pk)).rows}
    assert rows["Ann"] == Decimal(1)  # her first entry, place 4
    leagues.season_update(
        season_id=season.pk, name="2026", scoring="entrants_minus_place", entries="each"
    )
    rows = {r.name: r.points for r in season_standings(Season.objects.get(pk=season.pk)).rows}
    assert rows["Ann"] == Decimal(3)


def _reentry() -> dict:
    return {"reentries_allowed": 2}


def test_best_n_and_attendance_through_the_database(director):
    ann, bob = _players("Ann", "Bob")
    season = _season(
        director, scoring="place_table", points_table="10 4", best_n=1, attendance_points=1
    )
    play(director, [ann, bob], season=season)  # Bob wins
    play(director, [bob, ann], name="Two", season=season, at=T0 + timedelta(days=1))  # Ann wins
    play(director, [bob, ann], name="Three", season=season, at=T0 + timedelta(days=2))
    s = season_standings(season)
    assert [(r.name, r.points, r.events, r.counted, r.wins) for r in s.rows] == [
        ("Ann", Decimal(11), 3, 1, 2),
        ("Bob", Decimal(11), 3, 1, 1),
    ]


def test_tied_places_share_their_points(director):
    ann, bob, cat, dan = _players("Ann", "Bob", "Cat", "Dan")
    season = _season(director, scoring="place_table", points_table="10 6 4 2")
    # Ann and Bob go out in one hand with the same stack: tied for 3rd-4th
    play(director, [ann, bob, cat, dan], out=[[ann, bob]], season=season)
    rows = {r.name: r.points for r in season_standings(season).rows}
    assert rows["Ann"] == rows["Bob"] == Decimal(3)
    leagues.season_update(
        season_id=season.pk,
        name="2026",
        scoring="place_table",
        points_table="10 6 4 2",
        share_ties=False,
    )
    rows = {r.name: r.points for r in season_standings(Season.objects.get(pk=season.pk)).rows}
    assert rows["Ann"] == rows["Bob"] == Decimal(4)


def test_bounties_and_hits_reach_the_formula(director):
    ann, bob, cat = _players("Ann", "Bob", "Cat")
    season = _season(director, scoring="formula", formula="hits * 10 + bounties + buyin / 1000")
    with time_machine.travel(T0, tick=False):
        t = services.tournament_create(
            actor=director,
            name="KO",
            buy_in=10000,
            fee=1000,
            seed=3,
            levels=TWO_LEVELS,
            options={"bounty_kind": "fixed", "bounty": 2000},
        )
        leagues.tournament_season_set(tournament_id=t.pk, season_id=season.pk, actor=director)
        e = {
            p.name: services.entry_register(tournament_id=t.pk, player_id=p.pk, actor=director)
            for p in (ann, bob, cat)
        }
        services.clock_action(tournament_id=t.pk, action="start", actor=director)
        for busted in ("Ann", "Bob"):
            services.elimination_record(
                tournament_id=t.pk,
                busts=[(e[busted].pk, 100)],
                winners=[e["Cat"].pk],
                actor=director,
            )
    s = season_standings(season)
    cat_row = next(r for r in s.rows if r.name == "Cat")
    # buy-in as paid: 100 + 10 fee + 20 bounty = 130 units; Cat won 2 bounties + her own
    assert cat_row.knockouts == 2
    assert cat_row.bounties == Entry.objects.get(pk=e["Cat"].pk).bounty_won > 0
    assert cat_row.points == Decimal(20) + Decimal(cat_row.bounties) / 100 + Decimal("0.13")
    assert points_by_tournament(cat.pk) == {t.pk: cat_row.points}


def test_a_formula_failing_for_a_player_gives_no_points(director):
    ann, bob, cat = _players("Ann", "Bob", "Cat")
    season = _season(director, scoring="formula", formula="100 / (place - 2)")
    play(director, [ann, bob, cat], season=season)
    s = season_standings(season)
    assert s.rows == ()
    assert s.error.startswith("Thursday: Event ")
    assert "division by zero" in s.error
    assert points_by_tournament(ann.pk) == {}


def test_a_running_tournament_scores_its_placed_players_only(director):
    ann, bob, cat, dan = _players("Ann", "Bob", "Cat", "Dan")
    season = _season(director, scoring="entrants_minus_place")
    t = play(director, [ann, bob, cat, dan], season=season, stop_at=2)
    assert t.status == Tournament.Status.RUNNING
    rows = {r.name: r.points for r in season_standings(season).rows}
    assert rows == {"Bob": Decimal(2), "Ann": Decimal(1)}  # places 3 and 4
    setup = services.tournament_create(actor=director, name="Later", levels=TWO_LEVELS)
    leagues.tournament_season_set(tournament_id=setup.pk, season_id=season.pk, actor=director)
    s = season_standings(season)
    assert [x.pk for x in s.tournaments] == [t.pk, setup.pk] and s.scored == {t.pk}


def test_standings_limit_keeps_ties_at_the_cut(director):
    players = _players("Ann", "Bob", "Cat", "Dan")
    season = _season(director, scoring="place_table", points_table="10 6 3 3")
    play(director, players, season=season)
    assert [r.rank for r in season_standings(season, limit=3).rows] == [1, 2, 3, 3]


def test_a_tournament_in_a_season_backs_up_and_restores_standing_alone(director):
    season = _season(director)
    t = play(director, _players("Ann", "Bob", "Cat"), season=season)
    doc = json.loads(json.dumps(backup_reads.tournament_document(t.pk)))
    copy = tournament_import(document=doc, actor=director)
    assert copy.pk != t.pk and copy.season_id is None
    assert Tournament.objects.get(pk=t.pk).season_id == season.pk
    assert list(copy.entries.values_list("place", flat=True).order_by("place")) == [1, 2, 3]
    assert [x.pk for x in season_standings(season).tournaments] == [t.pk]


def test_a_creation_is_not_undone_from_under_what_came_after(director, tournament):
    season = _season(director)
    league_made, season_made = (
        room_log(kinds=["league_created"])[0],
        room_log(kinds=["season_created"])[0],
    )
    with pytest.raises(DomainError) as err:
        room_undo(event_id=league_made["id"], actor=director)
    assert err.value.code == "stale_undo"
    leagues.tournament_season_set(tournament_id=tournament.pk, season_id=season.pk, actor=director)
    with pytest.raises(DomainError) as err:
        room_undo(event_id=season_made["id"], actor=director)
    assert err.value.code == "stale_undo"
    room_undo(event_id=room_log(kinds=["tournament_season_set"])[0]["id"], actor=director)
    room_undo(event_id=season_made["id"], actor=director)
    room_undo(event_id=league_made["id"], actor=director)
    assert (League.objects.count(), Season.objects.count()) == (0, 0)
    assert Tournament.objects.get(pk=tournament.pk).season_id is None
