"""URLs of the public display and the player phone page (token, no login).

The token is a slug: ``secrets.token_urlsafe`` writes only ``[A-Za-z0-9_-]``, so anything else
(a NUL, a space, a non-ASCII letter) never reaches a view and answers 404."""

from django.urls import path

from tourney.views import display

urlpatterns = [
    path("display/<slug:token>/", display.display, name="tourney-display"),
    path("display/<slug:token>/state.json", display.state, name="tourney-display-state"),
    path("p/<slug:token>/", display.player, name="tourney-player"),
    path("p/<slug:token>/find/", display.player_find, name="tourney-player-find"),
]
