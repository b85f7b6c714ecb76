"""Setup: create a tournament from the form (presets, the generator or typed levels, with the
structure chart as a preview), or copy a past one. The form handling is tourney.services.setup."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop as N_
from django_htmx.http import HttpResponseClientRedirect, trigger_client_event

from tourney import charts, form_messages
from tourney.core.language import refusal_text
from tourney.engine.errors import DomainError
from tourney.engine.numbers import ascii_int
from tourney.models import Event, Tournament
from tourney.services import setup, tournament_settings
from tourney.views.dashboard.base import CHANGED_EVENT, director_only, director_view
from tourney.views.dashboard.satellites import settings_context as satellite_settings_context

PAST_SHOWN = 30
MSG_FIELDS = N_("Some fields need a look.")
MSG_FIELDS_NOT_SAVED = N_("Some fields need a look: nothing was saved.")


FIELD_ALIASES = {
    "percentages": "payouts",
    "level": "late_reg_level",
    "bb_ante_from_level": "bb_ante_from",
    "rounding_unit": "rounding",
    "denominations": "chips",
}


def field_text(exc: DomainError, msg) -> str:
    """A message a refusal puts at a field, in the active language: the refusal's own (its
    template translated, then filled in) or a marked constant; anything else as written."""
    text = str(msg)
    if text == exc.message:
        return refusal_text(exc)
    return _(text) if text else text


def _attach(form: setup.SetupForm, exc: DomainError) -> None:
    """Show an engine's or service's message next to the field it names; problems with the
    levels in the words of the levels box ("Level 2 (line 3): the small blind must be …")."""
    placed = False
    levels = {k: v for k, v in exc.fields.items() if form_messages.is_levels_key(k)}
    if levels:
        typed = form.data.get("structure") == "custom"
        text = form.data.get("levels_text") if typed else None
        for msg in form_messages.levels_messages(levels, text):
            form.add_error("levels_text", msg)
        placed = True
    for key, msg in exc.fields.items():
        name = FIELD_ALIASES.get(key, key)
        if key in levels:
            continue
        if name in form.fields:
            form.add_error(name, field_text(exc, msg))
            placed = True
    if not placed:
        form.add_error(None, refusal_text(exc))


def _preview(plan: dict) -> str:
    return mark_safe(  # noqa: S308 — numbers and fixed words only (tourney.charts)
        charts.structure_svg(
            plan["items"],
            starting_stack=plan["starting_stack"],
            field=max(2, plan["tables"] * plan["seats_per_table"]),
        )
    )


@director_only
def new(request: HttpRequest):
    """GET: the empty form (``?from=<id>``: filled in from a past tournament). POST with
    ``preview``: the chart and the typed levels, nothing created. POST: create."""
    ctx = {
        "past": Tournament.objects.only("pk", "name", "created_at")[:PAST_SHOWN],
        "message": None,
    }
    status = 200
    if request.method == "POST":
        form = setup.SetupForm(request.POST)
        if not form.is_valid():
            ctx["message"] = _(MSG_FIELDS)
            status = 400
        else:
            try:
                if request.POST.get("preview"):
                    plan = setup.setup_plan(form.cleaned_data)
                    data = request.POST.copy()
                    data["levels_text"] = setup.levels_text(plan["items"])
                    form = setup.SetupForm(data)
                    form.is_valid()
                    ctx["chart"] = _preview(plan)
                    ctx["levels_count"] = sum(1 for i in plan["items"] if i.kind == "level")
                else:
                    t = setup.setup_create(data=form.cleaned_data, actor=request.user)
                    target = reverse("tourney-dashboard", args=[t.pk])
                    if request.htmx:
                        return HttpResponseClientRedirect(target)
                    return redirect(target)
            except DomainError as exc:
                _attach(form, exc)
                ctx["message"] = refusal_text(exc)
                status = exc.status
    else:
        initial = None
        src_id = ascii_int(request.GET.get("from", ""))
        if src_id is not None:
            src = Tournament.objects.filter(pk=src_id).first()
            if src is not None:
                initial = setup.copy_initial(src)
        form = setup.SetupForm(initial=initial)
    ctx["form"] = form
    template = "dashboard/setup.html#setup-form" if request.htmx else "dashboard/setup.html"
    return render(request, template, ctx, status=status)


@director_view
def copy(request: HttpRequest, t: Tournament):
    """Next week's event in one click: same settings, structure and tables."""
    if request.method != "POST":
        return redirect(reverse("tourney-dashboard-setup") + f"?from={t.pk}")
    try:
        new_t = setup.tournament_copy(
            source_id=t.pk, name=request.POST.get("name", ""), actor=request.user
        )
    except DomainError as exc:
        ctx = {
            "past": Tournament.objects.only("pk", "name", "created_at")[:PAST_SHOWN],
            "message": refusal_text(exc),
            "form": setup.SetupForm(initial=setup.copy_initial(t)),
        }
        return render(request, "dashboard/setup.html", ctx, status=exc.status)
    target = reverse("tourney-dashboard", args=[new_t.pk])
    return HttpResponseClientRedirect(target) if request.htmx else redirect(target)


# ---------------------------------------------------------------- settings (issue 31, item 6)


def _attach_setting(form, exc: DomainError) -> None:
    """A service's message next to the settings form's field it names (model names mapped)."""
    placed = False
    for key, msg in exc.fields.items():
        name = tournament_settings.MODEL_TO_FORM.get(key, FIELD_ALIASES.get(key, key))
        if name in form.fields and isinstance(msg, str):
            form.add_error(name, field_text(exc, msg))
            placed = True
    if not placed:
        form.add_error(None, refusal_text(exc))


def _put_current(data, name: str, value) -> None:
    """The settings form's field ``name`` posted as it is now (a checkbox: sent when on)."""
    if value is False:
        data.pop(name, None)
    else:
        data[name] = "on" if value is True else "" if value is None else str(value)


@director_view
def settings_page(request: HttpRequest, t: Tournament):
    """GET: the tournament's settings as they are. POST: change what differs, as one recorded
    and undoable action (``tournament_settings.tournament_settings_update``); a refusal or a
    bad value answers 4xx with the message at its field and what was typed kept."""
    ctx: dict = {"tournament": t, "message": None, "saved": None}
    status = 200
    locked = tournament_settings.locked_fields(t)
    if request.method == "POST":
        # A read-only field is not sent by the browser: it keeps its value. One that is sent
        # back unchanged is no change either; only a different value is refused.
        data = request.POST.copy()
        current = tournament_settings.settings_initial(t)
        for name in locked:
            if name not in data:
                _put_current(data, name, current[name])
        form = tournament_settings.SettingsForm(data)
        if not form.is_valid():
            ctx["message"] = _(MSG_FIELDS_NOT_SAVED)
            status = 400
        else:
            try:
                changes = tournament_settings.changes_from_form(t, form.cleaned_data)
                tournament_settings.tournament_settings_update(
                    tournament_id=t.pk, changes=changes, actor=request.user
                )
            except DomainError as exc:
                _attach_setting(form, exc)
                ctx["message"] = refusal_text(exc)
                status = exc.status
                for name in locked:  # a read-only field shows what it is, not what was typed
                    _put_current(data, name, current[name])
            else:
                t.refresh_from_db()
                locked = tournament_settings.locked_fields(t)
                done = (
                    Event.objects.filter(tournament=t, kind="settings_changed")
                    .order_by("-pk")
                    .values_list("payload__changes", flat=True)
                    .first()
                )
                summary = tournament_settings.summary_of(t, done or {})  # in the language
                if not request.htmx:
                    messages.success(request, _("Saved.") + f" {summary}")
                    return redirect(reverse("tourney-dashboard-settings", args=[t.pk]))
                ctx["saved"] = summary
                form = tournament_settings.SettingsForm(
                    initial=tournament_settings.settings_initial(t)
                )
    else:
        form = tournament_settings.SettingsForm(initial=tournament_settings.settings_initial(t))
    for name in locked:
        form.fields[name].widget.attrs["disabled"] = True
    ctx["form"] = form
    ctx["locked"] = locked
    # RULES 9.1, 9.4: the price in its parts; the envelopes against the money collected
    ctx["price"] = tournament_settings.price_text(t)
    ctx["envelopes_hint"] = tournament_settings.envelopes_hint(t)
    ctx.update(satellite_settings_context(t))  # RULES 12.1: a form of its own
    template = (
        "dashboard/settings.html#settings-form" if request.htmx else "dashboard/settings.html"
    )
    response = render(request, template, ctx, status=status)
    if status < 400 and request.method == "POST":
        trigger_client_event(response, CHANGED_EVENT)
    return response
