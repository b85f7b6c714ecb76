from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import path

from tourney.api import api
from tourney.views import pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/v1/", api.urls),
    path("td/<int:tournament_id>/", pages.dashboard, name="tourney-dashboard"),
    path("desk/<int:tournament_id>/", pages.desk, name="tourney-desk"),
    path("display/<str:token>/", pages.display, name="tourney-display"),
    path("p/<str:token>/", pages.player_page, name="tourney-player"),
]
