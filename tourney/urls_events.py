"""URLs of the multi-day events' screens (RULES 10): creating an event with its flights, the
event's page (each flight's survivors and the total, Day 2's build and seating)."""

from django.urls import path  # noqa: F401  (the screens add their paths)

urlpatterns: list = []
