"""The card room's screens (issue 28): the home's rows of today's events (polled every five
seconds by the home), the past events, and the room's settings (its name and floor plan,
RULES 13) with the tables in use now. Thin: read through selectors, call one service."""

from __future__ import annotations

import functools

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse

from tourney.core.room_journal import room_log
from tourney.engine.errors import DomainError
from tourney.engine.floor_plan import compact
from tourney.roles import is_desk, is_director
from tourney.selectors import room as room_reads
from tourney.selectors import room_home
from tourney.services import room as room_writes
from tourney.views.dashboard.base import director_only
from tourney.views.refusals import refusal_text

ROWS_TEMPLATE = "room/_home_rows.html"


def desk_or_director(view):
    """Login required (anonymous → login page); the desk and directors (others 403)."""

    @login_required
    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        if not is_desk(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def rows_context(request) -> dict:
    return {"rows": room_home.home_rows(), "director": is_director(request.user)}


@desk_or_director
def home_rows(request):
    """The home's table of today's events alone (the home polls it every five seconds)."""
    return render(request, ROWS_TEMPLATE, rows_context(request))


@desk_or_director
def past_events(request):
    """The events not on the home, newest first, a page at a time."""
    try:
        page = max(1, min(int(request.GET.get("page") or 1), 10_000))
    except ValueError:
        page = 1
    rows, more = room_home.past_rows(page=page)
    ctx = {
        "rows": rows,
        "director": is_director(request.user),
        "page": page,
        "more": more,
    }
    return render(request, "room/past.html", ctx)


def _context(*, name: str | None = None, plan: str | None = None) -> dict:
    read = room_reads.room_read()
    in_use = read["tables_in_use"]
    return {
        "name": read["name"] if name is None else name,
        "floor_plan": read["floor_plan_text"] if plan is None else plan,
        "plan_count": len(read["floor_plan"]),
        "in_use": _by_event(in_use),
        "in_use_count": len(in_use),
        "changes": room_log(kinds=[room_writes.KIND], limit=10),
    }


@director_only
def room_settings(request):
    """GET: the room's name and floor plan, the tables in use, the latest changes. POST: save
    (``name``, ``floor_plan``), or ``undo`` one change; a refusal shows in place, with what
    was typed kept."""
    if request.method != "POST":
        ctx = {**_context(), "saved": request.GET.get("saved") == "1"}
        return render(request, "room/settings.html", ctx)
    name = (request.POST.get("name") or "").strip()
    plan = request.POST.get("floor_plan") or ""
    undo = request.POST.get("undo", "")
    try:
        if undo:
            if not (undo.isdigit() and len(undo) < 18):
                raise DomainError("bad_input", room_writes.MSG_NOT_A_ROOM_CHANGE)
            room_writes.room_update_undo(event_id=int(undo), actor=request.user)
        else:
            room_writes.room_update(name=name, floor_plan=plan, actor=request.user)
    except DomainError as exc:
        ctx = _context(name=None if undo else name, plan=None if undo else plan)
        return render(
            request, "room/settings.html", {**ctx, "message": refusal_text(exc)}, status=exc.status
        )
    return redirect(reverse("tourney-room") + "?saved=1")


def _by_event(in_use: list[dict]) -> list[dict]:
    by: dict[int, dict] = {}
    for row in in_use:
        entry = by.setdefault(
            row["tournament_id"],
            {"id": row["tournament_id"], "name": row["tournament"], "numbers": []},
        )
        entry["numbers"].append(row["number"])
    return [{**e, "text": compact(e["numbers"]), "count": len(e["numbers"])} for e in by.values()]
