"""The printable redraw sheet (issue 31 item 2, RULES 3.7, 3.8): after a redraw, every player
with the seat they sit in and the seat they drew, for the floor to call out table by table,
and the new tables seat by seat for the dealers. A break that brought the redraw is part of
it (``balancing.one_move_each``): each player has one move, from their real seat."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_safe

from tables.models import Move, Seat, Table
from tourney.models import Event, Tournament
from tourney.views.dashboard.base import director_view


def redraw_sheet(t: Tournament) -> dict[str, Any] | None:
    """The last redraw: its action, every player's from → to (players who drew the seat they
    sat in stay), sorted by the seat they sit in (the floor's call-out order) and grouped by
    new table; None when there was no redraw."""
    last = Move.objects.filter(tournament=t, reason=Move.Reason.REDRAW).order_by("-id").first()
    if last is None:
        return None
    batch = list(
        Move.objects.filter(tournament=t, event_id=last.event_id)
        .select_related("entry__player")
        .order_by("id")
        if last.event_id is not None
        else [last]
    )
    first_id = batch[0].pk
    rows: list[dict[str, Any]] = []
    moved = set()
    for m in batch:
        moved.add(m.entry_id)
        rows.append(
            {
                "name": m.entry.player.name,
                "number": m.entry.number,
                "from": (m.from_table, m.from_seat) if m.from_table is not None else None,
                "to": (m.to_table, m.to_seat),
                "reason": m.get_reason_display(),
                "stays": False,
            }
        )
    # Players who drew the seat they sat in: seated now, and not moved since the redraw.
    later = set(Move.objects.filter(tournament=t, pk__gte=first_id).values_list("entry", flat=True))
    for eid, name, number, table, seat in Seat.objects.filter(tournament=t).values_list(
        "entry_id", "entry__player__name", "entry__number", "table__number", "number"
    ):
        if eid not in moved and eid not in later:
            rows.append(
                {
                    "name": name,
                    "number": number,
                    "from": (table, seat),
                    "to": (table, seat),
                    "reason": "",
                    "stays": True,
                }
            )
    far = (10**9, 10**9)  # alternates (no seat before) last in the call-out
    call_out = sorted(rows, key=lambda r: (r["from"] or far, r["name"].casefold()))
    buttons = dict(
        Table.objects.filter(tournament=t, status=Table.Status.OPEN).values_list(
            "number", "button_seat"
        )
    )
    tables: dict[int, list[dict[str, Any]]] = {}
    for r in sorted(rows, key=lambda r: r["to"]):
        tables.setdefault(r["to"][0], []).append(r)
    event = Event.objects.filter(pk=last.event_id).first() if last.event_id else None
    return {
        "at": event.created_at if event else last.created_at,
        "moving": sum(not r["stays"] for r in rows),
        "call_out": call_out,
        "tables": [
            {"number": n, "button": buttons.get(n), "rows": rs} for n, rs in sorted(tables.items())
        ],
    }


@director_view
@require_safe
def print_redraw(request: HttpRequest, t: Tournament):
    """The last redraw, printable: call-out order, then one block per new table."""
    return render(
        request,
        "dashboard/print_redraw.html",
        {"tournament": t, "sheet": redraw_sheet(t), "printed_at": timezone.localtime()},
    )
