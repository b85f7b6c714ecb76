"""URLs of the multi-day events' screens (RULES 10): creating an event with its flights, the
event's page (each flight's survivors and the total, Day 2's build and seating)."""

from django.urls import path

from tourney.views.dashboard import events

urlpatterns = [
    path("td/events/new/", events.event_new, name="tourney-event-new"),
    path("td/events/<int:event_id>/", events.event_page, name="tourney-event"),
    path("td/events/<int:event_id>/day2/", events.event_day2, name="tourney-event-day2"),
    path(
        "td/<int:tournament_id>/flight-end/",
        events.flight_end,
        name="tourney-dashboard-flight-end",
    ),
]
