"""Screens. Thin: check access, read through selectors, render."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render

from tourney import selectors
from tourney.models import Tournament
from tourney.roles import is_desk, is_director


@login_required
def home(request):
    tournaments = Tournament.objects.all()[:50]
    return render(
        request,
        "home.html",
        {"tournaments": tournaments, "director": is_director(request.user)},
    )


@login_required
def dashboard(request, tournament_id: int):
    if not is_director(request.user):
        raise PermissionDenied
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "dashboard/index.html", selectors.overview(tournament))


@login_required
def desk(request, tournament_id: int):
    if not is_desk(request.user):
        raise PermissionDenied
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "desk/index.html", selectors.overview(tournament))


def display(request, token: str):
    tournament = get_object_or_404(Tournament, display_token=token)
    return render(request, "display/index.html", selectors.overview(tournament))


def player_page(request, token: str):
    tournament = get_object_or_404(Tournament, display_token=token)
    return render(request, "display/player.html", selectors.overview(tournament))
