"""Screens. Thin: check access, read through selectors, render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from tourney.models import Tournament
from tourney.roles import is_desk, is_director


@login_required
def home(request):
    # A user without a role sees no tournament: the list carries the display links (issue 10).
    desk = is_desk(request.user)
    tournaments = Tournament.objects.all()[:50] if desk else Tournament.objects.none()
    return render(
        request,
        "home.html",
        {"tournaments": tournaments, "director": is_director(request.user), "desk": desk},
    )
