"""URLs of the dashboard screen."""

from django.urls import path

from tourney.views import pages

urlpatterns = [
    path("td/<int:tournament_id>/", pages.dashboard, name="tourney-dashboard"),
]
