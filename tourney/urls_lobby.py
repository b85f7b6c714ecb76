"""URLs of the lobby displays (issue 28): the director's screens under td/lobbies/, and the
public lobby by its token (no login; a token is a slug, as the display's)."""

from django.urls import path

from tourney.views import lobbies, lobby

urlpatterns = [
    path("td/lobbies/", lobbies.lobbies_list, name="tourney-lobbies"),
    path("td/lobbies/undo/", lobbies.lobbies_undo, name="tourney-lobbies-undo"),
    path("td/lobbies/<int:lobby_id>/", lobbies.lobby_edit, name="tourney-lobbies-edit"),
    path("td/lobbies/<int:lobby_id>/delete/", lobbies.lobby_delete, name="tourney-lobbies-delete"),
    path("lobby/<slug:token>/", lobby.lobby, name="tourney-lobby"),
    path("lobby/<slug:token>/state.json", lobby.state, name="tourney-lobby-state"),
]
