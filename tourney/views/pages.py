"""Screens. Thin: check access, read through selectors, render."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from tourney.models import Room
from tourney.roles import is_desk, is_director
from tourney.selectors.event_view import events_list
from tourney.selectors.room_home import home_rows


@login_required
def home(request):
    """The director home (issue 28): today's and upcoming events with their clocks, fields,
    tables and alerts (the rows refresh every five seconds, ``tourney-home-rows``)."""
    # A user without a role sees no tournament: the list carries the display links (issue 10).
    desk = is_desk(request.user)
    room = Room.objects.filter(pk=1).first()
    ctx = {
        "rows": home_rows() if desk else [],
        "room_name": room.name if room else "",
        "events": events_list() if desk else [],  # RULES 10: the multi-day events
        "director": is_director(request.user),
        "desk": desk,
    }
    return render(request, "home.html", ctx)


class LoginView(auth_views.LoginView):
    """Django's login page; a wrong username or password answers 400 with the form, the
    message inside it and the username kept (issue 31, item 4)."""

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 400
        return response
