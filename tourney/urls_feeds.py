"""URLs of a tournament's status feeds (issue 29): the feeds page, the dashboard's feeds panel
and one feed's actions. Director only (tests/test_role_matrix.py: "tourney-dashboard")."""

from django.urls import path

from tourney.views.dashboard import feeds

P = "td/<int:tournament_id>/feeds/"

urlpatterns = [
    path(P, feeds.page, name="tourney-dashboard-feeds"),
    path(P + "panel/", feeds.panel, name="tourney-dashboard-feeds-panel"),
    path(P + "<int:feed_id>/", feeds.feed_action, name="tourney-dashboard-feed"),
]
