"""Bag and tag of an ended Day 1 flight (RULES 10.4): the director picks a table (types its
number, or clicks it) and types each player's chips, one row per seat, Tab between them and
Enter to record the table (``bags_record``); the next table still to bag comes up. A table
entered again replaces its bags, so each row starts with the bag already entered. At the top,
the chips counted against the chips in play with the difference (shown, never corrected),
and the players still without a bag with their table and seat; "Close the bags"
(``flight_bag_close``) once every player still in has one. Then the page is read-only and
links the bag labels and the chip count report (print, CSV). Before the flight has ended,
and for a tournament that is no flight, it says so and shows no form.

Thin: read the form (``posted_counts`` of the chip count panel), call one service, render;
a refusal shows in place with what was typed kept. Reads: tourney/selectors/bags.py."""

from __future__ import annotations

import csv
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.http import urlencode
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe
from django_htmx.http import trigger_client_event

from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.models import Tournament
from tourney.selectors import bags as reads
from tourney.selectors.flights import bag_status, flight_end_reason, is_flight
from tourney.services import flights as service
from tourney.views import public_url
from tourney.views.dashboard.base import CHANGED_EVENT, director_view, table_number_or_none
from tourney.views.dashboard.chip_counts import posted_counts
from tourney.views.formatting import qr_svg
from tourney.views.money import _safe_cell

PANEL = "dashboard/_bags.html"
PAGE = "dashboard/bags.html"
MSG_BAD_TABLE = N_("Give the table's number, e.g. 3.")
MSG_CLOSED = N_("The bags are closed: %(counted)s chips counted, difference %(difference)s.")
# The CSV stays English in every language: programs read its header (docs, spreadsheets).
CSV_HEADER = ("rank", "name", "chips", "table", "seat", "flight")

# What the page is: no flight, a flight still playing, bagging, or bagged (read-only).
NOT_FLIGHT, NOT_ENDED, OPEN, CLOSED = "not_flight", "not_ended", "open", "closed"


def signed(n: int) -> str:
    """A difference as the page prints it: "+600", "−600" (a minus sign), "0"."""
    shown = number_format(abs(n), force_grouping=True)
    return f"+{shown}" if n > 0 else f"−{shown}" if n < 0 else "0"


def _state(t: Tournament) -> str:
    if not is_flight(t):
        return NOT_FLIGHT
    if t.bagged:
        return CLOSED
    return OPEN if flight_end_reason(t) is not None else NOT_ENDED


def _next_table(tables: list[dict[str, Any]], after: int | None) -> int | None:
    """The next table still to bag after ``after`` (from the first again at the end)."""
    waiting = [x["number"] for x in tables if not x["done"]]
    later = [n for n in waiting if after is None or n > after]
    return (later or waiting or [None])[0]


def _rows(t: Tournament, table: int | None, posted, error: DomainError | None):
    rows = reads.table_bags(t, table) if table is not None else []
    for r in rows:
        key = f"chips_{r['seat']}"
        kept = posted.get(key, "") if posted is not None else None
        r["typed"] = kept if kept is not None else (f"{r['bag']}" if r["bag"] else "")
        r["invalid"] = bool(error and error.fields and key in error.fields)
    # The cursor goes where the director types next: the refused row, else the first.
    focus = next((r for r in rows if r["invalid"]), rows[0] if rows else None)
    for r in rows:
        r["focus"] = r is focus
    return rows


def panel_context(
    t: Tournament,
    table: int | None,
    *,
    posted=None,
    error: DomainError | None = None,
    typed_table: str = "",
    message: str = "",
) -> dict[str, Any]:
    """What the panel shows. ``error`` with ``posted``: the rows as typed (even when the
    refusal says the page no longer takes bags, so nothing typed is lost)."""
    state = _state(t)
    ctx: dict[str, Any] = {
        "tournament": t,
        "state": state,
        "flight_label": reads.flight_label(t),
        "bag_message": message,
        "bag_error": refusal_text(error) if error else "",
        "close_error": bool(error and error.code == "counts_missing"),
        "bag_table": table,
        "typed_table": typed_table if error else (str(table) if table else ""),
    }
    if state == NOT_FLIGHT:
        ctx["state_message"] = _(service.MSG_NOT_A_FLIGHT)
        return ctx
    if state == NOT_ENDED and not posted:
        ctx["state_message"] = _(service.MSG_NOT_ENDED)
        return ctx
    check = bag_status(t)
    tables = reads.bag_tables(t)
    ctx.update(
        check=check,
        difference=signed(check.difference),
        bag_tables=tables,
        missing=reads.who(t, check.missing),
        not_in=reads.who(t, check.not_in),
        bag_rows=_rows(t, table, posted, error) if (state == OPEN or posted) else [],
        table_done=next((x["done"] for x in tables if x["number"] == table), False),
        bags_total=sum(x["bagged"] for x in tables),
        players_total=sum(x["players"] for x in tables),
    )
    if state == NOT_ENDED:
        ctx["state_message"] = _(service.MSG_NOT_ENDED)
    return ctx


def _render(request: HttpRequest, t: Tournament, table: int | None, *, status=200, **kw):
    ctx = panel_context(t, table, **kw)
    return render(request, PANEL if request.htmx else PAGE, ctx, status=status)


def _refused(request: HttpRequest, t: Tournament, exc: DomainError, **kw) -> HttpResponse:
    return _render(request, t, kw.pop("table", None), status=exc.status, error=exc, **kw)


def _table_asked(raw: str) -> tuple[int | None, DomainError | None]:
    """The table typed: its number, or the refusal (not a number; nobody sits there)."""
    raw = (raw or "").strip()
    if not raw:
        return None, None
    number = table_number_or_none(raw)
    if number is None or number < 1:
        return None, DomainError("bad_input", MSG_BAD_TABLE, status=400, fields={"table": raw})
    return number, None


@director_view
def bags(request: HttpRequest, t: Tournament) -> HttpResponse:
    """GET: the page (``?table=N``: that table's rows). POST: record the rows typed as the
    table's bags (``bags_record``: they replace the table's earlier bags)."""
    data = request.POST if request.method == "POST" else request.GET
    typed = (data.get("table") or "")[:20]
    table, refusal = _table_asked(typed)
    if refusal is None and table is not None and _state(t) == OPEN:
        if not any(x["number"] == table for x in reads.bag_tables(t)):
            p = {"table": table}
            refusal = DomainError(
                "no_table", service.MSG_NO_TABLE, status=404, fields={"table": typed}, params=p
            )
    if request.method != "POST":
        if refusal is not None:
            return _refused(request, t, refusal, typed_table=typed)
        return _render(request, t, table)
    try:
        if refusal is not None:
            raise refusal
        if table is None:
            raise DomainError("bad_input", MSG_BAD_TABLE, status=400, fields={"table": ""})
        counts = posted_counts(request.POST)
        written = service.bags_record(
            tournament_id=t.pk, table=table, counts=counts, actor=request.user
        )
    except DomainError as exc:
        known = table if exc.code != "no_table" else None
        return _refused(request, t, exc, table=known, posted=request.POST, typed_table=typed)
    t.refresh_from_db()
    following = _next_table(reads.bag_tables(t), table)
    if not request.htmx:
        url = reverse("tourney-dashboard-bags", args=[t.pk])
        return redirect(url + (f"?table={following}" if following else ""))
    n, chips = len(written), sum(r.chips for r in written)
    shown = {"table": table, "n": n, "chips": number_format(chips, force_grouping=True)}
    message = ngettext(
        "Table %(table)s: %(n)s bag recorded, %(chips)s chips.",
        "Table %(table)s: %(n)s bags recorded, %(chips)s chips.",
        n,
    )
    message %= shown
    response = _render(request, t, following, message=message)
    trigger_client_event(response, CHANGED_EVENT, {"panel": "bags"})
    return response


@director_view
def bags_close(request: HttpRequest, t: Tournament) -> HttpResponse:
    """POST: close the flight's bags (``flight_bag_close``); refused in place while a player
    still in has no bag. A GET goes back to the page."""
    url = reverse("tourney-dashboard-bags", args=[t.pk])
    if request.method != "POST":
        return redirect(url)
    try:
        closed = service.flight_bag_close(tournament_id=t.pk, actor=request.user)
    except DomainError as exc:
        return _refused(request, t, exc)
    if not request.htmx:
        return redirect(url)
    check = bag_status(closed)
    counted = number_format(check.counted, force_grouping=True)
    message = _(MSG_CLOSED) % {"counted": counted, "difference": signed(check.difference)}
    response = _render(request, closed, None, message=message)
    trigger_client_event(response, CHANGED_EVENT, {"panel": "bags"})
    return response


# ---------------------------------------------------------------- printouts


def _print_context(t: Tournament) -> dict[str, Any]:
    return {
        "tournament": t,
        "state": _state(t),
        "flight_label": reads.flight_label(t),
        "event_name": reads.event_name(t),
        "printed_at": timezone.localtime(),
        "not_flight": _(service.MSG_NOT_A_FLIGHT),
    }


def _qr_target(request: HttpRequest, ctx: dict[str, Any], label: dict[str, Any]) -> str:
    """What a label's QR holds: the phone page that finds the player by name (Day 2's once
    the bag went there), else a short text naming the bag."""
    if label["token"]:
        path = reverse("tourney-player", args=[label["token"]])
        return public_url(request, f"{path}?{urlencode({'name': label['name']})}")
    return (
        f"{ctx['event_name']} {ctx['flight_label']} bag {label['number']}: "
        f"{label['name']} {label['chips']:,}"
    )


@require_safe
@director_view
def bag_labels(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The bag labels (RULES 10.4), one per bag in table and seat order, for sticker sheets:
    the name, the chips, the event and flight, table and seat, the bag number, the date
    bagged and a QR (``_qr_target``)."""
    ctx = _print_context(t)
    labels = reads.label_rows(t)
    for label in labels:
        label["qr"] = qr_svg(_qr_target(request, ctx, label))
    ctx["labels"] = labels
    return render(request, "dashboard/bag_labels.html", ctx)


@require_safe
@director_view
def chip_report(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The chip count report of the bags (RULES 10.4), printable: biggest stack first with
    its rank, then table by table in seat order with each table's total."""
    ctx = _print_context(t)
    ctx.update(report=reads.report_rows(t), check=bag_status(t) if is_flight(t) else None)
    if ctx["check"] is not None:
        ctx["difference"] = signed(ctx["check"].difference)
    return render(request, "dashboard/chip_report.html", ctx)


@require_safe
@director_view
def chip_report_csv(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The chip count report as CSV: one header line ``rank,name,chips,table,seat,flight``,
    then one line per bag, biggest stack first (equal stacks share a rank; then by table and
    seat). Chips are plain whole numbers (no separator), ``flight`` is "Day 1B". Sorting on
    table, then seat gives the table order."""
    flight = reads.flight_label(t)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"{slugify(t.name) or 'flight'}-chip-counts.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(CSV_HEADER)
    for r in reads.report_rows(t)["by_chips"]:
        writer.writerow(
            (r["rank"], _safe_cell(r["name"]), r["chips"], r["table"], r["seat"], flight)
        )
    return response
