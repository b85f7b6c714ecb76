"""The player database's screens (issue 27): the list and its search, a player's page, the
edit and new forms, the photo, merge, import, export, removal and the recent changes with
their undo. Thin: check the role, read the form, call one service, render.

Who: directors and desk clerks list, read, add and edit players (the desk registers them);
merge, import, export, removal and undo are the director's."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tourney.engine.errors import DomainError
from tourney.models import Player
from tourney.roles import is_desk, is_director
from tourney.views.dashboard.base import director_only
from tourney.views.refusals import field_texts, refusal_text


def desk_page(view: Callable) -> Callable:
    """Login required (anonymous → login page); directors and desk clerks (others 403)."""

    @login_required
    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs):
        if not is_desk(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


# Directors only (others 403), anonymous to the login page: the dashboard's check.
director_page = director_only


def player_or_404(player_id: int) -> Player:
    """The player; 404 when missing (or beyond what the column holds)."""
    if not 0 < player_id < 2**63:
        raise Http404("No such player.")
    return get_object_or_404(Player.objects.select_related("merged_into"), pk=player_id)


def page(
    request: HttpRequest,
    template: str,
    ctx: dict[str, Any],
    *,
    error: DomainError | None = None,
) -> HttpResponse:
    """The page, with a refusal's message and field messages when there is one (its status)."""
    ctx = {
        "director": is_director(request.user),
        "error": refusal_text(error) if error else "",
        "error_fields": field_texts(error) if error else {},
        **ctx,
    }
    return render(request, template, ctx, status=error.status if error else 200)
