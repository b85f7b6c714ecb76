"""URLs of the director's announcements (issue 29): "Announce now" and the announcement
settings (the displays' language, speech, the texts by kind)."""

from django.urls import path

from tourney.views.dashboard import announcements

P = "td/<int:tournament_id>/announce/"

urlpatterns = [
    path(P, announcements.announce_panel, name="tourney-dashboard-announce"),
    path(
        P + "settings/",
        announcements.announce_settings,
        name="tourney-dashboard-announce-settings",
    ),
]
