"""URLs of the satellites' director actions (RULES 12): the satellite's deal and a ticket's
refund on the dashboard's money panel, and the settings page's satellite form."""

from django.urls import path

from tourney.views.dashboard import satellites

P = "td/<int:tournament_id>/"

urlpatterns = [
    path(P + "satellite/", satellites.settings, name="tourney-dashboard-satellite-settings"),
    path(P + "satellite/deal/", satellites.deal, name="tourney-dashboard-satellite-deal"),
    path(
        P + "tickets/<int:ticket_id>/refund/",
        satellites.ticket_refund,
        name="tourney-dashboard-ticket-refund",
    ),
]
