"""URLs of the desk screen."""

from django.urls import path

from tourney.views import pages

urlpatterns = [
    path("desk/<int:tournament_id>/", pages.desk, name="tourney-desk"),
]
