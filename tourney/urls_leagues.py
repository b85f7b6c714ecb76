"""URLs of the leagues screens (issue 27): directors' pages under td/leagues/ and td/seasons/,
and the public standings by a season's link."""

from django.urls import path

from tourney.views.leagues import screens, standings

urlpatterns = [
    path("td/leagues/", screens.leagues_list, name="tourney-leagues"),
    path("td/leagues/changes/", screens.leagues_changes, name="tourney-leagues-changes"),
    path("td/leagues/<int:league_id>/", screens.league_page, name="tourney-league"),
    path("td/leagues/<int:league_id>/seasons/new/", screens.season_new, name="tourney-season-new"),
    path("td/seasons/check/", screens.formula_check, name="tourney-season-check"),
    path("td/seasons/<int:season_id>/", screens.season_page, name="tourney-season"),
    path(
        "td/seasons/<int:season_id>/settings/",
        screens.season_settings,
        name="tourney-season-settings",
    ),
    path(
        "td/seasons/<int:season_id>/tournaments/",
        screens.season_tournaments,
        name="tourney-season-tournaments",
    ),
    path(
        "td/seasons/<int:season_id>/standings/",
        standings.standings_page,
        name="tourney-season-standings",
    ),
    path(
        "td/seasons/<int:season_id>/standings.csv",
        standings.standings_csv,
        name="tourney-season-standings-csv",
    ),
    path("standings/<str:token>/", standings.public_standings, name="tourney-public-standings"),
]
