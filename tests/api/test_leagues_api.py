"""Issue 27: leagues, seasons and points through the JSON API (docs/api.md "Players, leagues
and points"): leagues and seasons created and read, a season's settings changed (a formula
refused with its column), the tournaments counting toward it, its standings from tournaments
played through the services, the public standings by its token (display names only); undo
through the room's actions; the roles; every refusal with its code and nothing changed;
Hypothesis: any formula and any token never give a server error."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.test_players_api import ACTIONS, _error, _matches, call, patch
from tests.conftest import ApiClient
from tests.engine.test_formula import FRAGMENTS
from tests.services.test_leagues import T0, _players, play
from tests.services.test_players import _new_tournament
from tourney.models import Event, League, Player, Season, Tournament
from tourney.tokens import token_create

pytestmark = pytest.mark.django_db

LEAGUES = "/api/v1/leagues"
SEASONS = "/api/v1/seasons"
FORMULA = "10 * sqrt(entrants / place)"


@pytest.fixture
def stranger_api(stranger) -> ApiClient:
    return ApiClient(token_create(user=stranger))


def _state() -> tuple:
    return (
        list(League.objects.order_by("pk").values()),
        list(Season.objects.order_by("pk").values()),
        list(Tournament.objects.order_by("pk").values_list("pk", "season_id")),
        Event.objects.count(),
    )


def _league(director_api, name: str = "Thursday League") -> dict:
    r = director_api.post(LEAGUES, {"name": name})
    assert r.status_code == 201, r.content
    return r.json()


def _season(director_api, league: int, **body) -> dict:
    r = director_api.post(f"{LEAGUES}/{league}/seasons", {"name": "2026", **body})
    assert r.status_code == 201, r.content
    return r.json()


def _count(director_api, tid: int, season: int | None) -> dict:
    r = director_api.put(f"/api/v1/tournaments/{tid}/season", {"season": season})
    assert r.status_code == 200, r.content
    return r.json()


# ---------------------------------------------------------------- leagues and seasons


def test_the_director_creates_a_league_and_a_season_and_the_desk_reads_them(director_api, desk_api):
    body = _league(director_api, "  Thursday   League ")
    assert _matches("post", "leagues", body, 201)
    league = League.objects.get()
    assert body == {
        "id": league.pk,
        "name": "Thursday League",
        "slug": "thursday-league",
        "created": league.created_at.isoformat(),
        "seasons": [],
        "action": Event.objects.get(kind="league_created").pk,
    }
    body = _season(
        director_api,
        league.pk,
        starts_on="2026-01-01",
        points_table=[100, "60", 30.5, 0],
        best_n=3,
        entries="first",
        attendance_points="2.5",
        share_ties=False,
    )
    assert _matches("post", "leagues/{league_id}/seasons", body, 201)
    season = Season.objects.get()
    assert body == {
        "id": season.pk,
        "league": league.pk,
        "name": "2026",
        "starts_on": "2026-01-01",
        "ends_on": None,
        "scoring": "place_table",  # a table given without a scoring: points by place
        "points_table": ["100", "60", "30.5", "0"],
        "formula": "",
        "scoring_text": "100, 60, 30.5, 0",
        "best_n": 3,
        "entries": "first",
        "attendance_points": "2.50",
        "share_ties": False,
        "public_token": season.public_token,
        "tournaments": [],
        "action": Event.objects.get(kind="season_created").pk,
    }
    read = {k: v for k, v in body.items() if k != "action"}
    r = desk_api.get(f"{SEASONS}/{season.pk}")
    assert r.status_code == 200 and _matches("get", "seasons/{season_id}", r.json())
    assert r.json() == read
    brief = {"id": season.pk, "name": "2026", "starts_on": "2026-01-01", "ends_on": None}
    expected = {
        "id": league.pk,
        "name": "Thursday League",
        "slug": "thursday-league",
        "created": league.created_at.isoformat(),
        "seasons": [brief],
    }
    r = desk_api.get(f"{LEAGUES}/{league.pk}")
    assert r.status_code == 200 and _matches("get", "leagues/{league_id}", r.json())
    assert r.json() == expected
    r = desk_api.get(LEAGUES)
    assert r.status_code == 200 and _matches("get", "leagues", r.json())
    assert r.json() == {"leagues": [expected]}


def test_a_patch_changes_the_settings_given_and_keeps_the_others(director_api):
    league = _league(director_api)
    body = _season(director_api, league["id"], best_n=5, attendance_points=1)
    url = f"{SEASONS}/{body['id']}"
    r = patch(director_api, url, {"formula": " entrants - place + 1 "})
    assert r.status_code == 200 and _matches("patch", "seasons/{season_id}", r.json())
    changed = r.json()
    assert (changed["scoring"], changed["formula"], changed["scoring_text"]) == (
        "formula",  # a formula given without a scoring: the director's formula
        "entrants - place + 1",
        "entrants - place + 1",
    )
    assert (changed["name"], changed["best_n"], changed["attendance_points"]) == ("2026", 5, "1.00")
    assert changed["action"] == Event.objects.filter(kind="season_updated").latest("pk").pk
    r = patch(director_api, url, {"scoring": "sqrt_buyin", "best_n": None, "name": "Spring"})
    assert (r.json()["scoring"], r.json()["formula"], r.json()["best_n"], r.json()["name"]) == (
        "sqrt_buyin",
        "",
        None,
        "Spring",
    )
    assert r.json()["scoring_text"] == "sqrt(entrants) / sqrt(place) * (1 + log10(buyin + 0.25))"
    # undone, the season has its formula again
    assert director_api.post(f"{ACTIONS}/{r.json()['action']}/undo").status_code == 200
    again = director_api.get(url).json()
    assert (again["scoring"], again["formula"], again["best_n"]) == (
        "formula",
        "entrants - place + 1",
        5,
    )


BAD_FORMULA = (
    "Column 22: unknown name 'plcae'; the names are entrants, place, buyin, prize, bounties, "
    "rebuys, addons, hits."
)


@pytest.mark.parametrize(
    ("body", "code", "fields"),
    [
        (
            {"formula": "10 * sqrt(entrants / plcae)"},
            "bad_formula",
            {"formula": BAD_FORMULA, "column": 22},
        ),
        ({"scoring": "formula", "formula": " "}, "bad_formula", None),
        ({"formula": "__import__('os').system('true')"}, "bad_formula", None),
        ({"points_table": [100, -5]}, "bad_points_table", None),
        ({"points_table": [100, "1e30"]}, "bad_points_table", None),
        ({"points_table": [100, 0.001]}, "bad_points_table", None),
        ({"scoring": "nope"}, "bad_scoring", None),
        ({"entries": "all"}, "bad_options", {"entries": "…"}),
        ({"attendance_points": -1}, "bad_options", {"attendance_points": "…"}),
        ({"attendance_points": "0.001"}, "bad_options", {"attendance_points": "…"}),
        ({"attendance_points": 10**7}, "bad_input", {"attendance_points": "…"}),
        ({"attendance_points": "NaN"}, "bad_input", {"attendance_points": "…"}),
        ({"best_n": 0}, "bad_input", {"best_n": "…"}),
        ({"best_n": 40000}, "bad_input", {"best_n": "…"}),
        ({"starts_on": "2026-02-01", "ends_on": "2026-01-01"}, "bad_dates", None),
        ({"starts_on": "2026-02-30"}, "bad_input", None),
        ({"name": " "}, "bad_name", {"name": "Give a name of 1 to 120 characters."}),
        ({"name": "x" * 121}, "bad_name", None),
        ({"colour": "red"}, "bad_input", {"colour": "…"}),
    ],
)
def test_a_refused_season_changes_nothing(director_api, body, code, fields):
    league = _league(director_api)
    season = _season(director_api, league["id"], points_table=[10, 5])
    before = _state()
    for r in (
        director_api.post(f"{LEAGUES}/{league['id']}/seasons", {"name": "2027", **body}),
        patch(director_api, f"{SEASONS}/{season['id']}", body),
    ):
        err = _error(r, 400, code)
        if fields is not None:
            assert err["fields"].keys() == fields.keys()
            assert all(v == "…" or err["fields"][k] == v for k, v in fields.items())
    assert _state() == before


def test_refused_leagues_and_unknown_rows(director_api, desk_api):
    before = _state()
    _error(director_api.post(LEAGUES, {"name": ""}), 400, "bad_name")
    _error(director_api.post(LEAGUES, {}), 400, "bad_input")
    huge = 10**30
    for r in (
        desk_api.get(f"{LEAGUES}/{huge}"),
        desk_api.get(f"{LEAGUES}/99"),
        director_api.post(f"{LEAGUES}/{huge}/seasons", {"name": "X"}),
        director_api.post(f"{LEAGUES}/99/seasons", {"name": "X"}),
        desk_api.get(f"{SEASONS}/{huge}"),
        desk_api.get(f"{SEASONS}/{2**63}"),
        patch(director_api, f"{SEASONS}/99", {"name": "X"}),
        desk_api.get(f"{SEASONS}/{huge}/standings"),
        director_api.put(f"/api/v1/tournaments/{huge}/season", {"season": None}),
        director_api.put("/api/v1/tournaments/99/season", {"season": None}),
        desk_api.get("/api/v1/standings/not-a-token"),
        desk_api.get("/api/v1/standings/" + "x" * 65),
    ):
        _error(r, 404, "not_found")
    assert _state() == before


# ---------------------------------------------------------------- a tournament's season


def test_a_tournament_counts_toward_one_season_and_the_change_is_undone(director, director_api):
    league = _league(director_api)
    one, two = (_season(director_api, league["id"], name=n) for n in ("Spring", "Autumn"))
    t = _new_tournament(director)
    body = _count(director_api, t.pk, one["id"])
    assert _matches("put", "tournaments/{tid}/season", body)
    first = Event.objects.get(kind="tournament_season_set")
    assert body == {"tournament": t.pk, "season": one["id"], "action": first.pk}
    assert director_api.get(f"{SEASONS}/{one['id']}").json()["tournaments"] == [
        {"id": t.pk, "name": "Saturday 30", "status": "setup"}
    ]
    moved = _count(director_api, t.pk, two["id"])
    assert Tournament.objects.get(pk=t.pk).season_id == two["id"]
    _error(director_api.post(f"{ACTIONS}/{first.pk}/undo"), 409, "stale_undo")
    assert director_api.post(f"{ACTIONS}/{moved['action']}/undo").status_code == 200
    assert Tournament.objects.get(pk=t.pk).season_id == one["id"]
    out = _count(director_api, t.pk, None)
    assert (out["season"], Tournament.objects.get(pk=t.pk).season_id) == (None, None)
    # a season's creation is not undone from under a tournament's move into it
    season_made = Event.objects.filter(kind="season_created").earliest("pk")  # Spring
    _error(director_api.post(f"{ACTIONS}/{season_made.pk}/undo"), 409, "stale_undo")
    before = _state()
    for body, status, code in (
        ({"season": 99}, 404, "not_found"),
        ({"season": 0}, 400, "bad_input"),
        ({}, 400, "bad_input"),
        ({"season": "one"}, 400, "bad_input"),
    ):
        _error(director_api.put(f"/api/v1/tournaments/{t.pk}/season", body), status, code)
    assert _state() == before


def test_a_day_of_a_multi_day_event_is_refused(director_api, desk_api):
    league = _league(director_api)
    season = _season(director_api, league["id"])
    r = director_api.post(
        "/api/v1/events", {"name": "Main", "flights": ["A"], "tables": 1, "end_at_players": 3}
    )
    assert r.status_code == 201, r.content
    tid = r.json()["flights"][0]["tournament"]
    before = _state()
    r = director_api.put(f"/api/v1/tournaments/{tid}/season", {"season": season["id"]})
    _error(r, 400, "day_of_event")
    assert _state() == before


# ---------------------------------------------------------------- standings


@pytest.fixture
def played(director, director_api):
    """A season by points table (10, 6, 3, 1) and two finished tournaments of four: Dan wins
    the first, Ann the second; Ann has an email and a phone."""
    ann, bob, cat, dan = _players("Ann Lee", "Bob Ray", "Cat Fox", "Dan Wu")
    Player.objects.filter(pk=ann.pk).update(email="ann@example.org", phone="+44 1")
    league = _league(director_api)
    body = _season(director_api, league["id"], points_table=[10, 6, 3, 1])
    season = Season.objects.get(pk=body["id"])
    one = play(director, [ann, bob, cat, dan], out=[[ann], [bob], [cat]], season=season)
    two = play(
        director,
        [dan, cat, bob, ann],
        out=[[dan], [cat], [bob]],
        name="Two",
        season=season,
        at=T0 + timedelta(days=7),
    )
    return season, (ann, bob, cat, dan), (one, two)


def _row(rank, p, points, wins, cashes, winnings):
    return {
        "rank": rank,
        "player": p.pk,
        "name": p.name,
        "events": 2,
        "counted": 2,
        "points": points,
        "wins": wins,
        "cashes": cashes,
        "winnings": winnings,
        "bounties": 0,
        "knockouts": 0,
    }


def test_the_standings_of_a_season_and_its_public_standings(desk_api, anon_api, played):
    season, (ann, bob, cat, dan), (one, two) = played
    r = desk_api.get(f"{SEASONS}/{season.pk}/standings")
    assert r.status_code == 200 and _matches("get", "seasons/{season_id}/standings", r.json())
    assert r.json() == {
        "season": season.pk,
        "league": season.league_id,
        "name": "Thursday League 2026",
        "scoring_text": "10, 6, 3, 1",
        "tournaments": [
            {"id": one.pk, "name": "Thursday", "status": "finished", "scored": True},
            {"id": two.pk, "name": "Two", "status": "finished", "scored": True},
        ],
        "error": "",
        "standings": [
            _row(1, ann, "11.00", 1, 1, 26000),
            _row(1, dan, "11.00", 1, 1, 26000),
            _row(3, bob, "9.00", 0, 1, 14000),
            _row(3, cat, "9.00", 0, 1, 14000),
        ],
    }
    r = anon_api.get(f"/api/v1/standings/{season.public_token}")
    assert r.status_code == 200 and _matches("get", "standings/{token}", r.json())
    assert r.json() == {
        "league": "Thursday League",
        "season": "2026",
        "events": 2,
        "error": "",
        "standings": [
            {
                "rank": row["rank"],
                "name": name,
                "events": 2,
                "points": row["points"],
                "wins": row["wins"],
                "cashes": row["cashes"],
                "winnings": row["winnings"],
                "bounties": 0,
            }
            for row, name in zip(
                desk_api.get(f"{SEASONS}/{season.pk}/standings").json()["standings"],
                ["Ann L.", "Dan W.", "Bob R.", "Cat F."],
                strict=True,
            )
        ],
    }
    assert "ann@example.org" not in r.content.decode() and "+44 1" not in r.content.decode()
    r = desk_api.get(f"/api/v1/players/{ann.pk}")
    assert [(h["tournament"], h["season"], h["points"]) for h in r.json()["history"]] == [
        (two.pk, season.pk, "10.00"),
        (one.pk, season.pk, "1.00"),
    ]


def test_a_formula_failing_for_a_player_gives_no_points_and_says_why(
    director_api, desk_api, anon_api, played
):
    season, players, (one, two) = played
    r = patch(director_api, f"{SEASONS}/{season.pk}", {"formula": "100 / (place - 2)"})
    assert r.status_code == 200, r.content
    standings = desk_api.get(f"{SEASONS}/{season.pk}/standings").json()
    assert standings["standings"] == []
    assert (
        standings["error"].startswith("Thursday: Event ")
        and "division by zero" in (standings["error"])
    )
    public = anon_api.get(f"/api/v1/standings/{season.public_token}").json()
    assert (public["standings"], public["error"]) == ([], standings["error"])
    history = desk_api.get(f"/api/v1/players/{players[0].pk}").json()["history"]
    assert [(h["season"], h["points"]) for h in history] == [(season.pk, None)] * 2


# ---------------------------------------------------------------- roles


def test_roles(director_api, desk_api, anon_api, stranger_api, director):
    league = _league(director_api)
    season = _season(director_api, league["id"])
    t = _new_tournament(director)
    reads = [
        ("get", LEAGUES, None),
        ("get", f"{LEAGUES}/{league['id']}", None),
        ("get", f"{SEASONS}/{season['id']}", None),
        ("get", f"{SEASONS}/{season['id']}/standings", None),
    ]
    writes = [
        ("post", LEAGUES, {"name": "X"}),
        ("post", f"{LEAGUES}/{league['id']}/seasons", {"name": "X"}),
        ("patch", f"{SEASONS}/{season['id']}", {"name": "X"}),
        ("put", f"/api/v1/tournaments/{t.pk}/season", {"season": season["id"]}),
    ]
    before = _state()
    for method, path, body in reads + writes:
        _error(call(anon_api, method, path, body), 401, "unauthorized")
        _error(call(stranger_api, method, path, body), 403, "forbidden")
    for method, path, body in writes:
        _error(call(desk_api, method, path, body), 403, "forbidden")
    for method, path, body in reads:
        assert call(desk_api, method, path, body).status_code == 200
    public = f"/api/v1/standings/{season['public_token']}"
    for client in (anon_api, stranger_api, desk_api):
        assert client.get(public).status_code == 200
    assert _state() == before


# ---------------------------------------------------------------- never a server error

FORMULAS = st.one_of(
    st.lists(st.sampled_from(FRAGMENTS), max_size=30).map("".join),
    st.text(max_size=80),
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(formula=FORMULAS)
def test_any_formula_is_stored_or_refused_and_the_standings_never_fail(
    director_api, anon_api, played, formula
):
    season = played[0]
    r = patch(director_api, f"{SEASONS}/{season.pk}", {"formula": formula})
    assert r.status_code in (200, 400), r.content
    if r.status_code == 400:
        assert r.json()["error"]["code"] in ("bad_formula", "bad_input"), r.content
    standings = director_api.get(f"{SEASONS}/{season.pk}/standings")
    assert standings.status_code == 200, standings.content
    public = anon_api.get(f"/api/v1/standings/{season.public_token}")
    assert public.status_code == 200 and public.json()["error"] == standings.json()["error"]


TOKENS = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(token=TOKENS)
def test_any_public_token_answers_the_standings_or_not_found(anon_api, token):
    r = anon_api.client.get("/api/v1/standings/" + quote(token, safe=""))
    assert r.status_code in (200, 400, 404), (token, r.content)
    if r.status_code == 400:  # a NUL in the path: refused before any view
        assert r.json()["error"]["code"] == "bad_input"
