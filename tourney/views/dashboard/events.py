"""The director's screens of a multi-day event (RULES 10): creating the event with its flights
from the setup form and the event's fields (10.1, 10.2, 10.3), and the event's page: each
flight's field and bags, the total, the bags forfeited, the event's money (10.6), and Day 2's
build and seating (10.5) once every flight has bagged; and where a flight ends (10.2), changed
from its dashboard."""

from __future__ import annotations

import math

from django.http import Http404, HttpRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django_htmx.http import HttpResponseClientRedirect

from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.engine.money_format import money_exact
from tourney.engine.structure import LEVEL, item_index_of, item_number_of
from tourney.models import MultiDayEvent, Tournament
from tourney.selectors.clock import structure_items
from tourney.selectors.event_view import EventSummary, event_summary
from tourney.selectors.flights import day2_start_of, flight_line, flights_of, is_flight
from tourney.services import event_setup, flights, setup
from tourney.views.dashboard import setup_views
from tourney.views.dashboard.base import director_only, director_view, int_field

NEW_PAGE = "dashboard/event_new.html"
EVENT_PAGE = "dashboard/event.html"
DEFAULT_SEATS = 9
MSG_DAY2_SIZE = N_("Tables from 0 to 1000, seats per table from 2 to 12.")


def _attach(form: event_setup.EventForm, exc: DomainError) -> None:
    """The refusal's message next to the field it names (the event's fields by their form
    names; the setup form's as the setup page places them)."""
    fields = {event_setup.EVENT_FIELD_ALIASES.get(k, k): v for k, v in exc.fields.items()}
    if exc.code == "no_flight_end":  # RULES 10.2: either end will do
        fields = {"end_level": exc.message, "end_players": exc.message}
    setup_views._attach(
        form, DomainError(exc.code, exc.template, fields=fields, params=exc.params or None)
    )


def _preview(request: HttpRequest, form: event_setup.EventForm, ctx: dict):
    """The structure's chart and its typed levels, nothing created (as on the setup page)."""
    plan = setup.setup_plan(form.cleaned_data)
    data = request.POST.copy()
    data["levels_text"] = setup.levels_text(plan["items"])
    form = event_setup.EventForm(data)
    form.is_valid()
    ctx["chart"] = setup_views._preview(plan)
    ctx["levels_count"] = sum(1 for i in plan["items"] if i.kind == "level")
    return form


@director_only
def event_new(request: HttpRequest):
    """GET: the empty form. POST with ``preview``: the structure's chart, nothing created.
    POST: the event and its flights (``event_create``: one transaction, a refusal creates
    nothing and shows in place with what was typed kept), then the event's page."""
    ctx: dict = {"message": None}
    status = 200
    if request.method == "POST":
        form = event_setup.EventForm(request.POST)
        if not form.is_valid():
            ctx["message"] = _(setup_views.MSG_FIELDS)
            status = 400
        else:
            try:
                if request.POST.get("preview"):
                    form = _preview(request, form, ctx)
                else:
                    event = event_setup.event_setup_create(
                        data=form.cleaned_data, actor=request.user
                    )
                    target = reverse("tourney-event", args=[event.pk])
                    if request.htmx:
                        return HttpResponseClientRedirect(target)
                    return redirect(target)
            except DomainError as exc:
                _attach(form, exc)
                ctx["message"] = refusal_text(exc)
                status = exc.status
    else:
        form = event_setup.EventForm()
    ctx["form"] = form
    template = f"{NEW_PAGE}#event-form" if request.htmx else NEW_PAGE
    return render(request, template, ctx, status=status)


def _summary(event_id: int) -> EventSummary:
    s = event_summary(event_id)
    if s is None:
        raise Http404("No such multi-day event.")
    return s


def _event_context(s: EventSummary, *, tables: str = "", seats: str = "", level: str = "") -> dict:
    """The page's data: the summary, its money written out, the flights waiting to bag, and
    Day 2's form with a suggested number of tables (ceil(players / seats))."""
    first = Tournament.objects.filter(multi_day_event_id=s.event_id, day=1).order_by("pk").first()
    per_table = first.seats_per_table if first else DEFAULT_SEATS
    day2 = Tournament.objects.filter(pk=s.day2.tournament_id).first() if s.day2 else None
    return {
        "s": s,
        "policy": MultiDayEvent.Policy(s.policy).label,
        "bags": sum(f.bags for f in s.flights),
        "bagged_chips": sum(f.bagged_chips for f in s.flights),
        "pool": money_exact(s.pool),
        "prizes": [(n, money_exact(p)) for n, p in enumerate(s.prizes or (), start=1)],
        "waiting": [_("Day 1%(flight)s") % {"flight": f.letter} for f in s.flights if not f.bagged],
        "running": not s.all_bagged,
        "day2_tournament": day2,
        "tables": tables or str(max(1, math.ceil(s.day2_players / per_table))),
        "seats": seats or str(per_table),
        "level": level or str(_day2_level(s.event_id) or ""),
    }


def _day2_level(event_id: int) -> int | None:
    """Day 2's first level by its number (RULES 10.5: where Day 1 stopped), for the form."""
    days = flights_of(event_id)
    if not days:
        return None
    items = structure_items(days[0])
    return item_number_of(items, LEVEL, day2_start_of(days, items))


@director_only
def event_page(request: HttpRequest, event_id: int):
    """The event (RULES 10): its flights, the total, what goes to Day 2, the money, Day 2.
    An htmx request (the page's own refresh every few seconds while flights play) gets the
    live part only."""
    ctx = _event_context(_summary(event_id))
    template = f"{EVENT_PAGE}#event-live" if request.htmx else EVENT_PAGE
    return render(request, template, ctx)


@director_only
def event_day2(request: HttpRequest, event_id: int):
    """POST: build and seat Day 2 (``day2_build``, RULES 10.5) with the tables and seats
    given; a refusal shows on the event's page with what was typed kept. GET: the page."""
    target = reverse("tourney-event", args=[event_id])
    if request.method != "POST":
        return redirect(target)
    s = _summary(event_id)
    typed = {k: request.POST.get(k, "") for k in ("tables", "seats", "level")}
    try:
        tables = int_field(request.POST, "tables", _("Tables"))
        seats = int_field(request.POST, "seats", _("Seats per table"))
        if not 0 <= tables <= 1000 or not 2 <= seats <= 12:
            raise DomainError("bad_input", MSG_DAY2_SIZE, fields={"tables": MSG_DAY2_SIZE})
        level = int_field(request.POST, "level", _("Day 2 starts at level"), required=False)
        days = flights_of(event_id)
        start = (
            item_index_of(structure_items(days[0]), LEVEL, level, field="level")
            if level is not None and days
            else None
        )
        flights.day2_build(
            event_id=event_id,
            tables=tables,
            seats_per_table=seats,
            start_level=start,
            actor=request.user,
        )
    except DomainError as exc:
        ctx = _event_context(s, **typed)
        ctx["day2_message"] = refusal_text(exc)
        return render(request, EVENT_PAGE, ctx, status=exc.status)
    return redirect(target)


FLIGHT_END_PAGE = "dashboard/flight_end.html"


def _end_context(t: Tournament, *, level: str | None = None, players: str | None = None) -> dict:
    items = structure_items(t)
    current = item_number_of(items, LEVEL, t.end_at_level)
    return {
        "tournament": t,
        "line": flight_line(t),
        "levels": sum(1 for i in items if i.kind == LEVEL),
        "level": str(current or "") if level is None else level,
        "players": str(t.end_at_players or "") if players is None else players,
        "bagged": t.bagged,
    }


@director_view
def flight_end(request: HttpRequest, t: Tournament):
    """Where a Day 1 flight ends (RULES 10.2): its last level as the clock numbers it, and/or
    the number of players it plays down to. POST: ``flight_end_set`` (play on past the end,
    or stop sooner; undone from the log); a refusal shows in place with what was typed."""
    if not is_flight(t):
        raise Http404("Not a Day 1 flight.")
    if request.method != "POST":
        return render(request, FLIGHT_END_PAGE, _end_context(t))
    typed = {"level": request.POST.get("level", ""), "players": request.POST.get("players", "")}
    try:
        level = int_field(request.POST, "level", _("Last level"), required=False)
        players = int_field(request.POST, "players", _("Players"), required=False)
        index = item_index_of(structure_items(t), LEVEL, level, field="level")
        t = flights.flight_end_set(
            tournament_id=t.pk, end_at_level=index, end_at_players=players, actor=request.user
        )
    except DomainError as exc:
        ctx = _end_context(t, **typed)
        ctx["message"] = refusal_text(exc)
        return render(request, FLIGHT_END_PAGE, ctx, status=exc.status)
    return redirect("tourney-dashboard", t.pk)  # its clock panel says the new end
