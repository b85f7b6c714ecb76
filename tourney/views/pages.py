"""Screens. Thin: check access, read through selectors, render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from tourney.models import Tournament
from tourney.roles import is_director


@login_required
def home(request):
    tournaments = Tournament.objects.all()[:50]
    return render(
        request,
        "home.html",
        {"tournaments": tournaments, "director": is_director(request.user)},
    )
