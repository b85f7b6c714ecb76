"""URLs of the desk screen."""

from django.urls import path

from tourney.views import desk

urlpatterns = [
    path("desk/<int:tournament_id>/", desk.index, name="tourney-desk"),
    path("desk/<int:tournament_id>/search/", desk.search, name="tourney-desk-search"),
    path("desk/<int:tournament_id>/side/", desk.side, name="tourney-desk-side"),
    path("desk/<int:tournament_id>/register/", desk.register, name="tourney-desk-register"),
    path("desk/<int:tournament_id>/undo/", desk.undo, name="tourney-desk-undo"),
] + [
    path(
        f"desk/<int:tournament_id>/entries/<int:entry_id>/{action}/",
        desk.entry_action,
        {"action": action},
        name=f"tourney-desk-{action}",
    )
    for action in desk.ENTRY_ACTIONS
]
