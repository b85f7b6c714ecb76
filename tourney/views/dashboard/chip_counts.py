"""The dashboard's chip counts (RULES 10.8): the director picks a table (types its number, or
clicks it) and types each player's chips, one row per seat, Tab between them and Enter to
record the table; the next table comes up. The panel lists the latest counts with the time
each was taken, and the average stack from the exact chips in play. Thin: read the form, call
``chip_counts_record``, render. The panel loads itself into the dashboard page (its own
request) and refreshes with the other panels; without JavaScript it is a page of its own."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_noop as N_
from django.utils.translation import ngettext
from django_htmx.http import trigger_client_event

from tables.models import Table
from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.engine.numbers import ascii_int
from tourney.models import Entry, Tournament
from tourney.selectors.chip_counts import chip_counts_read, table_counts
from tourney.services.chip_counts import chip_counts_record
from tourney.views.dashboard.base import (
    CHANGED_EVENT,
    director_view,
    refuse,
    table_number_or_none,
)

PANEL = "dashboard/_chip_counts.html"
PAGE = "dashboard/chip_counts.html"
LATEST_SHOWN = 12
MSG_BAD_CHIPS = "Seat {seat}: give the chips as a whole number, e.g. 25400."
MSG_NO_CHIPS = "Seat {seat}: at least 1 chip (a player with no chips is out: bust them)."
MSG_NOTHING_TYPED = N_("Type the chips of at least one player.")
MSG_RECORDED = "Recorded {n} count{s} at table {table} ({at})."
# The same refusals for the screens (issue 29): marked, with %(name)s places.
_BAD_CHIPS = N_("Seat %(seat)s: give the chips as a whole number, e.g. 25400.")
_NO_CHIPS = N_("Seat %(seat)s: at least 1 chip (a player with no chips is out: bust them).")


def _tables(t: Tournament) -> list[dict[str, Any]]:
    """The open tables with players, each with how many sit there."""
    rows = (
        Table.objects.filter(tournament=t, status=Table.Status.OPEN)
        .annotate(sitting=Count("occupied", filter=Q(occupied__entry__status=Entry.Status.SEATED)))
        .filter(sitting__gt=0)
        .order_by("number")
        .values_list("number", "sitting")
    )
    return [{"number": n, "players": p} for n, p in rows]


def _next_table(tables: list[dict[str, Any]], after: int | None) -> int | None:
    """The table after ``after`` (table by table: the next one comes up once one is done)."""
    later = [x["number"] for x in tables if after is None or x["number"] > after]
    return later[0] if later else None


def panel_context(
    t: Tournament, table: int | None, *, posted=None, error: DomainError | None = None
) -> dict[str, Any]:
    tables = _tables(t)
    if table is not None and table not in {x["number"] for x in tables}:
        table = None
    rows = table_counts(t, table) if table is not None else []
    for r in rows:
        r["typed"] = posted.get(f"chips_{r['seat']}", "") if posted is not None else ""
        r["invalid"] = bool(error and f"chips_{r['seat']}" in error.fields)
    # The cursor goes where the director types next: the refused row, else the first.
    focus = next((r for r in rows if r["invalid"]), rows[0] if rows else None)
    for r in rows:
        r["focus"] = r is focus
    read = chip_counts_read(t)
    return {
        "tournament": t,
        "cc_tables": tables,
        "cc_table": table,
        "cc_rows": rows,
        "cc_latest": read["counts"][:LATEST_SHOWN],
        "cc_more": max(0, len(read["counts"]) - LATEST_SHOWN),
        "cc": read,
        "cc_error": refusal_text(error) if error else "",
        "finished": t.status == Tournament.Status.FINISHED,
    }


def _render(
    request: HttpRequest, t: Tournament, table: int | None, *, status: int = 200, **ctx_args
) -> HttpResponse:
    ctx = panel_context(t, table, **{k: v for k, v in ctx_args.items() if k != "message"})
    ctx["cc_message"] = ctx_args.get("message", "")
    return render(request, PANEL if request.htmx else PAGE, ctx, status=status)


def posted_counts(data) -> dict[int, int]:
    """The rows typed: ``entry_<seat>`` (the player the row showed) and ``chips_<seat>``; a
    row left blank is not counted."""
    counts: dict[int, int] = {}
    for key in data:
        seat = ascii_int(key[6:], 4) if key.startswith("chips_") else None
        raw = (data.get(key) or "").replace(",", "").replace(" ", "").strip()
        if seat is None or not raw:
            continue
        chips = ascii_int(raw.removeprefix("-"), 16)
        if chips is None:
            raise refuse("bad_input", MSG_BAD_CHIPS, _BAD_CHIPS, key, seat=seat)
        if chips < 1 or raw.startswith("-"):
            raise refuse("bad_count", MSG_NO_CHIPS, _NO_CHIPS, key, seat=seat)
        entry = ascii_int(data.get(f"entry_{seat}") or "")
        if entry is None:
            raise refuse("bad_input", MSG_BAD_CHIPS, _BAD_CHIPS, key, seat=seat)
        counts[entry] = chips
    if not counts:
        raise DomainError("no_counts", MSG_NOTHING_TYPED, fields={"counts": MSG_NOTHING_TYPED})
    return counts


@director_view
def chip_counts(request: HttpRequest, t: Tournament) -> HttpResponse:
    """GET: the panel (``?table=N``: that table's rows). POST: record the rows typed."""
    if request.method != "POST":
        return _render(request, t, table_number_or_none(request.GET.get("table", "")))
    table = table_number_or_none(request.POST.get("table", ""))
    try:
        written = chip_counts_record(
            tournament_id=t.pk, counts=posted_counts(request.POST), actor=request.user
        )
    except DomainError as exc:
        return _render(request, t, table, status=exc.status, posted=request.POST, error=exc)
    t.refresh_from_db()
    following = _next_table(_tables(t), table)
    if not request.htmx:
        url = reverse("tourney-dashboard-chip-counts", args=[t.pk])
        return redirect(url + (f"?table={following}" if following else ""))
    when = written[0]["at"].astimezone(t.zone).strftime("%H:%M")
    n = len(written)
    message = ngettext(
        "Recorded %(n)s count at table %(table)s (%(at)s).",
        "Recorded %(n)s counts at table %(table)s (%(at)s).",
        n,
    ) % {"n": n, "table": table, "at": when}
    response = _render(request, t, following, message=message)
    trigger_client_event(response, CHANGED_EVENT, {"panel": "chip-counts"})
    return response
