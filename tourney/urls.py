from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from tourney.api import api
from tourney.views import money as money_views
from tourney.views import pages
from tourney.views import room as room_views

urlpatterns = [
    path("", pages.home, name="home"),
    # Issue 28: the home's rows (polled), the past events, the room's settings (RULES 13)
    path("home/rows/", room_views.home_rows, name="tourney-home-rows"),
    path("past/", room_views.past_events, name="tourney-past"),
    path("td/room/", room_views.room_settings, name="tourney-room"),
    # Browsers ask for /favicon.ico where a page names no icon (a CSV, a JSON): no 404 noise.
    path(
        "favicon.ico",
        RedirectView.as_view(url=static("img/favicon.svg"), permanent=True),
        name="favicon",
    ),
    # Issue 29: the language chooser (Django's set_language; the choice kept in a cookie)
    path("i18n/", include("django.conf.urls.i18n")),
    path("login/", pages.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("td/<int:tournament_id>/results.csv", money_views.results_csv, name="tourney-results-csv"),
    path(
        "td/<int:tournament_id>/results/print/",
        money_views.results_print,
        name="tourney-results-print",
    ),
    path("", include("tourney.urls_dashboard")),
    path("", include("tourney.urls_satellites")),  # RULES 12
    path("", include("tourney.urls_events")),
    path("", include("tourney.urls_bags")),
    path("", include("tourney.urls_players")),
    path("", include("tourney.urls_leagues")),
    path("", include("tourney.urls_desk")),
    path("", include("tourney.urls_display")),
    path("", include("tourney.urls_lobby")),
    path("", include("tourney.urls_feeds")),  # issue 29: status feeds (webhooks)
    path("", include("tourney.urls_structure_files")),  # issue 29: structure files
    path("", include("tourney.urls_announce")),  # issue 29: announcements
]
