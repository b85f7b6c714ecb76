"""Issue 27, leagues' screens: directors edit (others 403, anonymous to the login page), a
refusal shows in place with what was typed kept and nothing written, the season's
tournaments, the standings (page, CSV, public by the season's link), undo."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from tests.services.test_leagues import T0, play
from tourney import services
from tourney.models import Event, League, Player, Season, Tournament
from tourney.services import leagues

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(director) -> Season:
    league = leagues.league_create(name="Thursday League", actor=director)
    return leagues.season_create(
        league_id=league.pk,
        name="Winter 2026",
        scoring="place_table",
        points_table="10 6 3",
        actor=director,
    )


def _played(director, season) -> Tournament:
    players = [Player.objects.create(name=n) for n in ("Ann Archer", "Bob Baker", "Cat Cole")]
    return play(director, players, season=season, at=T0)


def _urls(season: Season) -> list[str]:
    return [
        reverse("tourney-leagues"),
        reverse("tourney-leagues-changes"),
        reverse("tourney-league", args=[season.league_id]),
        reverse("tourney-season-new", args=[season.league_id]),
        reverse("tourney-season-check"),
        reverse("tourney-season", args=[season.pk]),
        reverse("tourney-season-settings", args=[season.pk]),
        reverse("tourney-season-tournaments", args=[season.pk]),
        reverse("tourney-season-standings", args=[season.pk]),
        reverse("tourney-season-standings-csv", args=[season.pk]),
    ]


def test_directors_only(client, season, desk_clerk, stranger):
    for url in _urls(season):
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith("/login/"), url
    for user in (desk_clerk, stranger):
        c = Client()
        c.force_login(user)
        for url in _urls(season):
            assert c.get(url).status_code == 403, url
            assert c.post(url, {"name": "x"}).status_code == 403, url
    assert League.objects.count() == 1


def test_public_standings_need_only_the_link(client, director, season):
    _played(director, season)
    r = client.get(reverse("tourney-public-standings", args=[season.public_token]))
    assert r.status_code == 200
    body = r.content.decode()
    # first name and initial only, never the full name
    assert "Cat C." in body and "Cat Cole" not in body
    assert client.get(reverse("tourney-public-standings", args=["nope"])).status_code == 404
    assert client.get("/standings/bad.token/").status_code == 404


def test_create_league_and_season_through_the_forms(td):
    r = td.post(reverse("tourney-leagues"), {"name": "Thursday League"})
    league = League.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("tourney-league", args=[league.pk])
    form = {
        "name": "Winter",
        "scoring": "formula",
        "formula": "sqrt(entrants) / plcae",
        "points_table": "",
        "best_n": "8",
        "entries": "best",
        "attendance_points": "1.5",
        "share_ties": "on",
    }
    r = td.post(reverse("tourney-season-new", args=[league.pk]), form)
    assert r.status_code == 400
    body = r.content.decode()
    assert "Column 18: unknown name &#x27;plcae&#x27;" in body
    assert "sqrt(entrants) / plcae</textarea>" in body  # what was typed is kept
    assert 'value="8"' in body and 'value="1.5"' in body
    assert Season.objects.count() == 0
    form["formula"] = "sqrt(entrants) / sqrt(place)"
    r = td.post(reverse("tourney-season-new", args=[league.pk]), form)
    season = Season.objects.get()
    assert r.status_code == 302 and r["Location"] == reverse("tourney-season", args=[season.pk])
    assert (season.formula, season.best_n, str(season.attendance_points)) == (
        "sqrt(entrants) / sqrt(place)",
        8,
        "1.50",
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("best_n", "0", "The best events to count must be a whole number"),
        ("best_n", "two", "Best events: a whole number of 1 or more"),
        ("attendance_points", "-1", "Attendance points must be a number of 0 or more"),
        ("attendance_points", "abc", "Attendance points: a number of 0 or more"),
        ("points_table", "10, x", "Place 2 of the points table"),
    ],
)
def test_settings_refusals_show_in_place_and_change_nothing(td, season, field, value, message):
    url = reverse("tourney-season-settings", args=[season.pk])
    form = {"name": "Winter 2026", "scoring": "place_table", "entries": "best", field: value}
    before = list(Season.objects.values())
    events = Event.objects.count()
    r = td.post(url, form)
    assert r.status_code == 400
    assert message in r.content.decode()
    assert list(Season.objects.values()) == before and Event.objects.count() == events


def test_the_check_button_shows_the_sample_or_the_error(td):
    url = reverse("tourney-season-check")
    r = td.post(url, {"scoring": "formula", "formula": "entrants - place + 1"})
    body = r.content.decode()
    assert "<b>1</b>st → 30" in body and "<b>30</b>th → 1" in body
    r = td.post(url, {"scoring": "formula", "formula": "entrants -* place"})
    body = r.content.decode()
    assert "Column 11: " in body
    assert "entrants -* place\n          ^</pre>" in body
    r = td.post(url, {"scoring": "place_table", "points_table": "9 4"})
    assert "<b>2</b>nd → 4" in r.content.decode() and "<b>3</b>rd → 0" in r.content.decode()


def test_add_and_remove_a_tournament(td, director, season):
    t = services.tournament_create(actor=director, name="Friday", levels=None)
    page = td.get(reverse("tourney-season", args=[season.pk])).content.decode()
    assert f'<option value="{t.pk}">Friday' in page
    url = reverse("tourney-season-tournaments", args=[season.pk])
    assert td.post(url, {"add": str(t.pk)}).status_code == 302
    assert Tournament.objects.get(pk=t.pk).season_id == season.pk
    page = td.get(reverse("tourney-season", args=[season.pk])).content.decode()
    assert f'name="remove" value="{t.pk}"' in page
    assert td.post(url, {"add": "x"}).status_code == 400
    assert td.post(url, {"add": "999999"}).status_code == 404
    assert td.post(url, {"remove": str(t.pk)}).status_code == 302
    assert Tournament.objects.get(pk=t.pk).season_id is None


def test_standings_page_csv_and_a_failing_formula(td, director, season):
    _played(director, season)
    page = td.get(reverse("tourney-season-standings", args=[season.pk])).content.decode()
    assert "Ann Archer" in page and "standings-table" in page
    r = td.get(reverse("tourney-season-standings-csv", args=[season.pk]))
    rows = list(csv.reader(io.StringIO(r.content.decode())))
    assert rows[0][:5] == ["rank", "player", "events", "events_counted", "points"]
    assert [row[1] for row in rows[1:]] == ["Cat Cole", "Bob Baker", "Ann Archer"]
    assert rows[1][4] == "10.00"
    leagues.season_update(
        season_id=season.pk, name="Winter 2026", scoring="formula", formula="1 / (place - 3)"
    )
    page = td.get(reverse("tourney-season", args=[season.pk])).content.decode()
    assert 'id="standings-error"' in page and "division by zero" in page
    assert "Ann Archer" not in page.split('id="season-tournaments"')[0]
    public = Client().get(reverse("tourney-public-standings", args=[season.public_token]))
    assert "cannot be computed" in public.content.decode()


def test_undo_from_the_changes_page(td, director, season):
    leagues.season_update(
        season_id=season.pk, name="Renamed", scoring="entrants_minus_place", actor=director
    )
    event = Event.objects.filter(kind="season_updated").get()
    page = td.get(reverse("tourney-leagues-changes")).content.decode()
    assert "Season settings changed: Renamed" in page
    own = td.get(reverse("tourney-season", args=[season.pk])).content.decode()
    assert "Season created: Winter 2026" in own and "Season settings changed: Renamed" in own
    r = td.post(reverse("tourney-leagues-changes"), {"event": str(event.pk)})
    assert r.status_code == 302
    season.refresh_from_db()
    assert (season.name, season.scoring, season.points_table) == (
        "Winter 2026",
        "place_table",
        ["10", "6", "3"],
    )
    r = td.post(reverse("tourney-leagues-changes"), {"event": str(event.pk)})
    assert r.status_code == 409 and "undone already" in r.content.decode()
    other = Event.objects.create(tournament=None, kind="players_merged", payload={"undo": {}})
    assert td.post(reverse("tourney-leagues-changes"), {"event": str(other.pk)}).status_code == 404


# ---------------------------------------------------------------- the tournament's screens


def test_display_state_carries_the_standings_only_in_a_season(client, director, season):
    from tourney.selectors import display as public

    t = _played(director, season)
    state = public.build_state(t)
    assert state["standings"]["season"] == "Winter 2026"
    assert [(r["rank"], r["name"], r["points"]) for r in state["standings"]["rows"]] == [
        (1, "Cat C.", "10"),
        (2, "Bob B.", "6"),
        (3, "Ann A.", "3"),
    ]
    other = services.tournament_create(actor=director, name="Plain", levels=None)
    assert "standings" not in public.build_state(other)
    tv = client.get(reverse("tourney-display", args=[t.display_token])).content.decode()
    assert 'id="standings-view"' in tv and "Cat C." in tv
    phone = client.get(reverse("tourney-player", args=[t.display_token])).content.decode()
    assert 'id="p-standings"' in phone
    assert reverse("tourney-public-standings", args=[season.public_token]) in phone
    plain = client.get(reverse("tourney-display", args=[other.display_token])).content.decode()
    assert "standings-view" not in plain


def test_a_tournament_outside_a_season_reads_no_season(director, season):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tourney.selectors import display as public

    t = services.tournament_create(actor=director, name="Plain", levels=None)
    t.refresh_from_db()
    with CaptureQueriesContext(connection) as plain:
        public.build_state(t)
    leagues.tournament_season_set(tournament_id=t.pk, season_id=season.pk, actor=director)
    t.refresh_from_db()
    with CaptureQueriesContext(connection) as in_season:
        public.build_state(t)
    seasonal = [q["sql"] for q in in_season.captured_queries if "season" in q["sql"]]
    assert seasonal and not [q for q in plain.captured_queries if "tourney_season" in q["sql"]]
    # the season (with its league) and its tournaments; no results yet, so nothing more
    assert len(in_season.captured_queries) == len(plain.captured_queries) + 2
