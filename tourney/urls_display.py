"""URLs of the public display and the player phone page (token, no login)."""

from django.urls import path

from tourney.views import display

urlpatterns = [
    path("display/<str:token>/", display.display, name="tourney-display"),
    path("display/<str:token>/state.json", display.state, name="tourney-display-state"),
    path("p/<str:token>/", display.player, name="tourney-player"),
    path("p/<str:token>/find/", display.player_find, name="tourney-player-find"),
]
