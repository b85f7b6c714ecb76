"""URLs of the desk screen."""

from django.urls import path

from tourney.views import desk, desk_events

urlpatterns = [
    path("desk/<int:tournament_id>/", desk.index, name="tourney-desk"),
    path("desk/<int:tournament_id>/search/", desk.search, name="tourney-desk-search"),
    path("desk/<int:tournament_id>/side/", desk.side, name="tourney-desk-side"),
    path("desk/<int:tournament_id>/register/", desk.register, name="tourney-desk-register"),
    path("desk/<int:tournament_id>/undo/", desk.undo, name="tourney-desk-undo"),
    # Issue 28: a satellite's ticket registers at no charge (RULES 12.5); the other events,
    # and their waiting lists joined from this desk
    path("desk/<int:tournament_id>/ticket/", desk.ticket, name="tourney-desk-ticket"),
    path("desk/<int:tournament_id>/events/", desk_events.panel, name="tourney-desk-events"),
    path(
        "desk/<int:tournament_id>/events/waiting-list/",
        desk_events.join,
        name="tourney-desk-events-join",
    ),
    path(
        "desk/<int:tournament_id>/events/undo/",
        desk_events.undo,
        name="tourney-desk-events-undo",
    ),
] + [
    path(
        f"desk/<int:tournament_id>/entries/<int:entry_id>/{action}/",
        desk.entry_action,
        {"action": action},
        name=f"tourney-desk-{action}",
    )
    for action in desk.ENTRY_ACTIONS
]
